// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * c-init.c - a static /init for guests that have no busybox (Debian 12 has
 * no 32-bit powerpc port, so no busybox-static for ppc32).  It mounts proc,
 * sysfs and devtmpfs, runs one of two workloads with the QEMU plugin's
 * phase marker /bin/hpmark exec'd between steps, and reboots (QEMU runs
 * with -no-reboot, so the guest exits).  The workload is named by the
 * first line of /workload in the initramfs, so the kernel command line is
 * the same for every workload:
 *
 *   steps   the five steps of examples/kernel/workload.sh, in C: read/write
 *           pairs /dev/zero -> /dev/null; reads of a file of the initramfs;
 *           small writes to /dev/null; three procfs files and a fork+exec;
 *           a recursive opendir/readdir/lstat walk of /sys/kernel
 *   other   other syscall families: pipes between processes, fork/exec/
 *           wait, signals (handler, kill, nanosleep, kill of a sleeper),
 *           file writes on tmpfs (creat, write, fsync, truncate, rename,
 *           unlink)
 *   FAMILY...  the workload families of examples/kernel/workloads/ named
 *           (chardev pagecache filewrite pipe forkexec walk procsys
 *           signals mm, any of them in any order), an hpmark between two,
 *           so that phase K is the K-th named (bench/kernel-families.sh):
 *           C versions of the scripts, the same kinds of syscalls on the
 *           same files with the same counts, without busybox's own code
 *
 * Built by examples/kernel/kernel.sh with the cross compiler, -static.
 * Exec'd as "true" it exits at once (the fork+exec steps run it so), as
 * "exit3" with status 3, as "exec-true" it execs itself as "true".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char buf[65536];

static void say(const char *msg)
{
	if (write(1, msg, strlen(msg)) < 0)
		_exit(1);
}

/* run PATH with argv[0] ARG0 in a child and wait for it */
static void run(const char *path, const char *arg0)
{
	pid_t pid = fork();

	if (pid < 0) {
		say("init: fork failed\n");
		return;
	}
	if (pid == 0) {
		char *argv[] = { (char *)arg0, NULL };
		char *envp[] = { NULL };

		execve(path, argv, envp);
		_exit(127);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* the plugin starts a new counting phase when hpmark's entry point runs */
static void hpmark(void)
{
	run("/bin/hpmark", "hpmark");
}

/* copy COUNT blocks of BS bytes from IN to OUT (all of IN when COUNT < 0) */
static void copy(const char *in, const char *out, size_t bs, long count)
{
	int fi = open(in, O_RDONLY), fo = open(out, O_WRONLY);
	ssize_t n;

	if (fi < 0 || fo < 0) {
		say("init: cannot open a copy's files\n");
		goto out;
	}
	while (count-- != 0 && (n = read(fi, buf, bs)) > 0)
		if (write(fo, buf, (size_t)n) != n)
			break;
out:
	if (fi >= 0)
		close(fi);
	if (fo >= 0)
		close(fo);
}

/* FN(PATH, NAME, ST, CTX) for each entry of DIR but . and .., lstat'ed,
 * until FN returns < 0; FN descends into directories itself */
typedef int entry_fn(const char *path, const char *name, const struct stat *st, void *ctx);

static int each_entry(const char *dir, entry_fn *fn, void *ctx)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	char path[512];
	int r = 0;

	if (!d)
		return 0;
	while (r >= 0 && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir[1] ? dir : "", e->d_name);
		if (lstat(path, &st) == 0)
			r = fn(path, e->d_name, &st, ctx);
	}
	closedir(d);
	return r;
}

/* find -xdev, ls -lR, du -s: into directories on device *CTX (any when
 * 0), readlink of the links */
static int tree_entry(const char *path, const char *name, const struct stat *st, void *ctx)
{
	dev_t dev = *(dev_t *)ctx;
	char link[256];

	(void)name;
	if (S_ISDIR(st->st_mode) && (!dev || st->st_dev == dev))
		each_entry(path, tree_entry, ctx);
	else if (S_ISLNK(st->st_mode) && readlink(path, link, sizeof(link)) < 0)
		errno = 0;
	return 0;
}

