/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sample.h - what a profile reader hands to its caller: one event at a time,
 * through a callback (libbpf's kallsyms parser is the model). Readers never
 * hold a whole input in memory; everything an event points at is valid only
 * during the callback.
 */
#ifndef HP_SAMPLE_H
#define HP_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* Where a frame's code lives, as the input says. */
enum hp_dso {
	HP_DSO_KERNEL = 0,	/* [kernel.kallsyms], a vmlinux path, or unknown-but-kernel */
	HP_DSO_MODULE,		/* a .ko or [module] */
	HP_DSO_USER,		/* a user-space binary or library */
	HP_DSO_BPF,		/* bpf programs, trampolines */
	HP_DSO_UNKNOWN,		/* [unknown] */
};

struct hp_frame {
	uint64_t addr;		/* valid when has_addr */
	const char *sym;	/* symbol as written (no +off), NULL when none */
	uint64_t off;		/* offset into sym, valid when has_off */
	uint32_t depth;		/* HP_EV_TRACE: call depth, 0 = root of the tree */
	unsigned int has_addr : 1;
	unsigned int has_off : 1;
	unsigned int dso : 3;	/* enum hp_dso */
};

enum hp_event_kind {
	HP_EV_STACK,	/* frames[0] is the sampled IP, then its callers outward */
	HP_EV_TRACE,	/* function entries in execution order, with depths */
	HP_EV_BRANCH,	/* frames[0] branched (called) to frames[1] */
	HP_EV_RELEASE,	/* the input names the kernel release it was recorded on
			 * (perf's "# os release : R" header): text, no frames */
	HP_EV_BUILD_ID,	/* the input names the kernel's GNU build-id (perf
			 * buildid-list's [kernel.kallsyms] line): text, hex */
	HP_EV_ARCH,	/* the input names the architecture it was recorded on
			 * (perf's "# arch : aarch64"): text, the arch table's name */
};

struct hp_event {
	enum hp_event_kind kind;
	uint64_t weight;		/* the event's period, count, or 1 */
	const struct hp_frame *frames;
	size_t nframes;
	const char *text;		/* HP_EV_RELEASE: the release; HP_EV_BUILD_ID: the id;
					 * HP_EV_ARCH: the architecture */
	const char *file;		/* input name, for messages */
	size_t line;			/* line the event started on */
};

/* Return 0 to go on; anything else stops the reader, which returns it. */
typedef int (*hp_event_cb)(const struct hp_event *ev, void *ctx);

#endif
