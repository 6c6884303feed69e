// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure.c - counters around a command (see measure.h). Hardware counters
 * come from perf_event_open on the child, enabled at its exec and inherited
 * by its children, so only the command is counted, not hotpack. Counter
 * files are the seeds' /proc/tlbmiss shape: "I-TLB kernel misses: 1369".
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <elf.h>
#include <linux/perf_event.h>

#include "arch/arch.h"
#include "lib/parse.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "measure/measure.h"

/* ---- counter files ---------------------------------------------------- */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "NAME: NUMBER" with only blanks after the number; 0 when it matched. */
static int parse_counter_line(char *line, char **name, uint64_t *value)
{
	char *colon = strrchr(line, ':'), *num;

	if (!colon)
		return -1;
	*colon = '\0';
	*name = trim(line);
	num = trim(colon + 1);
	if (!**name || parse_u64(num, 0, value))
		return -1;
	return 0;
}

int mcounter_file_read(FILE *in, const char *path, struct mcounter_file *out)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0, alloc = 0;
	ssize_t len;

	out->c = NULL;
	out->n = 0;
	while ((len = getline(&line, &cap, in)) != -1) {
		char *name;
		uint64_t value;
		size_t i;

		lineno++;
		if (parse_counter_line(line, &name, &value))
			continue;
		for (i = 0; i < out->n; i++)
			if (!strcmp(out->c[i].name, name))
				break;
		if (i == out->n) {
			XGROW(out->c, alloc, out->n + 1);
			out->c[out->n].name = xstrdup(name);
			out->n++;
		}
		out->c[i].value = value;
	}
	free(line);
	if (ferror(in)) {
		pr_err("%s: read error; check the file", path);
		mcounter_file_free(out);
		return -EIO;
	}
	if (out->n == 0) {
		pr_err("%s:%zu: no 'NAME: NUMBER' counter line (like 'I-TLB kernel misses: 1369'); "
		       "name a /proc/tlbmiss-style file", path, lineno);
		return -EINVAL;
	}
	return 0;
}

int mcounter_file_load(const char *path, struct mcounter_file *out)
{
	FILE *f = fopen(path, "r");
	int err;

	if (!f) {
		err = -errno;
		pr_err_errno(err, "%s: cannot open the counters file", path);
		return err;
	}
	err = mcounter_file_read(f, path, out);
	fclose(f);
	return err;
}

void mcounter_file_free(struct mcounter_file *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->c[i].name);
	free(f->c);
	f->c = NULL;
	f->n = 0;
}

int mcounter_file_get(const struct mcounter_file *f, const char *name, uint64_t *value)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->c[i].name, name)) {
			*value = f->c[i].value;
			return 0;
		}
	return -1;
}

bool mcounter_is_miss(const char *name)
{
	const char *p;

	for (p = name; *p; p++)
		if (!strncasecmp(p, "miss", 4))
			return true;
	return false;
}

/* ---- perf_event_open -------------------------------------------------- */

const char *mevent_name(enum mevent e)
{
	static const char *const names[MEV_COUNT] = {
		[MEV_INSNS] = "instructions",
		[MEV_CYCLES] = "cycles",
		[MEV_ITLB_LOADS] = "iTLB-loads",
		[MEV_ITLB_MISSES] = "iTLB-load-misses",
	};

	return names[e];
}

static void event_attr(enum mevent e, enum mmode m, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	switch (e) {
	case MEV_INSNS:
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_INSTRUCTIONS;
		break;
	case MEV_CYCLES:
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		break;
	case MEV_ITLB_LOADS:
	case MEV_ITLB_MISSES:
		a->type = PERF_TYPE_HW_CACHE;
		a->config = PERF_COUNT_HW_CACHE_ITLB | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			    ((e == MEV_ITLB_LOADS ? PERF_COUNT_HW_CACHE_RESULT_ACCESS
						  : PERF_COUNT_HW_CACHE_RESULT_MISS) << 16);
		break;
	case MEV_COUNT:
		break;
	}
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
	a->exclude_hv = 1;
	a->exclude_kernel = m == MMODE_USER;
	a->exclude_user = m == MMODE_KERNEL;
}

