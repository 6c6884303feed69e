// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_measure.c - `hotpack measure [-r N] [--counters FILE] -- COMMAND...`:
 * run a command under hardware counters and/or between two reads of a
 * /proc/tlbmiss-style counters file, repeat it, print mean and spread, and
 * the seeds' arithmetic: misses x penalty / cycles = share of cycles lost.
 * Where neither kind of counter exists (no PMU, no counters file) it says so
 * and points at the QEMU plugin, which emulates the counters.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "lib/cli.h"
#include "lib/hotpack.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "measure/measure.h"

#define TLBMISS_PROC "/proc/tlbmiss"

static void usage(FILE *f)
{
	fprintf(f,
"usage: hotpack measure [options] -- COMMAND [ARGS...]\n"
"\n"
"Run COMMAND and report the I-TLB counters around it: hardware counters\n"
"(perf_event_open: instructions, cycles, iTLB loads and misses, kernel and\n"
"user apart) where the CPU has a PMU, and the deltas of a /proc/tlbmiss-style\n"
"file (\"I-TLB kernel misses: N\" lines) read before and after. Then the cost:\n"
"misses x miss penalty = cycles lost, and their share of all cycles.\n"
"\n"
"  -r, --repeat N           run N times; print mean and spread (default 1)\n"
"  -c, --counters FILE      a counters file to read before and after\n"
"                           (default: " TLBMISS_PROC " when it exists)\n"
"      --miss-cycles N      cycles one I-TLB miss costs (default %u here;\n"
"                           23 on the MPC8xx, 30 on x86)\n"
"      --clock-hz N         CPU clock, for the share when no cycles counter\n"
"                           runs (default: from cpufreq or /proc/cpuinfo)\n"
"      --no-perf            do not use hardware counters, only the file\n"
"      --plugin-path        print where the QEMU plugin is and exit\n"
"      --qemu[=QEMU]        no PMU: run COMMAND (a program) under qemu-user\n"
"                           with hotpack's plugin and report its emulated\n"
"                           I-TLB and I-cache misses (QEMU: picked from the\n"
"                           program's ELF)\n"
"      --plugin-args A      more plugin arguments for --qemu, e.g.\n"
"                           entries=32,page=4K (see hotpack-itlb(7))\n"
CLI_USAGE_OUTPUT
"                           (COMMAND's own output stays where it was)\n"
CLI_USAGE_QVH
"\n"
"Without a PMU (most embedded boards, many VMs) run the workload under QEMU\n"
"with hotpack's TCG plugin instead: it emulates the I-TLB and counts its\n"
"misses. --qemu does that for a program; for a kernel, give qemu-system\n"
"-plugin \"$(hotpack measure --plugin-path)\",out=FILE; see hotpack-itlb(7)\n"
"and docs/no-pmu.md.\n"
"\n"
"Exit status: 0 ok, 1 error (or the command failed), 2 usage,\n"
"4 no counters on this machine.\n", measure_default_miss_cycles());
}

