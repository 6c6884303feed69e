/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * geometry.h - the machine a layout is costed on: the page size, the I-TLB
 * sizes simulated side by side (their entries, one associativity), address
 * ranges pinned in the TLB, and the I-cache. One type for every command and
 * model, one parser of the options that set it, one printer, so every
 * figure names the geometry it assumed in the same words.
 *
 * Pinned ranges always hit and take no entry (the MPC8xx's CONFIG_PIN_TLB:
 * the pinned entries are not counted in the sizes).
 */
#ifndef HP_GEOMETRY_H
#define HP_GEOMETRY_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#define GEOM_MAX_TLB 8			/* TLB sizes simulated side by side */
#define GEOM_MAX_PINS 8
#define GEOM_MAX_ENTRIES (1u << 20)

#define GEOM_TLB_MODEL_DEFAULT "LRU"	/* the first of model/tlb_model.h's table */

#define GEOM_ICACHE_DEFAULT_SIZE (32u * 1024)
#define GEOM_ICACHE_DEFAULT_LINE 64u
#define GEOM_ICACHE_DEFAULT_WAYS 8u

/* [start, end): fetches from here never miss. */
struct geom_pin {
	uint64_t start, end;
};

struct geom_icache {
	uint32_t size;		/* bytes; 0: no I-cache model */
	uint32_t line;		/* bytes, power of 2 */
	uint32_t ways;		/* size / (line * ways) sets, a power of 2 */
};

struct geometry {
	uint64_t page_size;			/* bytes, power of 2, 1 KiB .. 1 GiB */
	unsigned int tlb_entries[GEOM_MAX_TLB];	/* each simulated on its own */
	size_t ntlb;
	unsigned int tlb_ways;			/* 0 (or == entries): fully associative;
						 * else entries / ways sets, a power of 2,
						 * set = page number % sets */
	const char *tlb_model;			/* its replacement (model/tlb_model.h);
						 * NULL: GEOM_TLB_MODEL_DEFAULT */
	struct geom_pin pins[GEOM_MAX_PINS];
	size_t npins;
	struct geom_icache icache;
	const char *name;			/* the preset's (geom_preset_find()), that
						 * geom_str() names; NULL: none */
	/* Where the machine maps the core kernel text in larger pages than
	 * page_size (x86_64: 2 MiB): their size and the I-TLB entries that
	 * hold them, costed first; page_size's figures then apply to the
	 * code mapped in page_size pages (modules, vmalloc'd text).
	 * 0: none. */
	uint64_t large_page;
	unsigned int large_entries;
	/* Set by geom_parse_opt() for every option that sets the geometry
	 * (a --config naming no machine does not): the user's, not the
	 * machine's default (pipe_machine_geometry()). */
	bool given;
};

/* 4 KiB pages; fully associative I-TLBs of 32, 64, 128 entries; 32 KiB 8-way 64 B I-cache. */
#define GEOM_DEFAULT_INIT                                                              \
	{                                                                              \
		.page_size = 4096, .tlb_entries = { 32, 64, 128 }, .ntlb = 3,          \
		.icache = { GEOM_ICACHE_DEFAULT_SIZE, GEOM_ICACHE_DEFAULT_LINE,        \
			    GEOM_ICACHE_DEFAULT_WAYS },                                \
	}

/** *g = GEOM_DEFAULT_INIT */
void geom_default(struct geometry *g);

/*
 * The options: -p/--page-size, -e/--tlb-entries LIST, --tlb-ways N, and for
 * the commands that model more, --pin START-END, --icache SIZE,LINE,WAYS,
 * --no-icache. Their getopt_long values; commands use values below 0x200.
 */
enum geom_opt {
	GEOM_OPT_PAGE_SIZE = 'p',
	GEOM_OPT_TLB_ENTRIES = 'e',
	GEOM_OPT_TLB_WAYS = 0x300,
	GEOM_OPT_PIN,
	GEOM_OPT_ICACHE,
	GEOM_OPT_NO_ICACHE,
	GEOM_OPT_PRESET,
	GEOM_OPT_LIST_PRESETS,
	GEOM_OPT_CONFIG,
	GEOM_OPT_TLB_MODEL,
};

#define GEOM_TLB_LONGOPTS                                                              \
	{ "page-size", required_argument, NULL, GEOM_OPT_PAGE_SIZE },                  \
	{ "tlb-entries", required_argument, NULL, GEOM_OPT_TLB_ENTRIES },              \
	{ "tlb-ways", required_argument, NULL, GEOM_OPT_TLB_WAYS },                    \
	{ "tlb-model", required_argument, NULL, GEOM_OPT_TLB_MODEL },                  \
	GEOM_PRESET_LONGOPTS

