/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure.h - counters around a command: perf_event_open hardware counters
 * (I-TLB misses and loads, instructions, cycles, kernel and user apart) on a
 * CPU with a PMU, and /proc/tlbmiss-style counter files ("I-TLB kernel
 * misses: N" lines, the seeds' MPC8xx patch) read before and after. Also the
 * seeds' arithmetic: misses x penalty / clock = share of cycles lost.
 */
#ifndef HP_MEASURE_H
#define HP_MEASURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* ---- counter files ---------------------------------------------------- */

struct mcounter {
	char *name;		/* text before the colon, trimmed */
	uint64_t value;
};

struct mcounter_file {
	struct mcounter *c;
	size_t n;
};

/**
 * mcounter_file_read() - parse "NAME: NUMBER" lines; blank lines and lines
 * of other shapes (a "*" separator, a header) are skipped, a name seen twice
 * keeps the last value. Returns 0, or -EINVAL (printed with FILE:LINE) when
 * no counter line was found at all.
 */
int mcounter_file_read(FILE *in, const char *path, struct mcounter_file *out);
/** Read a file by path; -errno printed. */
int mcounter_file_load(const char *path, struct mcounter_file *out);
void mcounter_file_free(struct mcounter_file *f);
/** The value of @name, or -1 (as int) when absent: *value untouched. */
int mcounter_file_get(const struct mcounter_file *f, const char *name, uint64_t *value);
/** True for counter names that count misses (contain "miss", any case). */
bool mcounter_is_miss(const char *name);

/* ---- perf_event_open -------------------------------------------------- */

enum mevent {
	MEV_INSNS,
	MEV_CYCLES,
	MEV_ITLB_LOADS,
	MEV_ITLB_MISSES,
	MEV_COUNT,
};

enum mmode { MMODE_KERNEL, MMODE_USER, MMODE_COUNT };

const char *mevent_name(enum mevent e);

/* Counts of one run; valid[e][m] false when that counter could not be
 * opened. Multiplexed counters are scaled by enabled/running time. */
struct mrun {
	bool valid[MEV_COUNT][MMODE_COUNT];
	double value[MEV_COUNT][MMODE_COUNT];
	double seconds;		/* wall time of the command */
	int status;		/* wait status of the command */
};

enum mprobe {
	MPROBE_OK,		/* hardware counters can be opened */
	MPROBE_NO_PMU,		/* the kernel has no hardware counters here */
	MPROBE_DENIED,		/* perf_event_paranoid or a seccomp filter */
};

/** Can this process count hardware events? @why gets the errno seen. */
enum mprobe measure_probe(int *why);

/**
 * measure_run() - fork, exec @argv with counters enabled at exec when
 * @use_perf, wait, read them. Returns 0 (the command's own status is in
 * @r->status) or -errno after printing what failed.
 */
int measure_run(char *const *argv, bool use_perf, struct mrun *r);

/* ---- statistics and the seeds' arithmetic ----------------------------- */

struct mstat {
	double mean, stddev;	/* stddev: sample (n - 1), 0 for one value */
};

struct mstat mstat_of(const double *v, size_t n);

/**
 * measure_cost() - cycles lost = @misses * @miss_cycles, and their share of
 * @total_cycles (0 when unknown: *share is then negative).
 */
double measure_cost(double misses, double miss_cycles, double total_cycles, double *share);

/** Default miss penalty in cycles for the host architecture. */
unsigned measure_default_miss_cycles(void);
/** Where libhotpack-itlb.so is, beside this binary (malloc'ed), or NULL. */
char *measure_plugin_path(void);
/** The CPU clock from /proc/cpuinfo or cpufreq, in Hz; 0 when unknown. */
double measure_clock_hz(void);

/* ---- the QEMU plugin's counters file ---------------------------------- */

/* One row of a hotpack-itlb counters table: "work" when the run had marked
 * phases, else "total"; the model lines say what each figure assumed. */
struct mqrow {
	char *label;
	size_t n;
	char **names;		/* column names, e.g. "kinsns", "miss32" */
	double *values;
	char *models;		/* the "# itlb model: ..." and "# icache model: ..." lines */
};

/**
 * mqrow_read() - read the "work" row (or "total" when there is none) of a
 * counters file the plugin wrote. Returns 0, or -EINVAL printed with FILE.
 */
int mqrow_read(FILE *in, const char *path, struct mqrow *out);
void mqrow_free(struct mqrow *r);
/** The value of column @name, or -1.0 when absent. */
double mqrow_get(const struct mqrow *r, const char *name);

/**
 * measure_qemu_for() - the qemu-user program for an ELF executable (by its
 * e_machine): "qemu-x86_64", "qemu-ppc", "qemu-aarch64", ...; NULL when the
 * file is no ELF or of an unknown machine. Static string.
 */
const char *measure_qemu_for(const char *path);

#endif
