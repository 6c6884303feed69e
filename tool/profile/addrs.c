// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * addrs.c - the simplest profile: one code address per line, in hex (with
 * or without 0x), optionally followed by a decimal count. Blank lines and
 * lines starting with '#' are ignored. Each line is one sample of weight
 * count (1 when absent), handed on as a one-frame stack event. This is what
 * the QEMU plugin writes (one I-TLB miss per line).
 *
 * A last line without a newline was probably cut short: warned about, and
 * not counted when its address has fewer digits than the line before (a cut
 * address would be counted as "not in this vmlinux", or worse, resolve).
 */
#include "config.h"

#include <errno.h>

#include "lib/lineio.h"
#include "lib/warn.h"
#include "profile/readers.h"

static int addrs_read(FILE *in, const char *name, const struct read_opts *ro, hp_event_cb cb,
		      void *ctx)
{
	struct lineio lr;
	struct hp_frame fr = { .has_addr = 1, .dso = HP_DSO_KERNEL };
	struct hp_event ev = { .kind = HP_EV_STACK, .frames = &fr, .nframes = 1, .file = name };
	const char *p;
	char *line;
	size_t len;
	int ret, digits, prev_digits = 0;

	lineio_init(&lr, in, name);
	lr.own_tail = true;
	while ((ret = lineio_next(&lr, &line, &len)) > 0) {
		p = lineio_skip_ws(line);
		if (!*p || *p == '#')
			continue;
		digits = lineio_parse_hex(&p, &fr.addr);
		if (!digits || (*p && *p != ' ' && *p != '\t'))
			goto bad;
		if (lr.no_newline) {
			bool cut = digits < prev_digits && !*lineio_skip_ws(p);

			pr_warn("%s:%zu: last line has no newline: truncated input?%s", name,
				lr.lineno, cut ? " (its address is shorter than the one before: "
						 "not counted)" : "");
			if (cut)
				continue;
		}
		prev_digits = digits;
		p = lineio_skip_ws(p);
		ev.weight = 1;
		if (*p && *p != '#') {
			if (!lineio_parse_dec(&p, &ev.weight))
				goto bad;
			p = lineio_skip_ws(p);
			if (*p && *p != '#')
				goto bad;
		}
		if (!ev.weight)
			continue;
		ev.line = lr.lineno;
		ret = cb(&ev, ctx);
		if (ret)
			break;
	}
	lineio_release(&lr);
	return ret;
bad:
	pr_err("%s:%zu: expected a hex address and an optional decimal count; is this "
	       "an address list? (--input-format forces a format)", name, lr.lineno);
	lineio_release(&lr);
	return -EINVAL;
}

static enum sniff addrs_sniff(const char *s, const char *e, bool first)
{
	return sniff_is_addr(s, e) ? SNIFF_LINE : SNIFF_NO;
}

const struct profile_reader profile_reader_addrs = {
	.name = "addrs",
	.what = "hex addresses",
	.desc = "hex address lists",
	.sniff = addrs_sniff,
	.prio = 10,	/* an address alone, even indented like a perf frame */
	.fallback = true,
	.read = addrs_read,
	.units = PROF_UNIT_EVENTS,
	.needs_image = "an address list needs the vmlinux to resolve it",
	.in_time_order = true,
};