/* "48000000", "48M", "1.2G": a clock in Hz, above 0. */
static int parse_hz(const char *arg, double *out)
{
	double v;

	if (parse_double(arg, PARSE_SUFFIX, &v) || v <= 0.0) {
		cli_bad_number("--clock-hz", arg,
			       "a frequency; give Hz above 0, e.g. 48000000 or 48M");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* "1234567 ± 0.52%" for several runs, the plain value for one. */
static void print_stat(FILE *out, const double *v, size_t n)
{
	struct mstat s = mstat_of(v, n);

	if (n < 2)
		fprintf(out, " %16.0f %9s", s.mean, "");
	else
		fprintf(out, " %16.0f ±%6.2f%%", s.mean, s.mean > 0.0 ? 100.0 * s.stddev / s.mean : 0.0);
}

static void print_cost(FILE *out, const char *what, double misses, double miss_cycles, double total,
		       const char *total_from)
{
	double share, lost = measure_cost(misses, miss_cycles, total, &share);

	fprintf(out, "cost (%s): %.0f misses x %.0f cycles = %.0f cycles", what, misses, miss_cycles,
	       lost);
	if (share >= 0.0)
		fprintf(out, " = %.2f%% of %.0f cycles (%s)\n", 100.0 * share, total, total_from);
	else
		fprintf(out, "; give --clock-hz for their share of all cycles\n");
}

struct opts {
	unsigned long repeat;
	const char *counters;
	const char *qemu;		/* --qemu: "" = pick by the command's ELF */
	const char *plugin_args;
	bool miss_cycles_given;
	double miss_cycles;
	double clock_hz;
	bool no_perf;
	FILE *out;		/* the report: stdout or -o's buffer */
};

static int report(const struct opts *o, struct mrun *runs, struct mcounter_file *before,
		  struct mcounter_file *after, bool use_perf)
{
	size_t n = o->repeat, i, k;
	double *v = xcalloc(n, sizeof(*v)), seconds, cycles = 0.0, misses = 0.0;
	const char *cycles_from = NULL;
	char from[96];
	int e, m;

	for (i = 0; i < n; i++)
		v[i] = runs[i].seconds;
	seconds = mstat_of(v, n).mean;
	fprintf(o->out, "runs: %zu, wall time: %.3f s", n, seconds);
	if (n > 1)
		fprintf(o->out, " ± %.3f s", mstat_of(v, n).stddev);
	fprintf(o->out, "\n");
	/* A zero total means unknown: the share then falls back to the clock. */
	if (use_perf) {
		fprintf(o->out, "%-18s %16s %9s %16s %9s\n", "counter", "kernel", "", "user", "");
		for (e = 0; e < MEV_COUNT; e++) {
			fprintf(o->out, "%-18s", mevent_name(e));
			for (m = 0; m < MMODE_COUNT; m++) {
				if (!runs[0].valid[e][m]) {
					fprintf(o->out, " %16s %9s", "not supported", "");
					continue;
				}
				for (i = 0; i < n; i++)
					v[i] = runs[i].value[e][m];
				print_stat(o->out, v, n);
				if (e == MEV_CYCLES)
					cycles += mstat_of(v, n).mean;
				if (e == MEV_ITLB_MISSES)
					misses += mstat_of(v, n).mean;
			}
			fprintf(o->out, "\n");
		}
		if (cycles > 0.0)
			cycles_from = "counted";
	}
	if (!cycles_from && o->clock_hz > 0.0) {
		cycles = o->clock_hz * seconds;
		snprintf(from, sizeof(from), "%.6g MHz x %.3f s", o->clock_hz / 1e6, seconds);
		cycles_from = from;
	}
	if (use_perf && runs[0].valid[MEV_ITLB_MISSES][MMODE_KERNEL] &&
	    runs[0].valid[MEV_ITLB_MISSES][MMODE_USER])
		print_cost(o->out, "iTLB-load-misses", misses, o->miss_cycles, cycles, cycles_from);

	if (o->counters) {
		double all = 0.0;
		bool any = false;

		if (n == 1)
			fprintf(o->out, "counters file %s (before -> after, delta):\n", o->counters);
		else
			fprintf(o->out, "counters file %s (delta per run, mean over %zu runs):\n",
			       o->counters, n);
		for (k = 0; k < after[0].n; k++) {
			const char *name = after[0].c[k].name;
			bool ok = true;

			for (i = 0; i < n; i++) {
				uint64_t b, a = 0;

				if (mcounter_file_get(&before[i], name, &b) ||
				    mcounter_file_get(&after[i], name, &a)) {
					ok = false;
					break;
				}
				/* A counter reset in between (echo 0 > /proc/tlbmiss)
				 * leaves after < before: count from zero then. */
				v[i] = a >= b ? (double)(a - b) : (double)a;
			}
			if (!ok) {
				pr_warn("%s: counter '%s' missing in one of the reads; skipped",
					o->counters, name);
				continue;
			}
			fprintf(o->out, "  %-28s", name);
			if (n == 1) {
				uint64_t b = 0;

				mcounter_file_get(&before[0], name, &b);
				fprintf(o->out, " %14llu -> %14llu  delta %14.0f\n", (unsigned long long)b,
				       (unsigned long long)after[0].c[k].value, v[0]);
			} else {
				struct mstat st = mstat_of(v, n);

				fprintf(o->out, "  mean delta %14.0f ± %.2f%%\n", st.mean,
				       st.mean > 0.0 ? 100.0 * st.stddev / st.mean : 0.0);
			}
			if (mcounter_is_miss(name)) {
				all += mstat_of(v, n).mean;
				any = true;
			}
		}
		if (any)
			print_cost(o->out, "all misses in the counters file", all, o->miss_cycles, cycles,
				   cycles_from);
	}
	free(v);
	return 0;
}

/* The program @cmd names, through PATH as execvp() would find it. */
static char *which(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *colon;

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0 ? xstrdup(cmd) : NULL;
	for (p = path ? path : "/usr/bin:/bin"; *p; p = colon + 1) {
		char *full;

		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		full = xasprintf("%.*s/%s", (int)(colon - p), colon == p ? "." : p, cmd);
		if (access(full, X_OK) == 0)
			return full;
		free(full);
		if (!*colon)
			break;
	}
	return NULL;
}

/* One row of the report: a mean over the runs, with the spread. */
static void qline(FILE *out, const char *what, const double *v, size_t n, double insns, bool per_k)
{
	struct mstat st = mstat_of(v, n);

	fprintf(out, "  %-30s %14.0f", what, st.mean);
	if (n > 1)
		fprintf(out, " ±%6.2f%%", st.mean > 0.0 ? 100.0 * st.stddev / st.mean : 0.0);
	if (per_k && insns > 0.0)
		fprintf(out, "  %9.3f per 1000 insns", 1000.0 * st.mean / insns);
	fprintf(out, "\n");
}

/*
 * --qemu: run the program under qemu-user with the plugin, N times, and
 * report the emulated counters of the "work" row (between hpmark calls) or
 * of the whole run.
 */
static int run_qemu(const struct opts *o, const char *plugin, char **cmd)
{
	char *prog = NULL, *tmpl = NULL, *plugarg = NULL, **qargv = NULL;
	const char *qemu = o->qemu;
	struct mqrow *rows = NULL;
	size_t i, k, n = o->repeat, nargs;
	double *v = NULL, seconds = 0.0, insns, miss_cycles = o->miss_cycles;
	int ret = HP_EXIT_ERROR, fd;

	if (!plugin) {
		pr_err("libhotpack-itlb.so not found beside this hotpack; build it with make, "
		       "or install it");
		return HP_EXIT_ERROR;
	}
	if (!*qemu) {
		prog = which(cmd[0]);
		qemu = prog ? measure_qemu_for(prog) : NULL;
		if (!qemu) {
			pr_err("%s: cannot tell which qemu-user runs it (not an ELF program of a "
			       "known machine); give --qemu=qemu-ARCH", cmd[0]);
			goto out;
		}
	}
	/* The penalty of the guest's machine, not the host's. */
	if (!o->miss_cycles_given && !strcmp(qemu, "qemu-ppc"))
		miss_cycles = 23;
	tmpl = xasprintf("%s/hotpack-measure.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(tmpl);
	if (fd < 0) {
		pr_err_errno(-errno, "%s: cannot create a temporary file", tmpl);
		goto out;
	}
	close(fd);
	plugarg = xasprintf("%s,out=%s%s%s", plugin, tmpl, o->plugin_args ? "," : "",
			    o->plugin_args ? o->plugin_args : "");
	for (nargs = 0; cmd[nargs]; nargs++)
		;
	qargv = xcalloc(nargs + 4, sizeof(*qargv));
	qargv[0] = (char *)qemu;
	qargv[1] = (char *)"-plugin";
	qargv[2] = plugarg;
	memcpy(qargv + 3, cmd, nargs * sizeof(*cmd));
	rows = xcalloc(n, sizeof(*rows));
	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++) {
		struct mrun r;
		FILE *f;
		int err;

		if (measure_run(qargv, false, &r))
			goto out;
		seconds += r.seconds;
		if (!WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
			pr_err("%s %s: %s %d (run %zu); check the command (and that %s runs it)",
			       qemu, cmd[0], WIFEXITED(r.status) ? "exited with status" :
			       "killed by signal", WIFEXITED(r.status) ? WEXITSTATUS(r.status) :
			       WTERMSIG(r.status), i + 1, qemu);
			goto out;
		}
		f = fopen(tmpl, "r");
		if (!f) {
			pr_err_errno(-errno, "%s: the plugin wrote no counters", tmpl);
			goto out;
		}
		err = mqrow_read(f, tmpl, &rows[i]);
		fclose(f);
		if (err)
			goto out;
	}
	fprintf(o->out, "runs: %zu under %s with hotpack's plugin, wall time %.3f s each "
	       "(emulated: not the program's own speed)\n", n, qemu, seconds / (double)n);
	fprintf(o->out, "emulated counters, %s (%s):\n", !strcmp(rows[0].label, "work") ?
	       "phases between the first and last hpmark" : "the whole run", "code in the "
	       "program's text unless --plugin-args says kbase=/kend=");
	fputs(rows[0].models ? rows[0].models : "", o->out);
	for (i = 0; i < n; i++)
		v[i] = mqrow_get(&rows[i], "kinsns");
	insns = mstat_of(v, n).mean;
	qline(o->out, "instructions", v, n, 0.0, false);
	for (i = 0; i < n; i++)
		v[i] = mqrow_get(&rows[i], "kpages");
	qline(o->out, "distinct code pages", v, n, 0.0, false);
	for (k = 0; k < rows[0].n; k++) {
		const char *name = rows[0].names[k];
		char what[64];

		if (!strncmp(name, "miss", 4))
			snprintf(what, sizeof(what), "I-TLB misses, %s entries", name + 4);
		else if (!strcmp(name, "icmiss"))
			snprintf(what, sizeof(what), "I-cache misses");
		else
			continue;
		for (i = 0; i < n; i++)
			v[i] = mqrow_get(&rows[i], name);
		qline(o->out, what, v, n, insns, true);
	}
	for (k = 0; k < rows[0].n; k++) {
		const char *name = rows[0].names[k];
		double lost, share;

		if (strncmp(name, "miss", 4))
			continue;
		for (i = 0; i < n; i++)
			v[i] = mqrow_get(&rows[i], name);
		/* Cycles: one per instruction plus the misses' stalls. */
		lost = mstat_of(v, n).mean * miss_cycles;
		measure_cost(mstat_of(v, n).mean, miss_cycles, insns + lost, &share);
		fprintf(o->out, "cost (%s entries): %.0f misses x %.0f cycles = %.0f cycles", name + 4,
		       mstat_of(v, n).mean, miss_cycles, lost);
		if (share >= 0.0)
			fprintf(o->out, " = %.2f%% of all cycles at 1 cycle per instruction", 100.0 * share);
		fprintf(o->out, "\n");
	}
	ret = HP_EXIT_OK;
out:
	if (tmpl)
		remove(tmpl);
	if (rows)
		for (i = 0; i < n; i++)
			mqrow_free(&rows[i]);
	free(rows);
	free(v);
	free(qargv);
	free(plugarg);
	free(tmpl);
	free(prog);
	return ret;
}

/* The command; the report goes to @out, opened once the options are read. */
static int measure(int argc, char **argv, struct cli_out *out)
{
	static const struct option longopts[] = {
		{ "repeat", required_argument, NULL, 'r' },
		{ "counters", required_argument, NULL, 'c' },
		{ "miss-cycles", required_argument, NULL, 'M' },
		{ "clock-hz", required_argument, NULL, 'H' },
		{ "no-perf", no_argument, NULL, 'P' },
		{ "plugin-path", no_argument, NULL, 'p' },
		{ "qemu", optional_argument, NULL, 'Q' },
		{ "plugin-args", required_argument, NULL, 'A' },
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .repeat = 1, .miss_cycles = measure_default_miss_cycles() };
	struct mcounter_file *before = NULL, *after = NULL;
	struct mrun *runs = NULL;
	bool use_perf, clock_given = false, plugin_path = false;
	char *plugin;
	const char *output = NULL;
	uint64_t v;
	size_t i;
	int c, why, ret = HP_EXIT_OK, err;
	enum mprobe probe;

	optind = 1;
	while ((c = cli_getopt(argc, argv, "+" CLI_COMMON_SHORTOPTS "r:c:", longopts)) !=
	       -1) {
		if (cli_common_opt(c))
			continue;
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'r':
			if (cli_parse_u64("--repeat", optarg, 0, 1, ULONG_MAX, &v))
				return HP_EXIT_USAGE;
			o.repeat = (unsigned long)v;
			break;
		case 'c':
			o.counters = optarg;
			break;
		case 'M':
			if (cli_parse_u64("--miss-cycles", optarg, 0, 0, ULONG_MAX, &v))
				return HP_EXIT_USAGE;
			o.miss_cycles = (double)v;
			o.miss_cycles_given = true;
			break;
		case 'H':
			if (parse_hz(optarg, &o.clock_hz))
				return HP_EXIT_USAGE;
			clock_given = true;
			break;
		case 'P':
			o.no_perf = true;
			break;
		case 'p':
			plugin_path = true;
			break;
		case 'Q':
			o.qemu = optarg ? optarg : "";
			break;
		case 'A':
			o.plugin_args = optarg;
			break;
		case 'h':
			usage(stdout);
			return HP_EXIT_OK;
		default:
			return HP_EXIT_USAGE;
		}
	}
	if (optind >= argc && !plugin_path) {
		pr_err("no command to measure; give one after --, e.g. "
		       "hotpack measure -- dd if=/dev/zero of=/dev/null bs=4k count=3840");
		return HP_EXIT_USAGE;
	}
	if (o.counters && cli_out_check_input(output, o.counters, "the counters file"))
		return HP_EXIT_USAGE;
	if (cli_out_open(out, output))
		return HP_EXIT_ERROR;
	o.out = out->f;
	plugin = measure_plugin_path();
	if (!o.counters && access(TLBMISS_PROC, R_OK) == 0)
		o.counters = TLBMISS_PROC;
	if (!clock_given)
		o.clock_hz = measure_clock_hz();

	if (plugin_path) {
		if (!plugin) {
			pr_err("libhotpack-itlb.so not found beside this hotpack; build it "
			       "with make, or install it");
			return HP_EXIT_ERROR;
		}
		fprintf(o.out, "%s\n", plugin);
		free(plugin);
		return HP_EXIT_OK;
	}
	if (o.qemu) {
		if (o.counters && strcmp(o.counters, TLBMISS_PROC)) {
			pr_err("--qemu and --counters: the emulated run has no counters file; "
			       "give one of them");
			free(plugin);
			return HP_EXIT_USAGE;
		}
		ret = run_qemu(&o, plugin, argv + optind);
		free(plugin);
		return ret;
	}
	probe = o.no_perf ? MPROBE_NO_PMU : measure_probe(&why);
	use_perf = probe == MPROBE_OK;
	if (!use_perf && !o.no_perf) {
		const char *hw = probe == MPROBE_DENIED ? "not permitted" : "not supported";
		const char *fix = probe == MPROBE_DENIED ?
			"lower kernel.perf_event_paranoid or run as root" : "no PMU";

		if (o.counters)
			pr_info("note: hardware counters %s here (perf_event_open: %s; %s); "
				"counting with %s only", hw, strerror(why), fix, o.counters);
		else
			pr_err("hardware counters %s on this machine (perf_event_open: %s; %s); "
			       "emulate them instead: 'hotpack measure --qemu -- PROGRAM' runs a "
			       "program under QEMU with hotpack's TCG plugin (%s; for a kernel see "
			       "hotpack-itlb(7) and docs/no-pmu.md), or give a /proc/tlbmiss-style "
			       "file with --counters", hw, strerror(why), fix,
			       plugin ? plugin : "libhotpack-itlb.so");
	}
	if (!use_perf && !o.counters) {
		free(plugin);
		if (o.no_perf)
			pr_err("--no-perf and no counters file: nothing to count; give --counters FILE");
		return o.no_perf ? HP_EXIT_USAGE : HP_EXIT_UNSUPPORTED;
	}

	free(plugin);
	runs = xcalloc(o.repeat, sizeof(*runs));
	before = xcalloc(o.repeat, sizeof(*before));
	after = xcalloc(o.repeat, sizeof(*after));
	for (i = 0; i < o.repeat; i++) {
		if (o.counters && mcounter_file_load(o.counters, &before[i])) {
			ret = HP_EXIT_ERROR;
			break;
		}
		err = measure_run(argv + optind, use_perf, &runs[i]);
		if (err) {
			ret = HP_EXIT_ERROR;
			break;
		}
		if (o.counters && mcounter_file_load(o.counters, &after[i])) {
			ret = HP_EXIT_ERROR;
			break;
		}
		if (!WIFEXITED(runs[i].status) || WEXITSTATUS(runs[i].status)) {
			if (WIFEXITED(runs[i].status))
				pr_err("%s: exited with status %d (run %zu); the counts would not "
				       "describe a whole run", argv[optind],
				       WEXITSTATUS(runs[i].status), i + 1);
			else
				pr_err("%s: killed by signal %d (run %zu)", argv[optind],
				       WTERMSIG(runs[i].status), i + 1);
			ret = HP_EXIT_ERROR;
			break;
		}
	}
	if (ret == HP_EXIT_OK)
		report(&o, runs, before, after, use_perf);
	for (i = 0; i < o.repeat; i++) {
		mcounter_file_free(&before[i]);
		mcounter_file_free(&after[i]);
	}
	free(before);
	free(after);
	free(runs);
	return ret;
}

int cmd_measure(int argc, char **argv)
{
	struct cli_out out = { 0 };
	int ret = measure(argc, argv, &out);

	if (!out.f)
		return ret;
	if (ret != HP_EXIT_OK)
		cli_out_abort(&out);
	else if (cli_out_commit(&out))
		ret = HP_EXIT_ERROR;
	return ret;
}
