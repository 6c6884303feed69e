/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what the subcommands share on the command line: number and size
 * parsing with clear errors, output files written whole or not at all, and
 * --help text made of lists that are generated.
 */
#ifndef HP_CLI_H
#define HP_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/parse.h"

/*
 * Option values: each reads the whole of @arg with lib/parse.h and, when it
 * is not a number of that form and range, prints "OPT: 'ARG' is not WHAT"
 * (WHAT saying what to give) and returns -EINVAL.
 */
void cli_bad_number(const char *opt, const char *arg, const char *what);
/** A whole number from @lo to @hi in the form of @flags (PARSE_*). */
int cli_parse_u64(const char *opt, const char *arg, unsigned int flags, uint64_t lo,
		  uint64_t hi, uint64_t *out);
int cli_parse_uint(const char *opt, const char *arg, unsigned int flags, unsigned int lo,
		   unsigned int hi, unsigned int *out);
/** "4096", "0x1000", "4K", "2M", "16m", "1G" -> bytes. */
int cli_parse_size(const char *opt, const char *arg, uint64_t *out);
/** A signed integer in any base (0x..): KASLR offsets. */
int cli_parse_s64(const char *opt, const char *arg, int64_t *out);
/** A finite real from @lo to @hi. */
int cli_parse_double(const char *opt, const char *arg, double lo, double hi, double *out);
#define CLI_PAGE_MIN 1024ull
#define CLI_PAGE_MAX (1ull << 30)

/** A page size: a power of two from CLI_PAGE_MIN to CLI_PAGE_MAX. */
int cli_parse_pow2(const char *opt, const char *arg, uint64_t *out);

/*
 * An output that appears whole or not at all, on a file or on stdout: what a
 * command writes to o->f is kept in memory until cli_out_commit(), which
 * writes a regular file through a temporary beside it and a rename (keeping
 * an existing file's mode, else 0666 less the umask), and stdout, a device or
 * a FIFO directly. cli_out_abort() writes nothing anywhere. NULL or "-" is
 * stdout.
 */
struct cli_out {
	FILE *f;
	char *buf;	/* private: the memory stream's buffer */
	size_t len;
	char *path;	/* NULL: stdout */
};

int cli_out_open(struct cli_out *o, const char *path);
/** Write the output to its destination; returns 0 or -errno (printed). */
int cli_out_commit(struct cli_out *o);
/** Drop the output (on error): nothing is written. */
void cli_out_abort(struct cli_out *o);
/**
 * cli_write_error() - the one line for a failed write of @path (or "standard
 * output") with -errno @err: a full disk or quota says so by name.
 */
void cli_write_error(const char *path, int err);

/**
 * cli_out_check_input() - refuse an output @out that is the same regular
 * file as the input @in ("-": standard input), by device and inode, so also
 * through symbolic and hard links: the rename would replace the input.
 * @what says which input it is ("the vmlinux", "samples"). Returns 0, or
 * -EINVAL after printing "OUT: is also an input (WHAT IN); ...". A NULL or
 * "-" @out (stdout), or a file that does not exist yet, is never an input.
 */
int cli_out_check_input(const char *out, const char *in, const char *what);

/**
 * cli_getopt() - getopt_long() whose mistakes are one line: an unknown or
 * ambiguous option, a missing value or one given to an option that takes
 * none prints "OPT: what; see 'hotpack CMD --help'" (CMD from argv[0]) and
 * returns '?', which the command turns into its usage exit code without
 * printing its usage. getopt's own messages are off.
 */
int cli_getopt(int argc, char **argv, const char *optstring, const struct option *longopts);

/*
 * The options every command takes with one meaning (hotpack(1), which
 * also lists each letter that means one thing wherever it appears):
 * -o/--output FILE, -q/--quiet, -v/--verbose, -h/--help. A command's
 * getopt string starts with CLI_COMMON_SHORTOPTS and its table holds
 * CLI_COMMON_LONGOPTS; cli_common_opt() handles -q and -v.
 */
#define CLI_COMMON_SHORTOPTS "o:qvh"
#define CLI_COMMON_LONGOPTS                                                            \
	{ "output", required_argument, NULL, 'o' },                                    \
	{ "quiet", no_argument, NULL, 'q' },                                           \
	{ "verbose", no_argument, NULL, 'v' },                                         \
	{ "help", no_argument, NULL, 'h' }
#define CLI_USAGE_OUTPUT                                                               \
"  -o, --output FILE        write FILE (whole or not at all) instead of stdout\n"
#define CLI_USAGE_QVH                                                                  \
"  -q, --quiet              errors only\n"                                          \
"  -v, --verbose            more detail\n"                                          \
"  -h, --help               this text\n"

/*
 * The sample options of every command that reads samples (order, report,
 * profile, verify): --any-arch and --buildid-list check the samples' build
 * against IMAGE, a string literal naming the image as that command's usage
 * does ("VMLINUX", "OLD"). callgraph takes --event alone.
 */
#define CLI_USAGE_EVENT                                                                \
"      --event NAME         perf script: read the samples of this event (its\n"    \
"                           modifiers do not count; default: the first one's)\n"
#define CLI_USAGE_SAMPLES(IMAGE)                                                       \
"      --any-arch           use samples or a .hprof of another architecture\n"     \
"                           (perf's '# arch', a .hprof's build): warned about\n"   \
"      --buildid-list FILE  perf buildid-list output: its kernel build-id must\n"  \
"                           be " IMAGE "'s\n"                                       \
CLI_USAGE_EVENT

/** -q and -v (also before the command: hotpack -q report ...); returns 1
 * when @c was one of them, else 0. */
int cli_common_opt(int c);

/*
 * The largest count of listed items (report's and verify's --paths, verify's
 * --list): any count above the number of items lists them all.
 */
#define CLI_LIST_MAX (1u << 30)

/**
 * cli_retired() - an option spelling whose meaning moved: prints "CMD OLD:
 * NOW" (NOW names the new spelling) and returns -EINVAL, for the caller to
 * return as a usage error.
 */
int cli_retired(const char *cmd, const char *old, const char *now);

/** @a and @b name one file: the same path, or one existing file by device
 * and inode (two outputs that would overwrite each other). */
bool cli_same_file(const char *a, const char *b);

/* --help: lines of at most CLI_USAGE_WIDTH columns; an option's text starts
 * at column CLI_USAGE_COL ("      --input-format FMT   "). */
#define CLI_USAGE_WIDTH 76
#define CLI_USAGE_COL 27

/**
 * cli_wrap() - @text (words and single spaces) broken into lines of at most
 * CLI_USAGE_WIDTH columns, the first starting at column @col (after what the
 * caller prints before it), the others indented to @col. A word longer than
 * a line has its own. Caller frees.
 */
char *cli_wrap(const char *text, size_t col);

#endif
