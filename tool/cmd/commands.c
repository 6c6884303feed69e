// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commands.c - the table of hotpack's commands. In the library, not in
 * main.c, because `hotpack order` asks it whether a word is a command and
 * the fuzzers link the library without main().
 */
#include "config.h"

#include <string.h>

#include "cmd/commands.h"

const struct hp_cmd cmd_table[] = {
	{ "order", cmd_order, "write the linker order for a vmlinux and its samples" },
	{ "profile", cmd_profile, "convert samples and traces into a .hprof profile" },
	{ "merge", cmd_merge, "add .hprof profiles together" },
	{ "callgraph", cmd_callgraph, "static call tree of a function, the pages it spans" },
	{ "measure", cmd_measure, "I-TLB counters around a command (perf, /proc/tlbmiss)" },
	{ "verify", cmd_verify, "check a relinked kernel has the order; pages and misses before/after" },
	{ "report", cmd_report, "pages per hot path and simulated I-TLB misses, per algorithm" },
	{ NULL, NULL, NULL },
};

bool cmd_is_command(const char *word)
{
	const struct hp_cmd *c;

	for (c = cmd_table; c->name; c++)
		if (!strcmp(c->name, word))
			return true;
	return false;
}
