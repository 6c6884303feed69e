// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_perf.c - the perf script reader on the shapes perf-script(1)
 * documents: headers with and without pid/tid, cpu, period and event names,
 * inline ips, callchains, LBR brstack/brstacksym, headerless -F ip,sym,dso,
 * and what it must refuse.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "arch/arch.h"
#include "profile/perf.h"
#include "unit/profile/evlog.h"
#include "tap.h"

static void check(const char *what, const char *in, const char *want)
{
	evlog_check(evlog_reader_named("perf"), "t.perf", what, in, want);
}

static void check_fails(const char *what, const char *in)
{
	evlog_check_fails(evlog_reader_named("perf"), "t.perf", what, in);
}

/* With --event @event: the reader's result and events, as check() */
static void check_event(const char *what, const char *event, const char *in, int ret,
			const char *want)
{
	struct read_opts ro = { .event = event };
	struct evlog l;

	evlog_init(&l);
	l.ro = &ro;
	is_int(evlog_run(&l, evlog_reader_named("perf"), in, "t.perf"), ret, what);
	if (!ret)
		is_str(evlog_text(&l), want, what);
	evlog_free(&l);
}

/* The samples of tests/data/profile/perf-two-events.txt read with --event
 * @event (NULL: none); -1 when the reader fails. */
static long two_events(const char *event)
{
	struct read_opts ro = { .event = event };
	const char *srcdir = getenv("srcdir");
	char path[4096];
	struct evlog l;
	FILE *in;
	long n;

	snprintf(path, sizeof(path), "%s/tests/data/profile/perf-two-events.txt",
		 srcdir ? srcdir : ".");
	in = fopen(path, "r");
	if (!in)
		return -2;
	evlog_init(&l);
	l.ro = &ro;
	n = evlog_reader_named("perf")(in, path, &ro, evlog_cb, &l) ? -1 : (long)l.nevents;
	fclose(in);
	evlog_free(&l);
	return n;
}

/* perf's names for the machines hotpack knows: each maps to a table entry */
static const char *const unames[] = {
	"x86_64", "amd64", "i386", "i686", "aarch64", "aarch64_be", "arm64", "armv7l",
	"armv6l", "arm", "ppc", "ppc64", "ppc64le", "riscv32", "riscv64",
};

