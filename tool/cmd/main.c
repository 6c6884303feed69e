// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * main.c - `hotpack CMD ...` runs a subcommand of the table (commands.c);
 * `hotpack VMLINUX SAMPLES...` is `hotpack order`.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libelf.h>

#include "cmd/commands.h"
#include "lib/cli.h"
#include "lib/hotpack.h"

static void usage(FILE *f)
{
	const struct hp_cmd *c;

	fprintf(f,
"usage: hotpack VMLINUX SAMPLES... -o order.lds   (same as hotpack order)\n"
"       hotpack [-q|-v] COMMAND [options] ...\n"
"\n"
"Make a kernel's hot paths touch fewer code pages: order its hot functions\n"
"so that they share pages, write that order for the linker, and measure it.\n"
"\n"
"Commands:\n");
	for (c = cmd_table; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f,
"\n"
"'hotpack COMMAND --help' describes a command; hotpack(1) describes them all\n"
"and the options that mean the same in every command (-o the output, -q, -v).\n"
"  -q, --quiet    errors only, for the command that follows\n"
"  -v, --verbose  more detail, for the command that follows\n"
"  -h, --help     this text\n"
"  -V, --version  the version\n"
"\n"
"Exit status: 0 ok, 1 error, 2 usage, 3 order not applied (verify),\n"
"4 counters not supported here (measure).\n");
}

/* Whatever a command printed must have reached stdout: a full disk or a
 * closed pipe is an error, never a silent success. */
static int check_stdout(int status)
{
	errno = 0;
	if ((fflush(stdout) || ferror(stdout)) && status == HP_EXIT_OK) {
		cli_write_error("standard output", errno ? -errno : -EIO);
		return HP_EXIT_ERROR;
	}
	return status;
}

/* -q and -v before the command are the command's: "hotpack -q report V S". */
static int global_opts(int argc, char **argv)
{
	int i = 1;

	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
			cli_common_opt('q');
		else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			cli_common_opt('v');
		else
			break;
	}
	return i - 1;
}

static int run(int argc, char **argv)
{
	const struct hp_cmd *c;
	int skip = global_opts(argc, argv);

	/* argv[0] stays the program's name, so that hotpack VMLINUX ... still
	 * reads as the order command called without its name */
	if (skip) {
		memmove(argv + 1, argv + 1 + skip, (size_t)(argc - skip) * sizeof(*argv));
		argc -= skip;
	}
	if (argc < 2) {
		usage(stderr);
		return HP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			for (c = cmd_table; c->name; c++)
				if (!strcmp(c->name, argv[2])) {
					char *args[] = { argv[2], (char *)"--help", NULL };

					return c->run(2, args);
				}
		}
		usage(stdout);
		return HP_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("hotpack %s\n", HOTPACK_VERSION);
		return HP_EXIT_OK;
	}
	for (c = cmd_table; c->name; c++)
		if (!strcmp(c->name, argv[1]))
			return c->run(argc - 1, argv + 1);
	/* A word that is no file is a mistyped command, not a vmlinux. */
	if (argv[1][0] != '-' && !strchr(argv[1], '/') && access(argv[1], F_OK)) {
		fprintf(stderr, "hotpack: error: '%s' is neither a command nor a file; "
			"see hotpack --help\n", argv[1]);
		return HP_EXIT_USAGE;
	}
	/* hotpack VMLINUX SAMPLES...: its option errors point at order --help */
	argv[0] = (char *)"order";
	return cmd_order_implicit(argc, argv);
}

int main(int argc, char **argv)
{
	return check_stdout(run(argc, argv));
}
