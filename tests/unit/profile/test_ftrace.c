// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ftrace.c - the function_graph reader on the column combinations of
 * Documentation/trace/ftrace.rst (cpu, task/pid, abstime, overhead marks,
 * tail comments), context-switch banners, interrupt markers, lost events,
 * interleaved CPUs, trees cut by the buffer, trace-cmd report, and refusals.
 */
#include "config.h"

#include <errno.h>

#include "unit/profile/evlog.h"
#include "tap.h"

static void check(const char *what, const char *in, const char *want)
{
	evlog_check(evlog_reader_named("ftrace"), "t.trace", what, in, want);
}

static void check_fails(const char *what, const char *in)
{
	evlog_check_fails(evlog_reader_named("ftrace"), "t.trace", what, in);
}

int main(void)
{
	check("default columns: cpu and duration",
	      "# tracer: function_graph\n#\n# CPU  DURATION                  FUNCTION CALLS\n"
	      "# |     |   |                     |   |   |   |\n"
	      " 1)               |  vfs_read() {\n"
	      " 1)               |    rw_verify_area() {\n"
	      " 1)   0.210 us    |      security_file_permission();\n"
	      " 1)   0.950 us    |    }\n"
	      " 1)   0.300 us    |    fsnotify_access();\n"
	      " 1) + 12.500 us   |  }\n"
	      " 1)   0.400 us    |  fput();\n",
	      "T 1: vfs_read k@0 | rw_verify_area k@1 | security_file_permission k@2 | fsnotify_access k@1\n"
	      "T 1: fput k@0\n");
	check("no duration column (funcgraph -D), with funcgraph's banner",
	      "Tracing \"vfs_read\"... Ctrl-C to end.\n"
	      " 1) vfs_read() {\n"
	      " 1)   rw_verify_area();\n"
	      " 1) }\n"
	      "\nEnding tracing...\n",
	      "T 1: vfs_read k@0 | rw_verify_area k@1\n");
	check("no duration column, absolute times",
	      "7238523.638008 |   0) vfs_read() {\n"
	      "7238523.638009 |   0)   rw_verify_area();\n"
	      "7238523.638010 |   0) }\n",
	      "T 1: vfs_read k@0 | rw_verify_area k@1\n");
	check("task/pid column and overhead marks",
	      " 0)    sh-4802     |               |  d_free() {\n"
	      " 0)    sh-4802     |               |    call_rcu() {\n"
	      " 0)    sh-4802     |   0.616 us    |      rcu_process_gp_end();\n"
	      " 0)    sh-4802     | ! 140.417 us  |    }\n"
	      " 0)    sh-4802     | @ 119760.2 us |  }\n",
	      "T 1: d_free k@0 | call_rcu k@1 | rcu_process_gp_end k@2\n");
	check("abstime column and tail comments",
	      "  360.774528 |   1)               |  reiserfs_prepare() {\n"
	      "  360.774528 |   1)               |    unlock_buffer() {\n"
	      "  360.774530 |   1)   0.594 us    |      __phys_addr();\n"
	      "  360.774531 |   1)   1.757 us    |    } /* unlock_buffer() */\n"
	      "  360.774532 |   1) # 1837.709 us |  } /* reiserfs_prepare */\n",
	      "T 1: reiserfs_prepare k@0 | unlock_buffer k@1 | __phys_addr k@2\n");
	check("interleaved CPUs make separate trees",
	      " 2)               |  handle_IPI() {\n"
	      " 1)               |  do_idle() {\n"
	      " 2)   0.417 us    |    scheduler_ipi();\n"
	      " 1)   0.300 us    |    cpuidle_idle_call();\n"
	      " 2) $ 3594274 us  |  }\n"
	      " 1)   3.125 us    |  }\n",
	      "T 1: handle_IPI k@0 | scheduler_ipi k@1\n"
	      "T 1: do_idle k@0 | cpuidle_idle_call k@1\n");
	check("context switch banners key trees by task; interrupted tree resumes",
	      " 0)               |  ksys_read() {\n"
	      " 0)               |    vfs_read() {\n"
	      " ------------------------------------------\n"
	      " 0)    dd-38    =>    sh-40   \n"
	      " ------------------------------------------\n\n"
	      " 0)   1.000 us    |  schedule_tail();\n"
	      " ------------------------------------------\n"
	      " 0)    sh-40    =>    dd-38   \n"
	      " ------------------------------------------\n\n"
	      " 0)   0.500 us    |      read_zero();\n"
	      " 0)   2.000 us    |    }\n"
	      " 0)   3.000 us    |  }\n",
	      "T 1: schedule_tail k@0\n"
	      "T 1: ksys_read k@0 | vfs_read k@1 | read_zero k@2\n");
	check("irq markers are skipped, the interrupt nests in the tree",
	      " 0)               |  ksys_write() {\n"
	      " 0)   ==========> |\n"
	      " 0)               |      smp_apic_timer_interrupt() {\n"
	      " 0)   0.100 us    |        irq_enter();\n"
	      " 0)   0.900 us    |      }\n"
	      " 0)   <========== |\n"
	      " 0)   0.200 us    |    vfs_write();\n"
	      " 0)   5.000 us    |  }\n",
	      "T 1: ksys_write k@0 | smp_apic_timer_interrupt k@2 | irq_enter k@3 | vfs_write k@1\n");
	check("a trace starting inside a call gives partial trees",
	      " 0)   0.100 us    |        inner();\n"
	      " 0)   0.900 us    |      }\n"
	      " 0)   0.200 us    |      sibling();\n"
	      " 0)   5.000 us    |    }\n"
	      " 0)               |    next() {\n"
	      " 0)   0.100 us    |      leaf();\n"
	      " 0)   1.000 us    |    }\n",
	      "T 1: inner k@0\nT 1: sibling k@0\nT 1: next k@0 | leaf k@1\n");
	check("lost events end the CPU's trees; unfinished trees flush at the end",
	      " 0)               |  a() {\n"
	      " 0)   0.1 us      |    b();\n"
	      " 1)               |  c() {\n"
	      "CPU:0 [LOST 11745 EVENTS]\n"
	      " 1)   0.1 us      |    d();\n",
	      "T 1: a k@0 | b k@1\nT 1: c k@0 | d k@1\n");
	check("no duration column, module names, sym-offset, comments, return values",
	      " 0)  outer() {\n"
	      " 0)    e1000_xmit_frame [e1000]() {\n"
	      " 0)      /* I'm a comment! */\n"
	      " 0)      kfree+0x0/0x50(); /* = 0x0 */\n"
	      " 0)    } /* e1000_xmit_frame = 0x0 */\n"
	      " 0)  }\n",
	      "T 1: outer k@0 | e1000_xmit_frame m@1 | kfree+0 k@2\n");
	check("CRLF and trailing blanks",
	      " 0)               |  a() {\r\n 0)   0.1 us    |    b();   \r\n 0)   1 us |  }\r\n",
	      "T 1: a k@0 | b k@1\n");
	check("trace-cmd report",
	      "version = 6\ncpus=2\nCPU 1 is empty\n"
	      "              dd-38    [000]  1234.567890: funcgraph_entry:                   |  ksys_read() {\n"
	      "              dd-38    [000]  1234.567891: funcgraph_entry:        0.353 us   |    __fdget_pos();\n"
	      "              dd-38    [000]  1234.567892: sched_wakeup:         comm=x pid=1\n"
	      "              dd-38    [000]  1234.567893: funcgraph_exit:       + 14.520 us  |  }\n",
	      "T 1: ksys_read k@0 | __fdget_pos k@1\n");

	check("empty input", "", "");
	check_fails("a perf script line is refused with its line number",
		    " 0)   0.1 us    |  a();\nswapper 0 [000] 1.0: cycles: ffffffff81000000 x\n");
	check_fails("binary junk is refused", " 0)   0.1 us    |  a();\n\x01\x02\x03 \xff\n");
	check_fails("a function column that is not a call", " 0)   0.1 us    |  a;\n");

	return done_testing();
}