int main(void)
{
	evlog_reader perf_read = evlog_reader_named("perf");
	struct evlog l;

	check("plain sample with pid/tid, period, event",
	      "            bash  1234/1234 [001] 12345.678901:     250000 cycles:k:  ffffffff8106aa32 native_safe_halt+0x2 ([kernel.kallsyms])\n",
	      "S 250000: ffffffff8106aa32 native_safe_halt+0x2 k\n");
	check("no pid, no period, event with :ppp",
	      "swapper [000]  1.000001: iTLB-load-misses:ppp: ffffffff81000010 do_idle ([kernel.kallsyms])\n",
	      "S 1: ffffffff81000010 do_idle k\n");
	check("frontend_retired.itlb_miss, vmlinux path dso",
	      "dd  38 [000] 100.5: 17 frontend_retired.itlb_miss:k: ffffffff81200000 ksys_read+0x0 (/usr/lib/debug/boot/vmlinux-6.1.0-18-amd64)\n",
	      "S 17: ffffffff81200000 ksys_read+0 k\n");
	check("module, user, bpf, unknown dsos",
	      "a 1 [0] 1.1: 1 cycles: ffffffffc0123456 e1000_xmit+0x10 ([e1000])\n"
	      "a 1 [0] 1.2: 1 cycles: ffffffffc0123456 ext4_read+0x10 (/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko)\n"
	      "a 1 [0] 1.3: 1 cycles: 7f0011223344 __libc_read+0x14 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	      "a 1 [0] 1.4: 1 cycles: ffffffffc0800000 bpf_prog_6deef7357e7b4530_x+0x1 (bpf_prog_6deef7357e7b4530_x)\n"
	      "a 1 [0] 1.5: 1 cycles: ffffffff81001234 [unknown] ([unknown])\n"
	      "a 1 [0] 1.6: 1 cycles: 7fff00001000 __vdso_clock_gettime+0x1 ([vdso])\n",
	      "S 1: ffffffffc0123456 e1000_xmit+0x10 m\n"
	      "S 1: ffffffffc0123456 ext4_read+0x10 m\n"
	      "S 1: 7f0011223344 __libc_read+0x14 u\n"
	      "S 1: ffffffffc0800000 bpf_prog_6deef7357e7b4530_x+0x1 b\n"
	      "S 1: ffffffff81001234 ?\n"
	      "S 1: 7fff00001000 __vdso_clock_gettime+0x1 u\n");
	check("callchains end at blank lines and headers",
	      "swapper     0 [000] 49453.373519:     250000 cpu-clock:pppH: \n"
	      "\tffffffff8c4e4c6e native_safe_halt+0xe ([kernel.kallsyms])\n"
	      "\tffffffff8c4e4e3c default_idle+0xc ([kernel.kallsyms])\n"
	      "\tffffffff8bb2d4f4 do_idle+0x1f4 ([kernel.kallsyms])\n"
	      "\n"
	      "dd    38 [001] 49453.373600:     250000 cpu-clock:pppH: \n"
	      "\tffffffff8c100000 copy_user_generic_string+0x2e ([kernel.kallsyms])\n"
	      "\tffffffff8c200000 ksys_read+0x73 ([kernel.kallsyms])\n"
	      "\t    7f0011223344 __libc_read+0x14 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
	      "dd    38 [001] 49453.373700:     500000 cpu-clock:pppH: \n"
	      "\tffffffff8c100000 copy_user_generic_string+0x2e ([kernel.kallsyms])\n",
	      "S 250000: ffffffff8c4e4c6e native_safe_halt+0xe k | ffffffff8c4e4e3c default_idle+0xc k | ffffffff8bb2d4f4 do_idle+0x1f4 k\n"
	      "S 250000: ffffffff8c100000 copy_user_generic_string+0x2e k | ffffffff8c200000 ksys_read+0x73 k | 7f0011223344 __libc_read+0x14 u\n"
	      "S 500000: ffffffff8c100000 copy_user_generic_string+0x2e k\n");
	check("CRLF line ends, no symoff, sym without dso",
	      "x 1 [000] 1.0: 3 cycles: \r\n\tffffffff81000000 foo ([kernel.kallsyms])\r\n\tffffffff81000100 bar\r\n\r\n",
	      "S 3: ffffffff81000000 foo k | ffffffff81000100 bar k\n");
	check("no time: the event starts the sample, even after a hex-looking comm",
	      "dd    38 cycles:k: ffffffff81000000 foo+0x1 ([kernel.kallsyms])\n"
	      "bash  12 cycles:k: ffffffff81000200 bar ([kernel.kallsyms])\n",
	      "S 1: ffffffff81000000 foo+0x1 k\nS 1: ffffffff81000200 bar k\n");
	check("no time, no event: the first long hex token starts the frame",
	      "dd    38 ffffffff81000000 foo+0x1 ([kernel.kallsyms])\n",
	      "S 1: ffffffff81000000 foo+0x1 k\n");
	check("header with time but no event: period then ip",
	      "x 1 [000] 1.000: 7 ffffffff81000000 foo+0x1 ([kernel.kallsyms])\n",
	      "S 7: ffffffff81000000 foo+0x1 k\n");
	check("-F +srcline lines are skipped",
	      "x 1 [000] 1.0: 3 cycles: \n\tffffffff81000000 foo+0x1 ([kernel.kallsyms])\n"
	      "  kernel/sched/core.c:6521\n\tffffffff81000100 bar+0x2 ([kernel.kallsyms])\n"
	      "  fs/read_write.c:470\n\n",
	      "S 3: ffffffff81000000 foo+0x1 k | ffffffff81000100 bar+0x2 k\n");
	check("headerless -F ip,sym,dso lines are one sample each",
	      "    ffffffff81000000 foo+0x1 ([kernel.kallsyms])\n"
	      "    ffffffff81000200 bar+0x2 ([kernel.kallsyms])\n",
	      "S 1: ffffffff81000000 foo+0x1 k\nS 1: ffffffff81000200 bar+0x2 k\n");
	check("headerless callchains (-F ip,sym -g): tab lines up to a blank",
	      "\tffffffff81000000 foo+0x1 ([kernel.kallsyms])\n"
	      "\tffffffff81000200 bar+0x2 ([kernel.kallsyms])\n\n"
	      "\tffffffff81000300 baz+0x3 ([kernel.kallsyms])\n",
	      "S 1: ffffffff81000000 foo+0x1 k | ffffffff81000200 bar+0x2 k\n"
	      "S 1: ffffffff81000300 baz+0x3 k\n");
	check("tracepoint payload gives no sample; comments skipped",
	      "# ========\n# captured on: x\n"
	      "bash 1 [000] 1.0: sched:sched_switch: prev_comm=bash prev_pid=1 ==> next_comm=swapper\n",
	      "");
	check("brstack: addresses, one event per LBR entry",
	      "dd 38 [000] 1.0: 100003 cycles: 0xffffffff81000010/0xffffffff81000400/P/-/-/0  0xffffffff81000410/0xffffffff81000800/M/-/-/12 \n",
	      "B 100003: ffffffff81000010 k | ffffffff81000400 k\n"
	      "B 100003: ffffffff81000410 k | ffffffff81000800 k\n");
	check("brstack with -g: the callchain after the LBR entries keeps the period",
	      "dd 38 [000] 1.0: 7 cycles: 0xffffffff81000010/0xffffffff81000400/P/-/-/0 \n"
	      "\tffffffff81000410 foo+0x10 ([kernel.kallsyms])\n\tffffffff81000800 bar+0x0 ([kernel.kallsyms])\n\n"
	      "dd 38 [000] 1.1: 9 cycles: 0xffffffff81000010/0xffffffff81000400/P/-/-/0 \n\n",
	      "B 7: ffffffff81000010 k | ffffffff81000400 k\n"
	      "S 7: ffffffff81000410 foo+0x10 k | ffffffff81000800 bar+0 k\n"
	      "B 9: ffffffff81000010 k | ffffffff81000400 k\n");
	check("brstacksym with dso, and branch types: only calls",
	      " foo+0x10([kernel.kallsyms])/bar+0x0([kernel.kallsyms])/P/-/-/3/CALL  bar+0x20/foo+0x14/P/-/-/2/RET  foo+0x30/foo+0x40/P/-/-/1/COND  [unknown]/baz+0x0/P/-/-/1/\n",
	      "B 1: foo+0x10 k | bar+0 k\n"
	      "B 1: ? | baz+0 k\n");
	check("brstack with module dso path",
	      "0xffffffffc0001000(/lib/modules/x/e1000.ko)/0xffffffff81000000([kernel.kallsyms])/P/-/-/0\n",
	      "B 1: ffffffffc0001000 m | ffffffff81000000 k\n");
	check("-F +addr: the data address before the ip",
	      "x 1 [0] 1.0: 1 mem: ffff888000001000 ffffffff81000000 foo+0x0 ([kernel.kallsyms])\n",
	      "S 1: ffffffff81000000 foo+0 k\n");
	check("zero period samples are dropped",
	      "x 1 [0] 1.0: 0 cycles: ffffffff81000000 foo+0x0 ([kernel.kallsyms])\n", "");
	check("empty input", "", "");
	check("frames at the start of the line after 'comm pid event:' (FlameGraph's java stacks)",
	      "java 19983 cycles:\n"
	      "ffffffff8103d0ca native_write_msr ([kernel.kallsyms])\n"
	      "7f7241239aec writeBytes (/opt/jdk/lib/libjava.so)\n\n"
	      "dd 38 cycles:\n"
	      "ffffffff810275f1 x86_pmu_enable ([kernel.kallsyms])\n"
	      "dd 38 cycles:\n"
	      "ffffffff81000000 ksys_read ([kernel.kallsyms])\n",
	      "S 1: ffffffff8103d0ca native_write_msr k | 7f7241239aec writeBytes u\n"
	      "S 1: ffffffff810275f1 x86_pmu_enable k\n"
	      "S 1: ffffffff81000000 ksys_read k\n");
	check("side-band records (--show-mmap-events, --show-task-events) are no samples",
	      "perf 12 [000] 1.000000: PERF_RECORD_MMAP2 12/12: [0x55d0c0ffe000(0x1000) @ 0 08:01 9 0]: r-xp /usr/bin/perf\n"
	      "perf 12 [000] 1.000001: PERF_RECORD_COMM exec: sleep:12/12\n"
	      "sleep 12 [000] 1.000100: 100 cycles: ffffffff81000000 foo ([kernel.kallsyms])\n",
	      "S 100: ffffffff81000000 foo k\n");
	check("only the first event's samples are read",
	      "x 1 [0] 1.0: 5 cycles: ffffffff81000000 foo ([kernel.kallsyms])\n"
	      "x 1 [0] 1.1: 9 instructions: \n\tffffffff81000100 bar ([kernel.kallsyms])\n\n"
	      "x 1 [0] 1.2: 7 cycles: ffffffff81000200 baz ([kernel.kallsyms])\n",
	      "S 5: ffffffff81000000 foo k\nS 7: ffffffff81000200 baz k\n");

	/* perf script --header, as perf 6.1 prints it (perf record -e cpu-clock) */
	check("the header's release and architecture are handed on",
	      "# ========\n# hostname : vm\n# os release : 6.18.44-fc-v669\n"
	      "# perf version : 6.1.192\n# arch : x86_64\n# nrcpus online : 2\n"
	      "# ========\n#\n"
	      "sh 29827 20257.624106:     250000 cpu-clock:  ffffffff815f8e5d do_mprotect_pkey+0x14d ([kernel.kallsyms])\n",
	      "R 6.18.44-fc-v669\nA x86_64\nS 250000: ffffffff815f8e5d do_mprotect_pkey+0x14d k\n");
	check("perf's uname -m names become the arch table's",
	      "# arch : aarch64\n# arch : arm64\n# arch : armv7l\n# arch : ppc64le\n"
	      "# arch : ppc\n# arch : i686\n# arch : riscv64\n",
	      "A aarch64\nA aarch64\nA arm\nA ppc64\nA ppc32\nA i386\nA riscv64\n");
	check("an architecture hotpack does not know is not handed on",
	      "# arch : s390x\n# arch : x86\n# arch :\n# architecture : x86_64\n", "");
	for (size_t i = 0; i < sizeof(unames) / sizeof(unames[0]); i++) {
		const char *a = perf_arch_name(unames[i]);
		bool known = false;

		for (size_t j = 0; a && hp_arch_nth(j); j++)
			known |= !strcmp(hp_arch_nth(j)->name, a);
		ok(known, unames[i]);
	}

	/* --event: another event than the first, modifiers on either side */
	static const char two[] =
		"x 1 [0] 1.0: 5 cycles: ffffffff81000000 foo ([kernel.kallsyms])\n"
		"x 1 [0] 1.1: 9 instructions:u: \n\tffffffff81000100 bar ([kernel.kallsyms])\n\n"
		"x 1 [0] 1.2: 7 cycles:k: ffffffff81000200 baz ([kernel.kallsyms])\n";

	check_event("--event instructions: the second event's samples", "instructions", two, 0,
		    "S 9: ffffffff81000100 bar k\n");
	check_event("--event cycles:ppp: the modifiers do not count", "cycles:ppp", two, 0,
		    "S 5: ffffffff81000000 foo k\nS 7: ffffffff81000200 baz k\n");
	check_event("--event of an event not in the input: refused", "branches", two, -EINVAL, "");
	check_event("--event cycle: a prefix is not the event", "cycle", two, -EINVAL, "");
	check_event("--event on samples that name no event: refused", "cycles",
		    "ffffffff81000000 foo ([kernel.kallsyms])\n", -EINVAL, "");
	/* a real capture of two events: cpu-clock 42 samples, task-clock:u 39 */
	is_int(two_events(NULL), 42, "perf-two-events.txt: the first event's samples");
	is_int(two_events("task-clock"), 39, "perf-two-events.txt: --event task-clock");
	is_int(two_events("cpu-clock:k"), 42, "perf-two-events.txt: --event cpu-clock:k");
	is_int(two_events("cycles"), -1, "perf-two-events.txt: --event cycles, not there");

	check_fails("an ftrace line is refused", " 0)   4.744 us    |  mutex_unlock();\n");
	check_fails("junk after valid samples is refused with its line",
		    "x 1 [0] 1.0: 1 cycles: ffffffff81000000 foo ([kernel.kallsyms])\nhello world\n");
	evlog_init(&l);
	is_int(evlog_run_n(&l, perf_read, "x 1 [0] 1.0: 1 cycles:\n\tff\0ff foo\n", 30, "t"),
	       -EINVAL, "NUL bytes are refused");
	evlog_free(&l);
	check_fails("a period that is not a whole number is not an address",
		    "x 1 [0] 1.0: 1e30 cycles: ffffffff81000000 foo ([kernel.kallsyms])\n");
	check_fails("a period past 64 bits is refused",
		    "x 1 [0] 1.0: 18446744073709551616 cycles: ffffffff81000000 foo\n");
	check_fails("a damaged LBR entry is refused",
		    "x 1 [0] 1.0: 1 cycles: 0x10/0x20/P/-/-/0 0x30/0x4\n");

	/* a non-zero callback result stops the reader and comes back */
	evlog_init(&l);
	l.stop_after = 1;
	is_int(evlog_run(&l, perf_read,
			 "    ffffffff81000000 foo\n    ffffffff81000000 foo\n", "t"), 1,
	       "callback result stops the reader");
	is_int(l.nevents, 1, "one event before the stop");
	evlog_free(&l);

	return done_testing();
}
