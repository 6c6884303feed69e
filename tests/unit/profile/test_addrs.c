// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_addrs.c - the address list reader: counts, comments, CRLF, and
 * what it refuses.
 */
#include "config.h"

#include <errno.h>

#include "unit/profile/evlog.h"
#include "tap.h"

int main(void)
{
	evlog_reader addrs_read = evlog_reader_named("addrs");
	struct evlog l;

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
