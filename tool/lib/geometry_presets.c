// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * geometry_presets.c - the machines' geometries, one table line each, for
 * --geometry NAME. Each number's source (the CPU manual, or the kernel code
 * that decides the mapping) is cited in docs/geometries.md; a line changes
 * only with its citation there.
 *
 * The model has one associativity per geometry and simulates each TLB size
 * on its own: a part with an instruction shadow TLB in front of a unified
 * one (405, 440) lists both sizes, and each column is what that TLB alone
 * would miss.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/geometry.h"
#include "lib/warn.h"

#define KiB 1024u
#define MiB (1024u * 1024u)

static const struct geom_preset mpc8xx = {
	"mpc8xx", "MPC855T/860: 32-entry I-TLB, fully associative; 4 KiB I-cache 2-way 16 B",
	NULL, "all kernel text (no pinned entries)",
	{ .page_size = 4 * KiB, .tlb_entries = { 32 }, .ntlb = 1,
	  .icache = { 4 * KiB, 16, 2 }, .name = "mpc8xx" },
};

/* head_8xx.S mmu_pin_tlb: I-TLB entries 28-31 map 8 MiB pages from
 * PAGE_OFFSET up to _sinittext (at most 32 MiB); 28 entries are left. */
static const struct geom_preset mpc8xx_pinned = {
	"mpc8xx-pinned", "MPC855T/860 with the kernel text pinned (Linux >= 5.10 always; "
	"CONFIG_PIN_TLB_TEXT before): 28 free I-TLB entries",
	NULL, "modules and vmalloc'd text (the core text below 32 MiB always hits)",
	{ .page_size = 4 * KiB, .tlb_entries = { 28 }, .ntlb = 1,
	  .pins = { { 0xc0000000u, 0xc2000000u } }, .npins = 1,
	  .icache = { 4 * KiB, 16, 2 }, .name = "mpc8xx-pinned" },
};

/* 40x.c mmu_mapin_ram: lowmem in 16 MiB pages, loaded by the TLB miss
 * handler like any entry. */
static const struct geom_preset ppc40x = {
	"ppc40x", "405GP: 4-entry instruction shadow TLB before a 64-entry unified TLB; "
	"16 KiB I-cache 2-way 32 B",
	"the core kernel text (lowmem in 16 MiB pages)", "modules and vmalloc'd text",
	{ .page_size = 4 * KiB, .tlb_entries = { 4, 64 }, .ntlb = 2,
	  .icache = { 16 * KiB, 32, 2 }, .name = "ppc40x",
	  .large_page = 16 * MiB, .large_entries = 4 },
};

/* 44x.c ppc44x_pin_tlb: lowmem in bolted 256 MiB entries above
 * tlb_44x_hwater; 63 of the 64 entries are left with the first one. */
static const struct geom_preset ppc44x = {
	"ppc44x", "440 (440EP bamboo): 4-entry instruction shadow TLB before a 64-entry "
	"unified TLB, lowmem pinned; 32 KiB I-cache 64-way 32 B",
	NULL, "modules and vmalloc'd text (the first 256 MiB of lowmem is pinned)",
	{ .page_size = 4 * KiB, .tlb_entries = { 4, 63 }, .ntlb = 2,
	  .pins = { { 0xc0000000u, 0xd0000000u } }, .npins = 1,
	  .icache = { 32 * KiB, 32, 64 }, .name = "ppc44x" },
};

/* e500v2: I-L1TLB4K 64 entries 4-way, L2 TLB0 512 entries 4-way; the
 * kernel's lowmem is in TLB1 (variable-size CAM entries, e500.c). */
static const struct geom_preset e500 = {
	"e500", "e500v2 (MPC8548, P2020): L1 I-TLB 64 entries 4-way, L2 TLB0 512 entries "
	"4-way; 32 KiB I-cache 8-way 32 B",
	NULL, "modules and vmalloc'd text (lowmem is in TLB1 CAM entries)",
	{ .page_size = 4 * KiB, .tlb_entries = { 64, 512 }, .ntlb = 2, .tlb_ways = 4,
	  .icache = { 32 * KiB, 32, 8 }, .name = "e500" },
};

/* Skylake: I-TLB 4 KiB 128 entries 8-way, 2M/4M 8 entries per thread,
 * fully associative; L1 I-cache 32 KiB 8-way 64 B. The core kernel
 * text (_text.._etext) is mapped in 2 MiB pages (vmlinux.lds.S). */
static const struct geom_preset x86_64 = {
	"x86_64", "Skylake-class x86_64: I-TLB 8 entries of 2 MiB, 128 of 4 KiB 8-way; "
	"32 KiB I-cache 8-way 64 B",
	"the core kernel text", "modules and vmalloc'd text (BPF, kprobes)",
	{ .page_size = 4 * KiB, .tlb_entries = { 128 }, .ntlb = 1, .tlb_ways = 8,
	  .icache = { 32 * KiB, 64, 8 }, .name = "x86_64",
	  .large_page = 2 * MiB, .large_entries = 8 },
};

/* What an x86_64 image gets by default: x86_64's 2 MiB figures first, and
 * for the 4 KiB-mapped code hotpack's own 4 KiB model (the MPC8xx-class
 * TLBs of GEOM_DEFAULT_INIT), the one the layouts are searched on. */
static const struct geom_preset x86_64_default = {
	"x86_64-default", "x86_64's 2 MiB I-TLB entries and I-cache, and hotpack's 4 KiB "
	"model (32/64/128 entries, fully associative)",
	"the core kernel text", "modules and vmalloc'd text, and 4 KiB-page machines",
	{ .page_size = 4 * KiB, .tlb_entries = { 32, 64, 128 }, .ntlb = 3,
	  .icache = { GEOM_ICACHE_DEFAULT_SIZE, GEOM_ICACHE_DEFAULT_LINE,
		      GEOM_ICACHE_DEFAULT_WAYS },
	  .name = "x86_64-default", .large_page = 2 * MiB, .large_entries = 8 },
};