/* --geometry NAME loads a preset (the options after it change it);
 * --list-geometries prints them. */
#define GEOM_PRESET_LONGOPTS                                                           \
	{ "geometry", required_argument, NULL, GEOM_OPT_PRESET },                      \
	{ "list-geometries", no_argument, NULL, GEOM_OPT_LIST_PRESETS },               \
	{ "config", required_argument, NULL, GEOM_OPT_CONFIG }

#define GEOM_PRESET_USAGE                                                              \
"      --geometry NAME      a machine's geometry (mpc8xx, ppc44x, x86_64, ...;\n"    \
"                           options after it change it; default: the image's\n" \
"                           machine)\n"                                            \
"      --list-geometries    list the geometries\n"                                  \
"      --config FILE        the kernel's .config picks the geometry: PPC_8xx,\n" \
"                           40x, 44x, PPC_E500, X86_64, ARM64\n"

#define GEOM_CACHE_LONGOPTS                                                            \
	{ "pin", required_argument, NULL, GEOM_OPT_PIN },                              \
	{ "icache", required_argument, NULL, GEOM_OPT_ICACHE },                        \
	{ "no-icache", no_argument, NULL, GEOM_OPT_NO_ICACHE }

/**
 * geom_parse_opt() - handle getopt_long's @c if it is a geometry option.
 * Returns 1 when handled, 2 for --list-geometries (printed to stdout: the
 * command is done), 0 when @c is none of them, -EINVAL (printed) for a bad
 * value. Call geom_check() once all are parsed.
 */
int geom_parse_opt(struct geometry *g, int c, const char *arg);

/**
 * geom_check_tlb() - whether a TLB of @entries can be simulated with @g's
 * page size, ways and pins; geom_check_icache() the same for an I-cache;
 * geom_check() every TLB size and the I-cache of @g. 0, or -EINVAL after
 * saying what is wrong.
 */
int geom_check_tlb(const struct geometry *g, unsigned int entries);
int geom_check_icache(const struct geom_icache *ic);
int geom_check(const struct geometry *g);

/* A machine's geometry and where its numbers come from (geometry_presets.c;
 * docs/geometries.md cites each source in full). */
struct geom_preset {
	const char *name;
	const char *desc;		/* the part and what it has, one line */
	const char *large_code;		/* what large_page maps, or NULL */
	const char *small_code;		/* what page_size maps */
	struct geometry geom;		/* .name == name */
};

/* The presets, NULL-terminated. */
extern const struct geom_preset *const geom_presets[];

/** geom_preset_find() - the preset called @name, or NULL. */
const struct geom_preset *geom_preset_find(const char *name);

/**
 * geom_preset_from_config() - the preset a kernel .config at @path says
 * (CONFIG_PPC_8xx: mpc8xx-pinned, or mpc8xx when CONFIG_PIN_TLB_TEXT is
 * "not set"; CONFIG_40x, CONFIG_44x, CONFIG_PPC_E500/E500, CONFIG_X86_64,
 * CONFIG_ARM64), NULL when it names none of them. -EINVAL (printed) when
 * it cannot be read or has no CONFIG_ line (not a .config).
 */
int geom_preset_from_config(const char *path, const struct geom_preset **out);

/**
 * The same from a config's text in memory (the one a vmlinux embeds);
 * -EINVAL, printing nothing, when no line sets or unsets a CONFIG_ symbol.
 */
int geom_preset_from_config_text(const char *text, size_t len,
				 const struct geom_preset **out);

/** geom_presets_print() - one line per preset: name, description. */
void geom_presets_print(FILE *f);

/**
 * geom_meaning() - what @g's figures apply to on its machine, one clause:
 * "4 KiB figures: modules and vmalloc'd text (BPF, kprobes); the core
 * kernel text is in 2 MiB pages". "" for a geometry of no preset.
 */
const char *geom_meaning(const struct geometry *g, char *buf, size_t len);

/** geom_large() - @g's large-page geometry into *out (the I-cache kept); false if none. */
bool geom_large(const struct geometry *g, struct geometry *out);

/** "4 KiB pages; I-TLB fully associative LRU 32/64/128 entries; I-cache 32 KiB 8-way 64 B lines". */
const char *geom_str(const struct geometry *g, char *buf, size_t len);

/**
 * geom_parse_size() - "4K", "16k", "64KiB", "2M", "8MiB", "16M", "4096": a
 * power-of-2 size in bytes into *out. Returns 0 or -EINVAL (no message).
 */
int geom_parse_size(const char *s, uint64_t *out);
/** "4 KiB", "2 MiB", "4097 B": for figures. */
const char *geom_size_str(uint64_t bytes, char *buf, size_t len);

#endif
