// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tlbsim.c - the I-TLB simulator: what every replacement model shares
 * (pinned ranges checked first, which never enter the sets; the page
 * referenced last, a hit without asking the model; the counters; ranges
 * of pages), and the table of models (tlb_model.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"
#include "model/tlb_model.h"
#include "model/tlbsim.h"

const struct tlb_model *const tlb_models[] = {
	&tlb_lru,
	NULL,
};

const struct tlb_model *tlb_model_find(const char *name)
{
	if (!name)
		return tlb_models[0];
	for (size_t i = 0; tlb_models[i]; i++)
		if (!strcmp(tlb_models[i]->name, name))
			return tlb_models[i];
	return NULL;
}

#define PAGE_NONE UINT64_MAX

struct tlbsim {
	const struct tlb_model *model;
	void *tlb;
	struct geom_pin pins[GEOM_MAX_PINS];
	size_t npins;
	unsigned int shift;
	uint64_t last_page;	/* the most recent page: a hit without the model */
	struct tlb_stats st;
};

int tlbsim_check_model(const struct geometry *g)
{
	char names[128] = "";
	size_t o = 0;

	if (tlb_model_find(g->tlb_model))
		return 0;
	for (size_t i = 0; tlb_models[i] && o < sizeof(names); i++)
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", i ? ", " : "",
				      tlb_models[i]->name);
	pr_err("I-TLB model '%s' is not known; give one of %s", g->tlb_model, names);
	return -EINVAL;
}

int tlbsim_new(struct tlbsim **out, const struct geometry *g, unsigned int entries)
{
	const struct tlb_model *model = tlb_model_find(g->tlb_model);
	unsigned int ways = g->tlb_ways ? g->tlb_ways : entries;
	struct tlbsim *t;

	if (!model)
		return tlbsim_check_model(g);
	if (geom_check_tlb(g, entries))
		return -EINVAL;
	t = xcalloc(1, sizeof(*t));
	t->model = model;
	t->tlb = model->create(entries, entries / ways);
	memcpy(t->pins, g->pins, g->npins * sizeof(*t->pins));
	t->npins = g->npins;
	t->shift = ilog2_u64(g->page_size);
	tlbsim_reset(t);
	*out = t;
	return 0;
}

void tlbsim_free(struct tlbsim *t)
{
	if (!t)
		return;
	t->model->destroy(t->tlb);
	free(t);
}

void tlbsim_reset(struct tlbsim *t)
{
	t->model->reset(t->tlb);
	t->last_page = PAGE_NONE;
	memset(&t->st, 0, sizeof(t->st));
}

static bool pinned(const struct tlbsim *t, uint64_t addr)
{
	for (size_t i = 0; i < t->npins; i++)
		if (addr >= t->pins[i].start && addr < t->pins[i].end)
			return true;
	return false;
}

bool tlbsim_access(struct tlbsim *t, uint64_t addr)
{
	uint64_t page = addr >> t->shift;

	t->st.refs++;
	if (page == t->last_page)
		return false;
	if (t->npins && pinned(t, addr)) {
		t->st.pinned++;
		return false;
	}
	t->last_page = page;
	if (!t->model->access(t->tlb, page))
		return false;
	t->st.misses++;
	return true;
}

unsigned int tlbsim_access_range(struct tlbsim *t, uint64_t addr, uint64_t size)
{
	uint64_t first = addr >> t->shift;
	uint64_t last = (addr + NONZERO(size) - 1) >> t->shift;
	unsigned int misses = 0;

	for (uint64_t p = first; p <= last; p++)
		misses += tlbsim_access(t, p == first ? addr : p << t->shift);
	return misses;
}

const struct tlb_stats *tlbsim_stats(const struct tlbsim *t)
{
	return &t->st;
}
