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
 *
 * Built by examples/kernel/kernel.sh with the cross compiler, -static.
 * Exec'd as "true" it exits at once (the fork+exec steps run it so).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* ls -lR: open, getdents, lstat, readlink of everything under PATH */
static void walk(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct stat st;
	char sub[512], link[256];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (lstat(sub, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk(sub);
		else if (S_ISLNK(st.st_mode) && readlink(sub, link, sizeof(link)) < 0)
			continue;
	}
	closedir(d);
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
	walk("/sys/kernel");					/* 5: getdents/stat */
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

int main(int argc, char **argv)
{
	char name[32] = "";
	int fd;

	(void)argc;
	if (!strcmp(argv[0], "true"))
		return 0;
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
	if (!strcmp(name, "steps"))
		steps();
	else if (!strcmp(name, "other"))
		other();
	else
		say("init: /workload names no workload (steps or other)\n");
	hpmark();
	if (!strcmp(name, "steps") || !strcmp(name, "other"))
		say("hotpack: workload done\n");
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
