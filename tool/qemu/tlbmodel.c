// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tlbmodel.c - LRU stack and set-associative LRU models for the QEMU
 * plugin (see tlbmodel.h). Plain C with no dependency on the rest of
 * hotpack, so the plugin's shared object and the unit test both compile it.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tlbmodel.h"

int tlbm_stack_init(struct tlbm_stack *s, unsigned depth)
{
	s->depth = depth;
	s->used = 0;
	s->tags = calloc(depth ? depth : 1, sizeof(*s->tags));
	return s->tags ? 0 : -1;
}

void tlbm_stack_free(struct tlbm_stack *s)
{
	free(s->tags);
	s->tags = NULL;
}

uint32_t tlbm_stack_access(struct tlbm_stack *s, uint64_t tag)
{
	uint64_t *t = s->tags;
	unsigned d;

	for (d = 0; d < s->used; d++)
		if (t[d] == tag)
			break;
	if (d == s->used) {
		/* Not in the stack: the LRU entry falls off when it is full. */
		if (s->used < s->depth)
			s->used++;
		memmove(t + 1, t, (s->used - 1) * sizeof(*t));
		t[0] = tag;
		return TLBM_COLD;
	}
	memmove(t + 1, t, d * sizeof(*t));
	t[0] = tag;
	return d;
}

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

int tlbm_sa_init(struct tlbm_sa *c, unsigned sets, unsigned ways)
{
	size_t n = (size_t)sets * ways, i;

	c->tags = NULL;
	if (!is_pow2(sets) || !ways)
		return -1;
	c->set_mask = sets - 1;
	c->ways = ways;
	c->tags = malloc(n * sizeof(*c->tags));
	if (!c->tags)
		return -1;
	for (i = 0; i < n; i++)
		c->tags[i] = TLBM_EMPTY;
	return 0;
}

void tlbm_sa_free(struct tlbm_sa *c)
{
	free(c->tags);
	c->tags = NULL;
}

bool tlbm_sa_access(struct tlbm_sa *c, uint64_t tag)
{
	uint64_t *set = c->tags + (tag & c->set_mask) * c->ways;
	unsigned w, n = c->ways;

	for (w = 0; w < n; w++)
		if (set[w] == tag)
			break;
	/* Hit at w or miss (w == n: the LRU way, n - 1, is replaced). */
	if (w == n) {
		memmove(set + 1, set, (n - 1) * sizeof(*set));
		set[0] = tag;
		return false;
	}
	memmove(set + 1, set, w * sizeof(*set));
	set[0] = tag;
	return true;
}

int tlbm_tlb_init(struct tlbm_tlb *t, const unsigned *sizes, unsigned nsizes,
		  unsigned ways, const char **why)
{
	unsigned i, depth = 0;

	memset(t, 0, sizeof(*t));
	t->last = TLBM_EMPTY;
	if (nsizes == 0 || nsizes > TLBM_MAX_SIZES) {
		*why = "between 1 and 16 TLB sizes";
		return -1;
	}
	t->nsizes = nsizes;
	t->ways = ways;
	for (i = 0; i < nsizes; i++) {
		t->sizes[i] = sizes[i];
		if (sizes[i] > depth)
			depth = sizes[i];
		if (ways && (sizes[i] % ways || !is_pow2(sizes[i] / ways))) {
			*why = "each TLB size must be ways times a power of two";
			return -1;
		}
	}
	if (!ways)
		return tlbm_stack_init(&t->stack, depth) ? (*why = "out of memory", -1) : 0;
	for (i = 0; i < nsizes; i++) {
		if (tlbm_sa_init(&t->sa[i], sizes[i] / ways, ways)) {
			tlbm_tlb_free(t);
			*why = "out of memory";
			return -1;
		}
	}
	return 0;
}

void tlbm_tlb_free(struct tlbm_tlb *t)
{
	unsigned i;

	tlbm_stack_free(&t->stack);
	for (i = 0; i < TLBM_MAX_SIZES; i++)
		tlbm_sa_free(&t->sa[i]);
}

uint32_t tlbm_tlb_access(struct tlbm_tlb *t, uint64_t page)
{
	uint32_t missed = 0;
	unsigned i;

	/* The page just used is the MRU entry of every size and every set:
	 * a hit that changes nothing. Most lookups end here. */
	if (page == t->last)
		return 0;
	t->last = page;
	if (!t->ways) {
		uint32_t d = tlbm_stack_access(&t->stack, page);

		for (i = 0; i < t->nsizes; i++)
			if (d >= t->sizes[i])
				missed |= 1u << i;
		return missed;
	}
	for (i = 0; i < t->nsizes; i++)
		if (!tlbm_sa_access(&t->sa[i], page))
			missed |= 1u << i;
	return missed;
}

int tlbm_parse_sizes(const char *s, unsigned *sizes)
{
	int n = 0;

	for (;;) {
		char *end;
		unsigned long v;

		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v < 1 || v > 4096 || n == TLBM_MAX_SIZES)
			return -1;
		sizes[n++] = (unsigned)v;
		if (*end == '\0')
			return n;
		if (*end != ':')
			return -1;
		s = end + 1;
	}
}

int tlbm_parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end != '\0' || v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}
