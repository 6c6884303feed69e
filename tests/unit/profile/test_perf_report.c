// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_perf_report.c - the perf report --branch-stack reader: the weight
 * from the samples column, the event count or the overhead; the source and
 * target symbols among other columns; kernel, user and guest ends; what it
 * skips (comments, callchain lines) and what it refuses (a report without
 * --branch-stack, lines that are no entry).
 */
#include "config.h"

#include "unit/profile/evlog.h"
#include "tap.h"

static void check(const char *what, const char *in, const char *want)
{
	evlog_check(evlog_reader_named("perf-report"), "t.report", what, in, want);
}

static void check_fails(const char *what, const char *in)
{
	evlog_check_fails(evlog_reader_named("perf-report"), "t.report", what, in);
}

int main(void)
{
	check("-n: the samples column is the weight",
	      "# Overhead  Samples  Source Symbol  Target Symbol\n"
	      "#\n"
	      "    21.30%    10227  [k] vfs_read     [k] read_zero\n"
	      "     0.95%      456  [.] __libc_read  [k] entry_SYSCALL_64\n",
	      "B 10227: vfs_read k | read_zero k\n"
	      "B 456: __libc_read u | entry_SYSCALL_64 k\n");
	check("no samples column: the overhead of the section's event count",
	      "# Samples: 1K of event 'cycles'\n"
	      "# Event count (approx.): 20000\n"
	      "    50.00%  dd  [kernel.kallsyms]  [k] vfs_write   [k] write_null   -\n"
	      "    12.34%  dd  [kernel.kallsyms]  [k] ksys_write  [k] vfs_write    -\n"
	      "# Samples: 10 of event 'instructions'\n"
	      "# Event count (approx.): 10\n"
	      "    25.00%  dd  [kernel.kallsyms]  [k] ksys_write  [k] vfs_write    -\n",
	      "B 10000: vfs_write k | write_null k\n"
	      "B 2468: ksys_write k | vfs_write k\n"
	      "B 3: ksys_write k | vfs_write k\n");
	check("no count at all: hundredths of a percent; 0.00% is nothing",
	      "     7.5%  [k] a  [k] b\n"
	      "     0.00%  [k] c  [k] d\n",
	      "B 750: a k | b k\n");
	check("unresolved ends are addresses; guest and hypervisor ends unknown",
	      "  1.00%  3  [k] 0xffffffff81e00000  [k] vfs_read\n"
	      "  1.00%  4  [g] guest_fn            [H] 0x1000\n",
	      "B 3: ffffffff81e00000 k | vfs_read k\n"
	      "B 4: guest_fn ? | 1000 ?\n");
	check("--children: the last overhead is the entry's; callchain lines skipped",
	      "    30.00%    20.00%  5  [k] ksys_read  [k] vfs_read\n"
	      "            |\n"
	      "            ---do_syscall_64\n"
	      "               |--60.00%--ksys_read\n"
	      "\n",
	      "B 5: ksys_read k | vfs_read k\n");
	check("CRLF and a trailing (inlined)",
	      "  2.00%  9  [k] f  [k] g (inlined)\r\n",
	      "B 9: f k | g k\n");
	check("empty input", "", "");
	check_fails("a report without --branch-stack is refused",
		    "    10.54%  dd  [kernel.kallsyms]  [k] vfs_read\n");
	check_fails("a line that is no entry is refused",
		    "  1.00%  3  [k] a  [k] b\nhello world\n");
	check_fails("an entry without symbols is refused", "  1.00%  dd  x\n");
	return done_testing();
}