/* Cortex-A53: L1 I-TLB (micro TLB) 10 entries fully associative, main TLB
 * 512 entries 4-way (simulated fully associative: one associativity per
 * geometry); I-cache 32 KiB 2-way 64 B (8-64 KiB by configuration). The
 * kernel image's text is mapped with 2 MiB blocks where aligned
 * (mmu.c map_kernel_segment(), flags 0); rodata=full page-maps only the
 * linear map. */
static const struct geom_preset arm64 = {
	"arm64", "Cortex-A53, 4 KiB granule: L1 I-TLB 10 entries, main TLB 512; "
	"32 KiB I-cache 2-way 64 B",
	"the kernel image's text (2 MiB blocks)", "modules and vmalloc'd text",
	{ .page_size = 4 * KiB, .tlb_entries = { 10, 512 }, .ntlb = 2,
	  .icache = { 32 * KiB, 64, 2 }, .name = "arm64",
	  .large_page = 2 * MiB, .large_entries = 10 },
};

const struct geom_preset *const geom_presets[] = {
	&mpc8xx, &mpc8xx_pinned, &ppc40x, &ppc44x, &e500, &x86_64,
	&x86_64_default, &arm64, NULL,
};

const struct geom_preset *geom_preset_find(const char *name)
{
	for (size_t i = 0; name && geom_presets[i]; i++)
		if (!strcmp(geom_presets[i]->name, name))
			return geom_presets[i];
	return NULL;
}

void geom_presets_print(FILE *f)
{
	for (size_t i = 0; geom_presets[i]; i++)
		fprintf(f, "%-15s %s\n", geom_presets[i]->name, geom_presets[i]->desc);
}

bool geom_large(const struct geometry *g, struct geometry *out)
{
	if (!g->large_page || !g->large_entries)
		return false;
	*out = (struct geometry){
		.page_size = g->large_page, .tlb_entries = { g->large_entries }, .ntlb = 1,
		.tlb_model = g->tlb_model, .icache = g->icache, .name = g->name,
	};
	return true;
}

const char *geom_meaning(const struct geometry *g, char *buf, size_t len)
{
	const struct geom_preset *p = geom_preset_find(g->name);
	char ps[32], lp[32];

	if (!p) {
		snprintf(buf, len, "%s", "");
		return buf;
	}
	geom_size_str(g->page_size, ps, sizeof(ps));
	if (g->large_page && p->large_code)
		snprintf(buf, len, "%s figures: %s; %s is in %s pages", ps, p->small_code,
			 p->large_code, geom_size_str(g->large_page, lp, sizeof(lp)));
	else
		snprintf(buf, len, "%s figures: %s", ps, p->small_code);
	return buf;
}

/* The config symbol (=y) that names each machine, first match wins. */
static const struct {
	const char *sym;
	const char *preset;
} config_machines[] = {
	{ "CONFIG_PPC_8xx", "mpc8xx-pinned" },
	{ "CONFIG_40x", "ppc40x" },
	{ "CONFIG_44x", "ppc44x" },
	{ "CONFIG_PPC_E500", "e500" },
	{ "CONFIG_E500", "e500" },
	{ "CONFIG_X86_64", "x86_64-default" },
	{ "CONFIG_ARM64", "arm64" },
};

#define NCONFIG_MACHINES (sizeof(config_machines) / sizeof(config_machines[0]))

/* Returns how many lines set or unset a CONFIG_ symbol: 0, not a .config. */
static size_t preset_from_config_lines(FILE *f, const struct geom_preset **out)
{
	bool set[NCONFIG_MACHINES] = { false }, text_unpinned = false;
	char line[512];
	size_t nconfig = 0;

	*out = NULL;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "CONFIG_", 7) || !strncmp(line, "# CONFIG_", 9))
			nconfig++;
		/* kernels before the 8xx text was always pinned (5.10) */
		if (!strcmp(line, "# CONFIG_PIN_TLB_TEXT is not set"))
			text_unpinned = true;
		for (size_t i = 0; i < NCONFIG_MACHINES; i++) {
			size_t n = strlen(config_machines[i].sym);

			if (!strncmp(line, config_machines[i].sym, n) && !strcmp(line + n, "=y"))
				set[i] = true;
		}
	}
	for (size_t i = 0; i < NCONFIG_MACHINES && !*out; i++)
		if (set[i])
			*out = geom_preset_find(i == 0 && text_unpinned ? "mpc8xx"
							: config_machines[i].preset);
	return nconfig;
}

int geom_preset_from_config(const char *path, const struct geom_preset **out)
{
	FILE *f = fopen(path, "r");
	size_t n;

	*out = NULL;
	if (!f) {
		pr_err("--config %s: %s; give the kernel's .config", path, strerror(errno));
		return -EINVAL;
	}
	n = preset_from_config_lines(f, out);
	fclose(f);
	if (!n) {
		pr_err("--config %s: no CONFIG_ line: not a kernel .config; give the build's "
		       ".config", path);
		return -EINVAL;
	}
	return 0;
}

int geom_preset_from_config_text(const char *text, size_t len,
				 const struct geom_preset **out)
{
	FILE *f = len ? fmemopen((void *)text, len, "r") : NULL;
	size_t n = 0;

	*out = NULL;
	if (f) {
		n = preset_from_config_lines(f, out);
		fclose(f);
	}
	return n ? 0 : -EINVAL;
}