static int perf_open(struct perf_event_attr *a, pid_t pid)
{
	return (int)syscall(SYS_perf_event_open, a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

enum mprobe measure_probe(int *why)
{
	struct perf_event_attr a;
	int fd;

	/* User-mode instructions: the least privileged hardware event. */
	event_attr(MEV_INSNS, MMODE_USER, &a);
	fd = perf_open(&a, 0);
	if (fd >= 0) {
		close(fd);
		*why = 0;
		return MPROBE_OK;
	}
	*why = errno;
	if (errno == EACCES || errno == EPERM)
		return MPROBE_DENIED;
	/* ENOENT, ENODEV, EOPNOTSUPP, ENOSYS: no hardware counters here. */
	return MPROBE_NO_PMU;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int measure_run(char *const *argv, bool use_perf, struct mrun *r)
{
	int go[2], fds[MEV_COUNT][MMODE_COUNT], e, m, err = 0;
	double t0;
	pid_t pid;
	char c = 0;

	memset(r, 0, sizeof(*r));
	for (e = 0; e < MEV_COUNT; e++)
		for (m = 0; m < MMODE_COUNT; m++)
			fds[e][m] = -1;
	if (pipe2(go, O_CLOEXEC)) {
		err = -errno;
		pr_err_errno(err, "cannot create a pipe");
		return err;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		pr_err_errno(err, "cannot fork");
		close(go[0]);
		close(go[1]);
		return err;
	}
	if (pid == 0) {
		/* Wait until the counters are attached, then become the command. */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "hotpack: error: %s: cannot run: %s; check the command\n",
			argv[0], strerror(errno));
		_exit(127);
	}
	close(go[0]);
	if (use_perf) {
		for (e = 0; e < MEV_COUNT; e++)
			for (m = 0; m < MMODE_COUNT; m++) {
				struct perf_event_attr a;

				event_attr(e, m, &a);
				fds[e][m] = perf_open(&a, pid);
			}
	}
	t0 = now_seconds();
	if (write(go[1], &c, 1) != 1) {
		err = -errno;
		pr_err_errno(err, "cannot start the command");
		kill(pid, SIGKILL);
	}
	close(go[1]);
	while (waitpid(pid, &r->status, 0) < 0) {
		if (errno != EINTR) {
			err = -errno;
			pr_err_errno(err, "cannot wait for the command");
			break;
		}
	}
	r->seconds = now_seconds() - t0;
	for (e = 0; e < MEV_COUNT; e++)
		for (m = 0; m < MMODE_COUNT; m++) {
			uint64_t buf[3];	/* value, time enabled, time running */

			if (fds[e][m] < 0)
				continue;
			if (read(fds[e][m], buf, sizeof(buf)) == (ssize_t)sizeof(buf)) {
				r->valid[e][m] = true;
				/* Scale for multiplexing: more events than counters. */
				r->value[e][m] = buf[2] ? (double)buf[0] * (double)buf[1] / (double)buf[2]
							: 0.0;
			}
			close(fds[e][m]);
		}
	return err;
}

/* ---- statistics and arithmetic ---------------------------------------- */

struct mstat mstat_of(const double *v, size_t n)
{
	struct mstat s = { 0.0, 0.0 };
	double sq = 0.0;
	size_t i;

	if (n == 0)
		return s;
	for (i = 0; i < n; i++)
		s.mean += v[i];
	s.mean /= (double)n;
	if (n < 2)
		return s;
	for (i = 0; i < n; i++)
		sq += (v[i] - s.mean) * (v[i] - s.mean);
	s.stddev = sqrt(sq / (double)(n - 1));
	return s;
}

double measure_cost(double misses, double miss_cycles, double total_cycles, double *share)
{
	double lost = misses * miss_cycles;

	*share = total_cycles > 0.0 ? lost / total_cycles : -1.0;
	return lost;
}

unsigned measure_default_miss_cycles(void)
{
#if defined(__powerpc__) && !defined(__powerpc64__)
	return 23;	/* MPC8xx software refill: 20-23 cycles (the seeds) */
#elif defined(__x86_64__) || defined(__i386__)
	return 30;	/* a page walk: 20-40 cycles */
#else
	return 25;
#endif
}

double measure_clock_hz(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
	double hz = 0.0;
	char *line = NULL;
	size_t cap = 0;

	if (f) {
		unsigned long khz;

		if (fscanf(f, "%lu", &khz) == 1)
			hz = (double)khz * 1e3;
		fclose(f);
		if (hz > 0.0)
			return hz;
	}
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0.0;
	while (getline(&line, &cap, f) != -1) {
		double mhz;

		/* x86: "cpu MHz : 2596.128"; powerpc: "clock : 48.000000MHz" */
		if ((sscanf(line, "cpu MHz : %lf", &mhz) == 1 ||
		     sscanf(line, "clock : %lfMHz", &mhz) == 1) && mhz > 0.0) {
			hz = mhz * 1e6;
			break;
		}
	}
	free(line);
	fclose(f);
	return hz;
}

char *measure_plugin_path(void)
{
	/* Beside the binary: tool/qemu/ in the build tree, ../lib/hotpack/
	 * (pkglibdir) when installed. */
	static const char *const rel[] = {
		"qemu/libhotpack-itlb.so",
		"../lib/hotpack/libhotpack-itlb.so",
		"../lib64/hotpack/libhotpack-itlb.so",
		"../libexec/hotpack/libhotpack-itlb.so",
	};
	char exe[PATH_MAX], *slash, *path, *real;
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t i;

	if (len <= 0)
		return NULL;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	slash[1] = '\0';
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		path = xasprintf("%s%s", exe, rel[i]);
		real = realpath(path, NULL);
		free(path);
		if (real)
			return real;
	}
	return NULL;
}

/* ---- the QEMU plugin's counters file ---------------------------------- */

static char **split_ws(char *line, size_t *n)
{
	char **v = NULL, *tok, *save = NULL;
	size_t cap = 0;

	*n = 0;
	for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		XGROW(v, cap, *n + 1);
		v[(*n)++] = tok;
	}
	return v;
}

