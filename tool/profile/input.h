/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input.h - reading profile inputs of any supported format into a profile:
 * the format is detected from the content (or forced), the events of the
 * raw formats are symbolized against the image, and .hprof files are merged
 * as they are.
 */
#ifndef HP_INPUT_H
#define HP_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "image/image.h"
#include "profile/profile.h"
#include "profile/sample.h"

enum input_format {
	INPUT_AUTO = 0,
	INPUT_PERF,	/* perf script (samples, callchains, brstack) */
	INPUT_FTRACE,	/* function_graph trace or trace-cmd report */
	INPUT_ADDRS,	/* hex addresses, optionally with counts */
	INPUT_HPROF,	/* hotpack's own profile */
};

struct input_opts {
	enum input_format format;
	bool have_kaslr;	/* kaslr_offset given by the user */
	int64_t kaslr_offset;	/* runtime address - link address */
	double min_match;	/* fail when fewer than this share of samples match */
	bool weight_events;	/* perf: each sample weighs 1, not its period */
	uint32_t addr_window;	/* address lists: N samples in a row make a trace (0: off) */
};

/* Largest --addr-window: a window's distinct functions are found by a scan. */
#define INPUT_ADDR_WINDOW_MAX 65536u

/** Parse --weight's "events" or "period" into @opts; -EINVAL (printed) else. */
int input_parse_weight(struct input_opts *opts, const char *arg);

/** Parse --addr-window's N (0 to INPUT_ADDR_WINDOW_MAX) into @opts; -EINVAL (printed) else. */
int input_parse_addr_window(struct input_opts *opts, const char *arg);

/** Warn when @prof adds perf periods to event counts (PROF_UNIT_*). */
void input_check_units(const struct profile *prof, const char *what);

/** Parse "perf", "ftrace", ... ; returns -1 for an unknown name. */
int input_format_from_name(const char *name);
const char *input_format_name(enum input_format f);

/**
 * input_read() - read one input (path, or "-" for stdin) into @prof,
 * symbolizing against @img (may be NULL only for .hprof and name-only input).
 * Returns 0 or -errno after printing FILE:LINE and what to do.
 */
int input_read(struct profile *prof, const struct kimage *img, const char *path,
	       const struct input_opts *opts);

/** Read several inputs and check enough matched; prints the drop summary. */
int input_read_all(struct profile *prof, const struct kimage *img, char *const *paths,
		   int npaths, const struct input_opts *opts);

/* The readers: stream in, callbacks out. Each returns 0, the callback's
 * non-zero value, or -EINVAL after printing FILE:LINE. */
int perf_script_read(FILE *in, const char *name, hp_event_cb cb, void *ctx);
int ftrace_read(FILE *in, const char *name, hp_event_cb cb, void *ctx);
int addrs_read(FILE *in, const char *name, hp_event_cb cb, void *ctx);
int hprof_read(FILE *in, const char *name, struct profile *prof);
int hprof_write(FILE *out, const struct profile *prof);

/**
 * input_check_paths() - refuse a list that names "-" (stdin) more than once,
 * after saying so; for the commands' argument checks (a usage error).
 */
int input_check_paths(char *const *paths, int npaths);

/** Guess the format from the first bytes of an input. */
enum input_format input_detect(const char *buf, size_t len);

#endif
