// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_input.c - format names, detection from the first bytes of each
 * supported shape (and refusal of what is none of them), and the address
 * list reader.
 */
#include "config.h"

#include <errno.h>

#include "unit/profile/evlog.h"
#include "tap.h"

static enum input_format detect(const char *s)
{
	return input_detect(s, strlen(s));
}

int main(void)
{
	struct evlog l;

	is_int(input_format_from_name("perf"), INPUT_PERF, "name perf");
	is_int(input_format_from_name("ftrace"), INPUT_FTRACE, "name ftrace");
	is_int(input_format_from_name("trace-cmd"), INPUT_FTRACE, "name trace-cmd");
	is_int(input_format_from_name("addrs"), INPUT_ADDRS, "name addrs");
	is_int(input_format_from_name("hprof"), INPUT_HPROF, "name hprof");
	is_int(input_format_from_name("auto"), INPUT_AUTO, "name auto");
	is_int(input_format_from_name("xml"), -1, "unknown name");
	is_str(input_format_name(INPUT_FTRACE), "ftrace", "format name");

	is_int(detect("hotpack-profile 1\nfn 1 a\n"), INPUT_HPROF, "detect hprof");
	is_int(detect("\n  hotpack-profile 1\n"), INPUT_HPROF, "detect hprof after a blank");
	is_int(detect("# tracer: function_graph\n#\n"), INPUT_FTRACE, "detect ftrace header");
	is_int(detect(" 0)   4.744 us    |  mutex_unlock();\n"), INPUT_FTRACE,
	       "detect ftrace without header");
	is_int(detect(" 0)               |  ksys_read() {\n"), INPUT_FTRACE, "detect ftrace entry");
	is_int(detect("  dd-38 [000] 1.5: funcgraph_entry:   |  a() {\n"), INPUT_FTRACE,
	       "detect trace-cmd report");
	is_int(detect("ffffffff81001550\nffffffff810412a0\n"), INPUT_ADDRS, "detect addresses");
	is_int(detect("# comment\n0xffffffff81001550 12\r\n\nffffffff810412a0 3\n"), INPUT_ADDRS,
	       "detect addresses with counts, 0x, CRLF, comments");
	is_int(detect("swapper 0 [000] 1.5: 250000 cycles: ffffffff81000000 f ([kernel.kallsyms])\n"),
	       INPUT_PERF, "detect perf sample");
	is_int(detect("swapper 0 [000] 1.5: cycles:\n\tffffffff81000000 f ([kernel.kallsyms])\n"),
	       INPUT_PERF, "detect perf callchain");
	is_int(detect("    ffffffff81000000 f+0x1 ([kernel.kallsyms])\n"), INPUT_PERF,
	       "detect headerless perf");
	is_int(detect("0xffffffff81000000/0xffffffff81000100/P/-/-/0\n"), INPUT_PERF,
	       "detect brstack");
	is_int(detect("ffffffff81001550\nffffffff810412a0\ngarbage\nffffffff81001550\n"),
	       INPUT_ADDRS, "mostly addresses: an address list (the reader names the bad line)");
	is_int(detect("ffffffff81001550\ngarbage\n"), INPUT_AUTO,
	       "half addresses, half not: nothing");
	is_int(detect("add\nthis is text\nand more text\n"), INPUT_AUTO,
	       "prose with one hex word is nothing");
	is_int(detect("hello world\nthis is text\n"), INPUT_AUTO, "prose is nothing");
	is_int(detect(""), INPUT_AUTO, "empty is nothing");
	is_int(detect("# only comments\n"), INPUT_AUTO, "comments only are nothing");

	evlog_init(&l);
	is_int(evlog_run(&l, addrs_read,
			 "# QEMU plugin\nffffffff81001550\n0xffffffff810412a0 12\n\n  ffffffff81000000  3 \r\n"
			 "ffffffff81000001 0\nffffffff81000002 # note\n", "a.txt"),
	       0, "addrs: read");
	is_str(evlog_text(&l),
	       "S 1: ffffffff81001550 k\nS 12: ffffffff810412a0 k\nS 3: ffffffff81000000 k\n"
	       "S 1: ffffffff81000002 k\n",
	       "addrs: weights, comments, CRLF; zero counts dropped");
	evlog_free(&l);
	evlog_init(&l);
	is_int(evlog_run(&l, addrs_read, "ffffffff81001550\nffffffff8100155g\n", "a.txt"), -EINVAL,
	       "addrs: a bad digit fails");
	is_int(l.nevents, 1, "addrs: lines before it were read");
	evlog_free(&l);
	evlog_init(&l);
	is_int(evlog_run(&l, addrs_read, "ffffffff81001550 12 13\n", "a.txt"), -EINVAL,
	       "addrs: a third field fails");
	is_int(evlog_run(&l, addrs_read, "1ffffffff81001550\n", "a.txt"), -EINVAL,
	       "addrs: more than 64 bits fails");
	is_int(evlog_run(&l, addrs_read, "ffffffff81001550 99999999999999999999999\n", "a.txt"),
	       -EINVAL, "addrs: a count over 64 bits fails");
	evlog_free(&l);
	return done_testing();
}