/* lstat and getdents of everything under PATH on device DEV (any: 0) */
static void tree(const char *path, dev_t dev)
{
	each_entry(path, tree_entry, &dev);
}

static void steps(void)
{
	int fd, i;
	char line[16];

	copy("/dev/zero", "/dev/null", 4096, 20000);		/* 1: char devs */
	hpmark();
	for (i = 0; i < 8; i++)					/* 2: page cache */
		copy("/init", "/dev/null", 4096, -1);
	hpmark();
	fd = open("/dev/null", O_WRONLY);			/* 3: small writes */
	for (i = 0; i < 2000 && fd >= 0; i++)
		if (write(fd, line, (size_t)snprintf(line, sizeof(line), "%d\n", i)) < 0)
			break;
	if (fd >= 0)
		close(fd);
	hpmark();
	copy("/proc/self/status", "/dev/null", 4096, -1);	/* 4: procfs, fork/exec */
	copy("/proc/meminfo", "/dev/null", 4096, -1);
	copy("/proc/cmdline", "/dev/null", 4096, -1);
	run("/init", "true");
	hpmark();
	tree("/sys/kernel", 0);					/* 5: getdents/stat */
}

static volatile sig_atomic_t caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

static void pipes(void)
{
	int p[2], i;
	pid_t pid;

	for (i = 0; i < 4; i++) {
		if (pipe(p) < 0)
			return;
		pid = fork();
		if (pid == 0) {
			close(p[1]);
			while (read(p[0], buf, 4096) > 0)
				;
			_exit(0);
		}
		close(p[0]);
		for (int k = 0; k < 500 && pid > 0; k++)
			if (write(p[1], buf, i & 1 ? 512 : 4096) < 0)
				break;
		close(p[1]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

static void forkexec(void)
{
	for (int i = 0; i < 30; i++) {
		pid_t pid = fork();

		if (pid == 0)		/* a fork that only exits */
			_exit(3);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		run("/init", "true");
	}
}

static void signals(void)
{
	struct sigaction sa;
	struct timespec ts = { 0, 1000000 };
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	while (caught < 200)
		kill(getpid(), SIGUSR1);
	for (int i = 0; i < 20; i++)
		nanosleep(&ts, NULL);
	pid = fork();
	if (pid == 0) {
		ts.tv_sec = 5;
		nanosleep(&ts, NULL);
		_exit(0);
	}
	if (pid > 0) {
		nanosleep(&ts, NULL);
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
}

static void filewrite(void)
{
	char name[64], to[64];
	int fd;

	mkdir("/tmp/fw", 0755);
	if (mount("tmpfs", "/tmp/fw", "tmpfs", 0, NULL) < 0)
		say("init: tmpfs mount failed; writing on rootfs\n");
	memset(buf, 0, 4096);
	for (int i = 0; i < 30; i++) {
		fd = open("/tmp/fw/log", O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			if (write(fd, "line\n", 5) < 0)
				say("init: write failed\n");
			close(fd);
		}
		snprintf(name, sizeof(name), "/tmp/fw/f%d", i);
		fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			continue;
		for (int k = 0; k < 8; k++)
			if (write(fd, buf, 4096) < 0)
				break;
		fsync(fd);
		close(fd);
	}
	truncate("/tmp/fw/f1", 1000);
	rename("/tmp/fw/f3", "/tmp/fw/g3");
	for (int i = 0; i < 30; i++) {
		snprintf(name, sizeof(name), "/tmp/fw/f%d", i);
		snprintf(to, sizeof(to), "/tmp/fw/g%d", i);
		unlink(name);
		unlink(to);
	}
	unlink("/tmp/fw/log");
	umount("/tmp/fw");
}

static void other(void)
{
	pipes();
	hpmark();
	forkexec();
	hpmark();
	signals();
	hpmark();
	filewrite();
}

/*
 * The workload families of examples/kernel/workloads/, one function each,
 * in C for a guest without busybox: each does the kinds of syscalls its
 * script's commands do, on the same files, with the script's counts.
 */

/* dd if=IN of=OUT bs=BS count=COUNT seek to SKIP blocks first (conv=fsync:
 * FSYNC); COUNT < 0: to the end; OUT NULL: to /dev/null */
static void dd(const char *in, const char *out, int oflags, size_t bs, long count,
	       long skip, int fsync_it)
{
	int fi = open(in, O_RDONLY);
	int fo = open(out ? out : "/dev/null", O_WRONLY | oflags, 0644);
	ssize_t n;

	if (fi < 0 || fo < 0) {
		say("init: dd cannot open its files\n");
		goto out;
	}
	if (skip > 0)
		lseek(fi, (off_t)(skip * (long)bs), SEEK_SET);
	while (count-- != 0 && (n = read(fi, buf, bs)) > 0)
		if (write(fo, buf, (size_t)n) != n)
			break;
	if (fsync_it)
		fsync(fo);
out:
	if (fi >= 0)
		close(fi);
	if (fo >= 0)
		close(fo);
}

static void fam_chardev(void)
{
	dd("/dev/zero", NULL, 0, 4096, 4500, 0, 0);
	dd("/dev/zero", NULL, 0, 512, 4500, 0, 0);
	dd("/dev/zero", NULL, 0, 65536, 180, 0, 0);
}

/* the scripts read /bin/busybox; here the largest file of the initramfs is
 * /init itself */
static void fam_pagecache(void)
{
	dd("/init", NULL, 0, 4096, -1, 0, 0);
	dd("/init", NULL, 0, 65536, -1, 0, 0);
	dd("/init", NULL, 0, 512, 4000, 0, 0);
	dd("/init", NULL, 0, 4096, 200, 100, 0);
	dd("/init", NULL, 0, 4096, -1, 0, 0);	/* cat */
}

/* echo TEXT >> (APPEND) or > PATH */
static void echo_to(const char *path, const char *text, int append)
{
	int fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		say("init: write failed\n");
	close(fd);
}

/* rm -f DIR/[all]: getdents of DIR, lstat and unlink of each */
static int unlink_entry(const char *path, const char *name, const struct stat *st, void *ctx)
{
	(void)name, (void)st, (void)ctx;
	unlink(path);
	return 0;
}

static void fam_filewrite(void)
{
	char path[64], line[32];
	int fd;

	mkdir("/tmp/fw", 0755);
	if (mount("tmpfs", "/tmp/fw", "tmpfs", 0, NULL) < 0)
		say("init: tmpfs mount failed; writing on rootfs\n");
	for (int i = 0; i < 30; i++) {
		snprintf(line, sizeof(line), "line %d\n", i);
		echo_to("/tmp/fw/log", line, 1);
		snprintf(path, sizeof(path), "/tmp/fw/s%d", i);
		echo_to(path, line, 0);
		snprintf(path, sizeof(path), "/tmp/fw/f%d", i);
		dd("/dev/zero", path, O_CREAT | O_TRUNC, 4096, 8, 0, 1);
	}
	fd = open("/tmp/fw/log", O_RDONLY);	/* sync -d */
	if (fd >= 0) {
		fdatasync(fd);
		close(fd);
	}
	truncate("/tmp/fw/f1", 1000);
	dd("/dev/zero", "/tmp/fw/f2", O_CREAT, 4096, 8, 0, 1);
	rename("/tmp/fw/f3", "/tmp/fw/g3");
	each_entry("/tmp/fw", unlink_entry, NULL);
	umount("/tmp/fw");
}

/* fork a child that runs FN(ARG) with its stdin from IN and stdout to OUT
 * (-1: unchanged) and exits; the parent closes nothing, the child all
 * else */
static pid_t spawn(void (*fn)(long), long arg, int in, int out)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (in >= 0)
		dup2(in, 0);
	if (out >= 0)
		dup2(out, 1);
	/* no other pipe end stays open: a writer sees its reader go */
	for (int fd = 3; fd < 64; fd++)
		close(fd);
	fn(arg);
	_exit(0);
}

/* cat: stdin to stdout in blocks of ARG bytes */
static void cat_fn(long bs)
{
	ssize_t n;

	while ((n = read(0, buf, (size_t)bs)) > 0)
		if (write(1, buf, (size_t)n) != n)
			break;
}

/* dd if=/dev/zero bs=ARG count=...: to stdout (count in the high bits) */
static void zero_fn(long arg)
{
	int fd = open("/dev/zero", O_RDONLY);
	size_t bs = (size_t)(arg & 0xfffff);
	long count = arg >> 20;
	ssize_t n;

	while (fd >= 0 && count-- > 0 && (n = read(fd, buf, bs)) > 0)
		if (write(1, buf, (size_t)n) != n)
			break;
}

/* yes hotpack: lines until the reader goes */
static void yes_fn(long unused)
{
	static char lines[4096];

	(void)unused;
	for (size_t i = 0; i + 8 <= sizeof(lines); i += 8)
		memcpy(lines + i, "hotpack\n", 8);
	signal(SIGPIPE, SIG_DFL);
	while (write(1, lines, sizeof(lines)) > 0)
		;
}

/* head -n ARG: read until ARG lines, then exit (the writer gets EPIPE) */
static void head_fn(long lines)
{
	ssize_t n;

	while (lines > 0 && (n = read(0, buf, 4096)) > 0)
		for (ssize_t i = 0; i < n && lines > 0; i++)
			lines -= buf[i] == '\n';
}

/* seq 1 ARG, buffered as stdio would */
static void seq_fn(long last)
{
	char out[4096];
	size_t len = 0;

	for (long i = 1; i <= last; i++) {
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%ld\n", i);
		if (len > sizeof(out) - 32) {
			if (write(1, out, len) < 0)
				return;
			len = 0;
		}
	}
	if (len && write(1, out, len) < 0)
		return;
}

/* wc -l */
static void wc_fn(long unused)
{
	ssize_t n;
	long lines = 0;
	char num[32];

	(void)unused;
	while ((n = read(0, buf, 4096)) > 0)
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
	if (write(1, num, (size_t)snprintf(num, sizeof(num), "%ld\n", lines)) < 0)
		return;
}

/* a pipeline of the N stages FN[i](ARG[i]), the last one's stdout to
 * /dev/null; waits for all */
static void pipeline(int n, void (*fn[])(long), const long arg[])
{
	pid_t pid[8];
	int in = -1, p[2], null = open("/dev/null", O_WRONLY);

	for (int i = 0; i < n; i++) {
		if (i < n - 1 && pipe(p) < 0)
			break;
		pid[i] = spawn(fn[i], arg[i], in, i < n - 1 ? p[1] : null);
		if (in >= 0)
			close(in);
		if (i < n - 1) {
			close(p[1]);
			in = p[0];
		}
	}
	for (int i = 0; i < n; i++)
		if (pid[i] > 0)
			waitpid(pid[i], NULL, 0);
	if (null >= 0)
		close(null);
}

static void fam_pipe(void)
{
	void (*dd_cat[])(long) = { zero_fn, cat_fn };
	const long a1[] = { 4096 | (1500L << 20), 4096 };
	const long a2[] = { 512 | (3000L << 20), 512 };
	void (*yes_head[])(long) = { yes_fn, head_fn };
	const long a3[] = { 0, 15000 };
	void (*seq_wc[])(long) = { seq_fn, cat_fn, cat_fn, wc_fn };
	const long a4[] = { 5000, 4096, 4096, 0 };
	pid_t pid;

	pipeline(2, dd_cat, a1);
	pipeline(2, dd_cat, a2);
	pipeline(2, yes_head, a3);
	pipeline(4, seq_wc, a4);
	if (mkfifo("/tmp/hp.fifo", 0644) < 0)
		say("init: mkfifo failed\n");
	pid = fork();
	if (pid == 0) {
		dd("/dev/zero", "/tmp/hp.fifo", 0, 4096, 500, 0, 0);
		_exit(0);
	}
	dd("/tmp/hp.fifo", NULL, 0, 4096, -1, 0, 0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	unlink("/tmp/hp.fifo");
}

static void fam_forkexec(void)
{
	int p[2];
	pid_t pid;

	for (int i = 0; i < 30; i++) {
		run("/init", "true");			/* /bin/true */
		pid = fork();				/* (:) */
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		if (pipe(p) < 0)			/* $(echo $fe) */
			continue;
		pid = fork();
		if (pid == 0) {
			char num[16];

			close(p[0]);
			if (write(p[1], num, (size_t)snprintf(num, sizeof(num), "%d\n", i)) < 0)
				_exit(1);
			_exit(0);
		}
		close(p[1]);
		while (read(p[0], buf, sizeof(buf)) > 0)
			;
		close(p[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	run("/init", "exit3");				/* sh -c 'exit 3' */
	run("/init", "exec-true");			/* env /bin/true */
}

static void fam_walk(void)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	char path[512], link[256];

	if (lstat("/", &st) == 0)
		tree("/", st.st_dev);			/* find / -xdev */
	tree("/bin", 0);				/* ls -lR /bin */
	d = opendir("/bin");				/* stat /bin/[all] */
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/bin/%s", e->d_name);
		lstat(path, &st);
	}
	if (d)
		closedir(d);
	tree("/bin", 0);				/* du -s /bin */
	if (readlink("/bin/hpmark", link, sizeof(link)) < 0)	/* readlink */
		errno = 0;
	for (int i = 0; i < 100; i++) {			/* [ -e ] [ -d ] [ -x ] */
		stat("/init", &st);
		stat("/tmp", &st);
		access("/bin/hpmark", X_OK);
	}
}

/* sysctl -a: read every readable file under /proc/sys */
static int read_entry(const char *path, const char *name, const struct stat *st, void *ctx)
{
	(void)name;
	if (S_ISDIR(st->st_mode))
		each_entry(path, read_entry, ctx);
	else if (S_ISREG(st->st_mode) && (st->st_mode & 0444))
		copy(path, "/dev/null", 4096, -1);
	return 0;
}

/* find /sys/devices -name uevent | head -n 50 | xargs cat: *CTX more */
static int uevent_entry(const char *path, const char *name, const struct stat *st, void *ctx)
{
	int *left = ctx;

	if (S_ISDIR(st->st_mode))
		each_entry(path, uevent_entry, ctx);
	else if (!strcmp(name, "uevent")) {
		copy(path, "/dev/null", 4096, -1);
		(*left)--;
	}
	return *left > 0 ? 0 : -1;
}

static void fam_procsys(void)
{
	static const char *const files[] = {
		"/proc/self/status", "/proc/self/maps", "/proc/self/stat",
		"/proc/meminfo", "/proc/cmdline", "/proc/stat", "/proc/interrupts",
		"/proc/uptime", "/proc/version", "/proc/loadavg",
		"/proc/filesystems", "/proc/mounts",
	};
	DIR *d;
	struct dirent *e;
	char path[300];
	int left = 50;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		copy(files[i], "/dev/null", 4096, -1);
	d = opendir("/proc");				/* ps */
	while (d && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		copy(path, "/dev/null", 4096, -1);
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		copy(path, "/dev/null", 4096, -1);
	}
	if (d)
		closedir(d);
	each_entry("/proc/sys", read_entry, NULL);	/* sysctl -a */
	tree("/sys/kernel", 0);				/* ls -lR */
	tree("/sys/devices/system", 0);
	each_entry("/sys/devices", uevent_entry, &left);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void fam_signals(void)
{
	struct sigaction sa;
	struct timespec ms10 = { 0, 10000000 }, ms1 = { 0, 1000000 }, s5 = { 5, 0 };
	pid_t pid = fork();

	if (pid == 0) {				/* the trap loop, in a child */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_usr1;
		sigaction(SIGUSR1, &sa, NULL);
		while (caught < 200)
			kill(getpid(), SIGUSR1);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	for (int i = 0; i < 20; i++) {		/* sleep 0.01; usleep 1000 */
		nanosleep(&ms10, NULL);
		nanosleep(&ms1, NULL);
	}
	pid = fork();				/* sleep 5 &; kill -TERM; wait */
	if (pid == 0) {
		nanosleep(&s5, NULL);
		_exit(0);
	}
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	pid = fork();				/* timeout 1 sleep 3 */
	if (pid == 0) {
		s5.tv_sec = 3;
		nanosleep(&s5, NULL);
		_exit(0);
	}
	if (pid > 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;	/* no SA_RESTART: wait stops */
		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		if (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
			kill(pid, SIGTERM);
			waitpid(pid, NULL, 0);
		}
		alarm(0);
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (y > x) - (y < x);	/* sort -r */
}

static void fam_mm(void)
{
	size_t big = 2 << 20, n = 0, cap = 0;
	long *v = NULL, *nv;
	void **heap;
	FILE *f;
	char line[32];

	for (int i = 0; i < 8; i++) {		/* dd bs=2M count=1 */
		char *b = mmap(NULL, big, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		int fi = open("/dev/zero", O_RDONLY), fo = open("/dev/null", O_WRONLY);

		if (b != MAP_FAILED && fi >= 0 && fo >= 0 && read(fi, b, big) > 0 &&
		    write(fo, b, big) < 0)
			say("init: write failed\n");
		if (fi >= 0)
			close(fi);
		if (fo >= 0)
			close(fo);
		if (b != MAP_FAILED)
			munmap(b, big);
	}
	heap = malloc(50000 * sizeof(*heap));	/* awk's growing array */
	for (int i = 0; heap && i < 50000; i++) {
		heap[i] = malloc(48);
		if (heap[i])
			memset(heap[i], i, 48);
	}
	for (int i = 0; heap && i < 50000; i++)
		free(heap[i]);
	free(heap);
	f = fopen("/tmp/mm.txt", "w");		/* seq 1 20000 > /tmp/mm.txt */
	for (int i = 1; f && i <= 20000; i++)
		fprintf(f, "%d\n", i);
	if (f)
		fclose(f);
	f = fopen("/tmp/mm.txt", "r");		/* sort -r, in memory */
	while (f && fgets(line, sizeof(line), f)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n++] = strtol(line, NULL, 10);
	}
	if (f)
		fclose(f);
	qsort(v, n, sizeof(*v), cmp_long);
	f = fopen("/dev/null", "w");
	for (size_t i = 0; f && i < n; i++)
		fprintf(f, "%ld\n", v[i]);
	if (f)
		fclose(f);
	free(v);
	unlink("/tmp/mm.txt");
}

static const struct family {
	const char *name;
	void (*run)(void);
} families[] = {
	{ "chardev", fam_chardev }, { "pagecache", fam_pagecache },
	{ "filewrite", fam_filewrite }, { "pipe", fam_pipe },
	{ "forkexec", fam_forkexec }, { "walk", fam_walk },
	{ "procsys", fam_procsys }, { "signals", fam_signals }, { "mm", fam_mm },
};

static const struct family *family_named(const char *name)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(families[i].name, name))
			return &families[i];
	return NULL;
}

/* LIST: family names separated by blanks; 0 when all are known and ran */
static int run_families(char *list)
{
	const struct family *f[16];
	int n = 0;

	for (char *w = strtok(list, " \t"); w; w = strtok(NULL, " \t")) {
		if (n == 16 || !(f[n] = family_named(w))) {
			say("init: /workload: not a workload family: ");
			say(w);
			say("\n");
			return -1;
		}
		n++;
	}
	if (!n) {
		say("init: /workload names no workload (steps, other or families)\n");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			hpmark();
		f[i]->run();
	}
	return 0;
}

int main(int argc, char **argv)
{
	char name[256] = "";
	int fd, done;

	(void)argc;
	if (!strcmp(argv[0], "true"))
		return 0;
	if (!strcmp(argv[0], "exit3"))
		return 3;
	if (!strcmp(argv[0], "exec-true")) {
		char *av[] = { "true", NULL }, *ev[] = { NULL };

		execve("/init", av, ev);
		return 127;
	}
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/workload", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, name, sizeof(name) - 1);

		name[n > 0 ? n : 0] = '\0';
		name[strcspn(name, "\n")] = '\0';
		close(fd);
	}
	say("hotpack: workload start\n");
	hpmark();
	done = 1;
	if (!strcmp(name, "steps"))
		steps();
	else if (!strcmp(name, "other"))
		other();
	else
		done = run_families(name) == 0;
	hpmark();
	if (done)
		say("hotpack: workload done\n");
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