int mqrow_read(FILE *in, const char *path, struct mqrow *out)
{
	char *line = NULL, *header = NULL, *row = NULL, *models = NULL;
	size_t cap = 0, nh = 0, nr = 0, i;
	char **h = NULL, **r = NULL;
	int err = 0;

	memset(out, 0, sizeof(*out));
	while (getline(&line, &cap, in) != -1) {
		if (!strncmp(line, "# itlb model:", 13) || !strncmp(line, "# icache model:", 15)) {
			char *m = xasprintf("%s%s", models ? models : "", line);

			free(models);
			models = m;
		} else if (!strncmp(line, "phase ", 6)) {
			free(header);
			header = xstrdup(line);
		} else if (!strncmp(line, "work ", 5) ||
			   (!strncmp(line, "total ", 6) && !(row && !strncmp(row, "work ", 5)))) {
			free(row);
			row = xstrdup(line);
		}
	}
	free(line);
	if (!header || !row) {
		pr_err("%s: no counters table (a 'phase' header and a 'work' or 'total' row); "
		       "is it a hotpack-itlb counters file?", path);
		err = -EINVAL;
		goto out;
	}
	h = split_ws(header, &nh);
	r = split_ws(row, &nr);
	if (nh != nr || nh < 2) {
		pr_err("%s: the %s row has %zu fields, the header %zu; the file is damaged",
		       path, r && nr ? r[0] : "last", nr, nh);
		err = -EINVAL;
		goto out;
	}
	out->label = xstrdup(r[0]);
	out->n = nh - 1;
	out->names = xcalloc(out->n, sizeof(*out->names));
	out->values = xcalloc(out->n, sizeof(*out->values));
	for (i = 1; i < nh; i++) {
		out->names[i - 1] = xstrdup(h[i]);
		if (parse_double(r[i], 0, &out->values[i - 1])) {
			pr_err("%s: '%s' in column %s is not a number; the file is damaged",
			       path, r[i], h[i]);
			err = -EINVAL;
			break;
		}
	}
	out->models = models;
	models = NULL;
	if (err)
		mqrow_free(out);
out:
	free(h);
	free(r);
	free(header);
	free(row);
	free(models);
	return err;
}

void mqrow_free(struct mqrow *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->names[i]);
	free(r->names);
	free(r->values);
	free(r->label);
	free(r->models);
	memset(r, 0, sizeof(*r));
}

double mqrow_get(const struct mqrow *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->names[i], name))
			return r->values[i];
	return -1.0;
}

const char *measure_qemu_for(const char *path)
{
	unsigned char h[20];
	unsigned machine;
	const struct hp_arch *arch;
	bool be;
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return NULL;
	got = fread(h, 1, sizeof(h), f);
	fclose(f);
	if (got < sizeof(h) || memcmp(h, "\177ELF", 4))
		return NULL;
	/* e_machine: 2 bytes at 18, in the file's byte order (EI_DATA). */
	be = h[EI_DATA] == ELFDATA2MSB;
	machine = be ? (unsigned)h[18] << 8 | h[19] : (unsigned)h[19] << 8 | h[18];
	arch = hp_arch_lookup((uint16_t)machine, h[EI_CLASS]);
	return be ? arch->qemu_be : arch->qemu_le;
}
