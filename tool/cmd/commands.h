/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commands.h - the subcommands main() dispatches to. Each parses its own
 * options (argv[0] is the subcommand's name) and returns an enum hp_exit.
 */
#ifndef HP_COMMANDS_H
#define HP_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

int cmd_order(int argc, char **argv);
/** hotpack VMLINUX SAMPLES...: order without its name, which then refuses a
 * command's name where the vmlinux goes (hotpack -a cds report ...). */
int cmd_order_implicit(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_callgraph(int argc, char **argv);
int cmd_measure(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* One line of the command table (commands.c), NULL-terminated. */
struct hp_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};
extern const struct hp_cmd cmd_table[];

/** @word is the name of a command of cmd_table. */
bool cmd_is_command(const char *word);

#endif
