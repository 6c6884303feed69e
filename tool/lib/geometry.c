// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * geometry.c - see geometry.h: the default, the option parser, the checks
 * the simulators rely on, and the printer.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cli.h"
#include "lib/geometry.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "lib/warn.h"
#include "lib/xalloc.h"

void geom_default(struct geometry *g)
{
	*g = (struct geometry)GEOM_DEFAULT_INIT;
}

/* "32,64,128" */
static int parse_entries(struct geometry *g, const char *arg)
{
	const char *s = arg;

	g->ntlb = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		char *item = xstrndup(s, len);
		uint64_t v;
		int err = parse_u64(item, 0, &v);

		free(item);
		if (err || !v || v > GEOM_MAX_ENTRIES || g->ntlb == GEOM_MAX_TLB) {
			pr_err("--tlb-entries %s: give up to %d sizes, e.g. 32,64,128", arg,
			       GEOM_MAX_TLB);
			return -EINVAL;
		}
		g->tlb_entries[g->ntlb++] = (unsigned int)v;
		s += len;
		if (*s)
			s++;
	}
	if (!g->ntlb) {
		pr_err("--tlb-entries: give at least one size, e.g. 32");
		return -EINVAL;
	}
	return 0;
}

static int parse_pin(struct geometry *g, const char *arg)
{
	const char *dash = strchr(arg, '-');
	char *start = dash ? xstrndup(arg, (size_t)(dash - arg)) : NULL;
	uint64_t a, b;
	bool good = start && !parse_u64(start, PARSE_C_BASE, &a) &&
		    !parse_u64(dash + 1, PARSE_C_BASE, &b) && b > a && g->npins < GEOM_MAX_PINS;

	free(start);
	if (good) {
		g->pins[g->npins++] = (struct geom_pin){ a, b };
		return 0;
	}
	pr_err("--pin %s: give START-END addresses (0xc0000000-0xc0800000), END above START, "
	       "at most %d ranges", arg, GEOM_MAX_PINS);
	return -EINVAL;
}

static int parse_icache(struct geom_icache *ic, const char *arg)
{
	char buf[64], *l, *w;
	uint64_t size, line, ways;

	snprintf(buf, sizeof(buf), "%s", arg);
	l = strchr(buf, ',');
	w = l ? strchr(l + 1, ',') : NULL;
	if (!l || !w)
		goto bad;
	*l++ = '\0';
	*w++ = '\0';
	if (geom_parse_size(buf, &size) || geom_parse_size(l, &line) ||
	    parse_u64(w, 0, &ways) || !ways || ways > UINT32_MAX || size > (1u << 30) ||
	    line > size)
		goto bad;
	*ic = (struct geom_icache){ (uint32_t)size, (uint32_t)line, (uint32_t)ways };
	return 0;
bad:
	pr_err("--icache %s: give SIZE,LINE,WAYS with power-of-2 sizes, e.g. 32K,64,8", arg);
	return -EINVAL;
}

/* The names, for the error: "mpc8xx, mpc8xx-pinned, ...". */
static int parse_preset(struct geometry *g, const char *arg)
{
	const struct geom_preset *p = geom_preset_find(arg);
	char names[256];
	size_t o = 0;

	if (p) {
		*g = p->geom;
		return 0;
	}
	names[0] = '\0';
	for (size_t i = 0; geom_presets[i] && o < sizeof(names); i++)
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", i ? ", " : "",
				      geom_presets[i]->name);
	pr_err("--geometry %s: unknown; give one of %s (see --list-geometries)", arg, names);
	return -EINVAL;
}

int geom_parse_opt(struct geometry *g, int c, const char *arg)
{
	int err;

	switch (c) {
	case GEOM_OPT_PRESET: err = parse_preset(g, arg); break;
	case GEOM_OPT_LIST_PRESETS: geom_presets_print(stdout); return 2;
	case GEOM_OPT_CONFIG: {
		const struct geom_preset *p;

		err = geom_preset_from_config(arg, &p);
		if (!err && p) {
			*g = p->geom;
		} else if (!err) {
			/* leaves the geometry (and who gave it) as it was */
			pr_info("--config %s: none of CONFIG_PPC_8xx, 40x, 44x, PPC_E500, X86_64, "
				"ARM64 is set; the image's machine decides the geometry", arg);
			return 1;
		}
		break;
	}
	case GEOM_OPT_PAGE_SIZE: err = cli_parse_pow2("--page-size", arg, &g->page_size); break;
	case GEOM_OPT_TLB_ENTRIES: err = parse_entries(g, arg); break;
	case GEOM_OPT_TLB_WAYS:
		err = cli_parse_uint("--tlb-ways", arg, 0, 0, GEOM_MAX_ENTRIES, &g->tlb_ways);
		break;
	/* a name of model/tlb_model.h's table; the model stage refuses others
	 * with the list (this layer cannot see the table) */
	case GEOM_OPT_TLB_MODEL: g->tlb_model = arg; err = 0; break;
	case GEOM_OPT_PIN: err = parse_pin(g, arg); break;
	case GEOM_OPT_ICACHE: err = parse_icache(&g->icache, arg); break;
	case GEOM_OPT_NO_ICACHE: g->icache.size = 0; err = 0; break;
	default: return 0;
	}
	if (err)
		return -EINVAL;
	g->given = true;
	return 1;
}

