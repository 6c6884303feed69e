/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what the subcommands share on the command line: number and size
 * parsing with clear errors, and output files written whole or not at all.
 */
#ifndef HP_CLI_H
#define HP_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/** "4096", "0x1000", "4K", "2M", "16m", "1G" -> bytes. Prints and returns -EINVAL. */
int cli_parse_size(const char *opt, const char *arg, uint64_t *out);
/** A signed integer in any base (0x..): KASLR offsets. */
int cli_parse_s64(const char *opt, const char *arg, int64_t *out);
int cli_parse_double(const char *opt, const char *arg, double lo, double hi, double *out);
/** A power of two size (page sizes). */
int cli_parse_pow2(const char *opt, const char *arg, uint64_t *out);

/* An output that appears whole or not at all: -o writes a temporary file
 * beside the target and renames it on success. NULL or "-" is stdout. */
struct cli_out {
	FILE *f;
	char *path;
	char *tmp;
};

int cli_out_open(struct cli_out *o, const char *path);
/** Flush, close and rename into place; returns 0 or -errno (printed). */
int cli_out_commit(struct cli_out *o);
/** Drop the temporary file (on error). */
void cli_out_abort(struct cli_out *o);

#endif
