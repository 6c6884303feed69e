/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * symbolize.h - turning parser events (struct hp_event) into profile data:
 * every frame becomes a function of the image (by name, alias, or name with
 * the compiler's clone suffixes; else by address after the KASLR offset),
 * keyed by kfunc_key(). Without an image the names are kept as written.
 * The rules are in docs/profiles.md.
 */
#ifndef HP_SYMBOLIZE_H
#define HP_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "image/image.h"
#include "profile/profile.h"
#include "profile/sample.h"

struct symbolizer;

/**
 * symbolize_new() - a symbolizer feeding @prof. @img may be NULL: names are
 * then used as written and bare addresses are dropped. @kaslr_offset is the
 * offset the user gave (runtime - link address), or NULL to detect it. @name
 * is the input's name for messages. Borrowed pointers must outlive the
 * symbolizer.
 */
struct symbolizer *symbolize_new(struct profile *prof, const struct kimage *img,
				 const int64_t *kaslr_offset, const char *name);

/**
 * symbolize_set_window() - group every @n consecutive resolved one-frame
 * samples (an address list, in the order the samples happened) into a
 * window: its distinct functions in first-seen order become one trace of
 * weight 1, and each pair of neighbours in it an edge weighing the window's
 * samples, besides the samples' own weights. A last, shorter window counts
 * too. @n = 0 turns it off. Memory: @n ids.
 */
void symbolize_set_window(struct symbolizer *sz, uint32_t n);

/**
 * symbolize_set_any_arch() - samples that say they were recorded on another
 * architecture than the image's (HP_EV_ARCH) are warned about and used,
 * not refused (--any-arch).
 */
void symbolize_set_any_arch(struct symbolizer *sz, bool any_arch);

/** The hp_event_cb to hand to a reader, with the symbolizer as ctx. */
int symbolize_event(const struct hp_event *ev, void *ctx);

/**
 * symbolize_finish() - end of input: settle the KASLR offset if it was
 * still being detected, and attribute the events held back for that.
 * Returns 0 or the error of a callback.
 */
int symbolize_finish(struct symbolizer *sz);

/** The offset used (runtime - link address) and whether it was detected. */
int64_t symbolize_kaslr_offset(const struct symbolizer *sz, bool *detected);

/**
 * symbolize_tree_entries() - the function entries of call trees (ftrace)
 * that resolved, and those that named a function the image does not have: a
 * tree counts as matched when one entry does, which says little.
 */
void symbolize_tree_entries(const struct symbolizer *sz, uint64_t *matched, uint64_t *missing);

/** Frames that could not be attributed, by reason (enum prof_drop). */
const uint64_t *symbolize_dropped_frames(const struct symbolizer *sz);

void symbolize_free(struct symbolizer *sz);

/**
 * symbolize_base_name() - @name without the compiler's clone suffixes
 * (.constprop.N, .isra.N, .part.N, .cold[.N], .llvm.N, in any combination).
 * Writes into @buf (of @len) and returns it; returns @name when there is
 * nothing to strip.
 */
const char *symbolize_base_name(const char *name, char *buf, size_t len);

#endif
