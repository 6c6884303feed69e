/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * commands.h - the subcommands main() dispatches to. Each parses its own
 * options (argv[0] is the subcommand's name) and returns an enum hp_exit.
 */
#ifndef HP_COMMANDS_H
#define HP_COMMANDS_H

int cmd_order(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_callgraph(int argc, char **argv);
int cmd_measure(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
