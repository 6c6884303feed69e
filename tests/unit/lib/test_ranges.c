// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_ranges.c - lib/ranges.h: ranges kept sorted and apart, joined when
 * less than RANGES_GAP apart, a union that does not depend on the order.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ranges.h"
#include "tap.h"

/* @r as "LO-HI,LO-HI" in a static buffer */
static const char *str(const struct ranges *r)
{
	static char buf[512];
	size_t o = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < r->n && o < sizeof(buf) - 24; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%u-%u", i ? "," : "",
				      r->v[2 * i], r->v[2 * i + 1]);
	return buf;
}

int main(void)
{
	struct ranges r = { 0 }, s = { 0 }, u = { 0 };
	uint32_t lo, hi;
	bool apart;

	ok(!ranges_hull(&r, &lo, &hi), "an empty set has no hull");
	ranges_add(&r, 5, 5);
	is_int(r.n, 0, "an empty range adds nothing");
	ranges_add(&r, 1000, 1001);
	ranges_add(&r, 0, 1);
	ranges_add(&r, 2000, 2001);
	is_str(str(&r), "0-1,1000-1001,2000-2001", "ranges far apart stay apart, sorted");
	ranges_add(&r, 1064, 1065);
	is_str(str(&r), "0-1,1000-1065,2000-2001", "a range within the gap joins its neighbour");
	ranges_add(&r, 1129, 1130);
	is_str(str(&r), "0-1,1000-1065,1129-1130,2000-2001", "the gap apart stays apart");
	ranges_add(&r, 1940, 1960);
	is_str(str(&r), "0-1,1000-1065,1129-1130,1940-2001", "less than the gap before one joins it");
	ranges_add(&r, 40, 1990);
	is_str(str(&r), "0-2001", "a range over several takes them all in");
	ok(ranges_hull(&r, &lo, &hi) && lo == 0 && hi == 2001, "the hull");
	ranges_release(&r);
	is_int(r.n, 0, "released: empty");

	/* a union is the same whichever way it is made */
	for (uint32_t i = 0; i < 40; i++)
		ranges_add(&r, i * 300, i * 300 + 7);
	for (uint32_t i = 40; i-- > 0;)
		ranges_add(&s, i * 200 + 3, i * 200 + 9);
	ranges_copy(&u, &r);
	ranges_union(&u, &s);
	ranges_union(&s, &r);
	ok(ranges_equal(&u, &s), "r | s == s | r");
	apart = u.n > 1;
	for (uint32_t i = 1; i < u.n; i++)
		apart &= u.v[2 * i] > u.v[2 * i - 1] + RANGES_GAP;
	ok(apart, "every range of the union is more than the gap from the next");
	ok(ranges_hull(&u, &lo, &hi) && lo == 0 && hi == 39 * 300 + 7, "the union's hull");
	ranges_add(&u, UINT32_MAX - 10, UINT32_MAX);
	ok(ranges_hull(&u, &lo, &hi) && hi == UINT32_MAX, "a range at the top of 32 bits");
	ranges_release(&r);
	ranges_release(&s);
	ranges_release(&u);

	/* a side without ranges adds its hull; one with ranges, those */
	ranges_add(&s, 0, 10);
	ranges_add(&s, 500, 510);
	ranges_add_side(&r, NULL, 200, 300);
	ranges_add_side(&r, &u, 900, 901);
	ranges_add_side(&r, &s, 0, 510);
	is_str(str(&r), "0-10,200-300,500-510,900-901", "ranges_add_side: hulls and ranges");
	ranges_release(&r);
	ranges_release(&s);
	return done_testing();
}
