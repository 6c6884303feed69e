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
#include "profile/readers.h"

#define INPUT_WEIGHTS_MAX 256	/* --weight-of options at most (no allocation) */

struct input_opts {
	const struct profile_reader *reader;	/* --input-format; NULL: detected */
	bool have_kaslr;	/* kaslr_offset given by the user */
	int64_t kaslr_offset;	/* runtime address - link address */
	double min_match;	/* fail when fewer than this share of samples match */
	bool any_arch;		/* --any-arch: a .hprof or perf samples (its
				 * "# arch") of another architecture are only
				 * warned about */
	const char *build_id_list;	/* --buildid-list: perf buildid-list's output,
				 * its kernel's build-id checked against the image */
	bool weight_events;	/* perf: each sample weighs 1, not its period */
	const char *event;	/* --event: perf script's samples of this event only */
	uint32_t addr_window;	/* address lists: N samples in a row make a trace (0: off) */
	struct input_weight {	/* --weight-of FILE=W: that input's weights times W */
		const char *path;	/* as given, compared with the input's argument */
		double w;
		double share;	/* FILE=P%: P / 100 of the total weight, w unset;
				 * 0 when W was given */
	} weights[INPUT_WEIGHTS_MAX];
	size_t nweights;
};

/* Largest --addr-window: a window's distinct functions are found by a scan. */
#define INPUT_ADDR_WINDOW_MAX 65536u

/** Parse --weight's "events" or "period" into @opts; -EINVAL (printed) else. */
int input_parse_weight(struct input_opts *opts, const char *arg);

/** Take --event's NAME (perf script's event, modifiers allowed) into @opts;
 * -EINVAL (printed) for an empty name. */
int input_parse_event(struct input_opts *opts, const char *arg);

/** Parse --weight-of's FILE=W (W a positive real) or FILE=P% (0 < P < 100: a
 * share of the total weight, input_read_all()) into @opts; -EINVAL (printed) else. */
int input_parse_weight_of(struct input_opts *opts, const char *arg);

/** Parse --addr-window's N (0 to INPUT_ADDR_WINDOW_MAX) into @opts; -EINVAL (printed) else. */
int input_parse_addr_window(struct input_opts *opts, const char *arg);

/** Warn when @prof adds perf periods to event counts (PROF_UNIT_*). */
void input_check_units(const struct profile *prof, const char *what);

/** Parse --input-format's reader name, alias or "auto" into @opts; -EINVAL (printed) else. */
int input_parse_format(struct input_opts *opts, const char *arg);

/** --input-format's --help text, after "--input-format FMT": the formats. */
const char *input_format_usage(void);

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

/**
 * input_check_paths() - refuse a list that names "-" (stdin) more than once,
 * after saying so; for the commands' argument checks (a usage error).
 */
int input_check_paths(char *const *paths, int npaths);

#endif