int geom_check_tlb(const struct geometry *g, unsigned int entries)
{
	unsigned int ways = g->tlb_ways ? g->tlb_ways : entries;

	if (!entries || entries > GEOM_MAX_ENTRIES) {
		pr_err("I-TLB of %u entries; give 1 to %u entries", entries, GEOM_MAX_ENTRIES);
		return -EINVAL;
	}
	if (!is_pow2(g->page_size) || g->page_size < 1024 || g->page_size > (1ull << 30)) {
		pr_err("page size %" PRIu64 "; give a power of 2 from 1 KiB to 1 GiB "
		       "(4K, 16K, 64K, 2M, 8M, 16M)", g->page_size);
		return -EINVAL;
	}
	if (ways > entries || entries % ways || !is_pow2(entries / ways)) {
		pr_err("I-TLB of %u entries cannot have %u ways; the sets (entries / ways) "
		       "must be a whole power of 2", entries, ways);
		return -EINVAL;
	}
	for (size_t i = 0; i < g->npins; i++) {
		if (g->pins[i].end <= g->pins[i].start) {
			pr_err("pinned range %#" PRIx64 "-%#" PRIx64 " is empty; give START-END "
			       "with END above START", g->pins[i].start, g->pins[i].end);
			return -EINVAL;
		}
	}
	return 0;
}

int geom_check_icache(const struct geom_icache *ic)
{
	if (!is_pow2(ic->line) || ic->line < 4 || !ic->ways || !ic->size || ic->size % ic->line ||
	    (ic->size / ic->line) % ic->ways || !is_pow2(ic->size / ic->line / ic->ways)) {
		pr_err("I-cache of %u bytes, %u-byte lines, %u ways: lines must be a power of 2 "
		       "and size / (line * ways) a whole power of 2 (e.g. 32K, 64, 8)",
		       ic->size, ic->line, ic->ways);
		return -EINVAL;
	}
	return 0;
}

int geom_check(const struct geometry *g)
{
	for (size_t k = 0; k < g->ntlb; k++)
		if (geom_check_tlb(g, g->tlb_entries[k]))
			return -EINVAL;
	if (g->icache.size && geom_check_icache(&g->icache))
		return -EINVAL;
	return 0;
}

const char *geom_size_str(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned int u = 0;

	while (u < 3 && bytes >= 1024 && !(bytes % 1024)) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", bytes, unit[u]);
	return buf;
}

const char *geom_str(const struct geometry *g, char *buf, size_t len)
{
	char ps[32], ent[96] = "", ic[64] = "", pins[40] = "", ways[24], large[96] = "";
	size_t o = 0;

	geom_size_str(g->page_size, ps, sizeof(ps));
	for (size_t k = 0; k < g->ntlb && o < sizeof(ent); k++)
		o += (size_t)snprintf(ent + o, sizeof(ent) - o, "%s%u", k ? "/" : "",
				      g->tlb_entries[k]);
	if (g->tlb_ways)
		snprintf(ways, sizeof(ways), "%u-way", g->tlb_ways);
	else
		snprintf(ways, sizeof(ways), "fully associative");
	if (g->npins)
		snprintf(pins, sizeof(pins), ", %zu pinned range%s", g->npins,
			 g->npins == 1 ? "" : "s");
	if (g->icache.size) {
		char sz[32];

		snprintf(ic, sizeof(ic), "; I-cache %s %u-way %u B lines",
			 geom_size_str(g->icache.size, sz, sizeof(sz)), g->icache.ways,
			 g->icache.line);
	}
	if (g->large_page) {
		char lp[32];

		snprintf(large, sizeof(large), "; core text in %s pages, %u I-TLB entries",
			 geom_size_str(g->large_page, lp, sizeof(lp)), g->large_entries);
	}
	snprintf(buf, len, "%s%s%s pages; I-TLB %s %s %s entries%s%s%s", g->name ? g->name : "",
		 g->name ? ": " : "", ps, ways,
		 g->tlb_model ? g->tlb_model : GEOM_TLB_MODEL_DEFAULT, g->ntlb ? ent : "no", pins,
		 ic, large);
	return buf;
}

int geom_parse_size(const char *s, uint64_t *out)
{
	uint64_t v;

	if (parse_u64(s, PARSE_SUFFIX, &v) || !is_pow2(v))
		return -EINVAL;
	*out = v;
	return 0;
}
