// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * icache.c - the I-cache model: sets of ways holding line tags with their
 * last use; a miss fills an empty way or evicts the least recently used.
 * Addresses are treated as physical (kernel text is contiguous).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/xalloc.h"
#include "model/icache.h"

#define TAG_EMPTY UINT64_MAX

struct icache {
	struct geom_icache g;
	unsigned int sets, shift;
	uint64_t *tag, *used, clock;
	uint64_t last_line;
	struct icache_stats st;
};

int icache_new(struct icache **out, const struct geom_icache *g)
{
	struct icache *c;
	uint64_t lines;

	if (geom_check_icache(g))
		return -EINVAL;
	lines = g->size / g->line;
	c = xcalloc(1, sizeof(*c));
	c->g = *g;
	c->sets = (unsigned int)(lines / g->ways);
	for (uint32_t l = g->line; l > 1; l >>= 1)
		c->shift++;
	c->tag = xcalloc(lines, sizeof(*c->tag));
	c->used = xcalloc(lines, sizeof(*c->used));
	icache_reset(c);
	*out = c;
	return 0;
}

void icache_free(struct icache *c)
{
	if (!c)
		return;
	free(c->tag);
	free(c->used);
	free(c);
}

void icache_reset(struct icache *c)
{
	size_t lines = (size_t)c->sets * c->g.ways;

	for (size_t i = 0; i < lines; i++) {
		c->tag[i] = TAG_EMPTY;
		c->used[i] = 0;
	}
	c->clock = 0;
	c->last_line = TAG_EMPTY;
	memset(&c->st, 0, sizeof(c->st));
}

static unsigned int access_line(struct icache *c, uint64_t line)
{
	uint64_t *tag, *used;
	unsigned int victim = 0;

	c->st.refs++;
	if (line == c->last_line)
		return 0;
	c->clock++;
	c->last_line = line;
	tag = c->tag + (size_t)(line & (c->sets - 1)) * c->g.ways;
	used = c->used + (tag - c->tag);
	for (unsigned int w = 0; w < c->g.ways; w++) {
		if (tag[w] == line) {
			used[w] = c->clock;
			return 0;
		}
		if (used[w] < used[victim])
			victim = w;
	}
	tag[victim] = line;
	used[victim] = c->clock;
	c->st.misses++;
	return 1;
}

unsigned int icache_access_range(struct icache *c, uint64_t addr, uint64_t size)
{
	uint64_t first = addr >> c->shift;
	uint64_t last = (addr + NONZERO(size) - 1) >> c->shift;
	unsigned int misses = 0;

	for (uint64_t l = first; l <= last; l++)
		misses += access_line(c, l);
	return misses;
}

const struct icache_stats *icache_stats(const struct icache *c)
{
	return &c->st;
}
