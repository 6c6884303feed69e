// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * itlb.c - hotpack's QEMU TCG plugin: emulated instruction-TLB and I-cache
 * counters, and I-TLB miss samples, for machines without a usable PMU.
 *
 * At translation time each TB whose first instruction lies in the chosen
 * address range (the kernel's by default; the guest binary's text under
 * qemu-user) gets a record of the pages and cache lines it covers; each
 * execution then looks every page up once in several TLB sizes at once and
 * every line once in the I-cache model (see tlbmodel.h for why that equals a
 * per-fetch model). TBs outside the range are not instrumented at all unless
 * user=on, which keeps the cost near that of a plugin-less run.
 *
 * Phases: executing the first instruction at the marker address (mark=,
 * default 0x5a5a0000, where the tiny hpmark program is linked) starts a new
 * counting phase, so a guest separates boot from workload steps without any
 * kernel change. At exit the plugin writes one counters row per phase, and
 * every Nth in-range miss of one TLB size goes to a samples file as a hex
 * address, one per line, which hotpack reads as an address list.
 *
 * Counts are exact for one vCPU; with several, each vCPU has its own TLB and
 * cache and the figures are summed. A TB cut short by an exception is
 * counted whole (its pages were still fetched up to the faulting point;
 * later ones were not).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin-api.h"
#include "tlbmodel.h"

HP_PLUGIN_EXPORT int qemu_plugin_version = HP_QEMU_PLUGIN_API;

#define PLUGIN "hotpack-itlb"
#define MAX_VCPUS 1024
#define MAX_PINS 16
#define PHASE_BITS 64		/* distinct-page sets kept per phase */

enum { IN_RANGE, OUTSIDE, NCLASS };

/* One code page of one class, shared by every TB that covers it. */
struct pageinfo {
	uint64_t page;		/* page number (address >> page shift) */
	uint64_t phases;	/* bit p: executed in phase p (>= 63 share bit 63) */
	uint8_t cls;
	uint8_t pinned;
};

/* What one translated TB covers; never freed before exit. */
struct tbinfo {
	uint64_t vaddr;
	uint64_t line0;		/* first I-cache line number */
	uint32_t ninsns;
	uint16_t nlines;
	uint16_t npages;
	uint8_t cls;
	/* with samples: the first instruction that starts in each page after
	 * the first (0: none starts there), what a sample of that page names */
	uint64_t *first;
	struct pageinfo *pages[];
};

struct counts {
	uint64_t insns, tbs, refs, pinned, icrefs, icmiss;
	uint64_t miss[TLBM_MAX_SIZES];
};

struct phase {
	struct counts c[NCLASS];
};

/* Per-vCPU models and counters: touched only by that vCPU's thread. */
struct vcpu {
	struct tlbm_tlb tlb;
	struct tlbm_sa icache;
	uint64_t ic_last;
	struct phase *ph;
	unsigned nph;
	uint64_t sampled_misses;
};

static struct {
	const char *target;
	int system;
	uint64_t kbase, kend;	/* [kbase, kend); kend 0 = top of memory */
	int range_set, range_ready;
	int user;
	unsigned sizes[TLBM_MAX_SIZES], nsizes, ways;
	unsigned page_shift;
	struct { uint64_t lo, hi; } pin[MAX_PINS];
	unsigned npins;
	uint64_t sample_every;
	unsigned sample_idx;
	unsigned sample_lo, sample_hi;	/* phases sampled, inclusive */
	char *out, *samples_path;
	FILE *samples;
	uint64_t mark;
	int mark_on;
	int ic_on;
	uint64_t ic_size, ic_line;
	unsigned ic_ways, line_shift;
} cfg;

static unsigned cur_phase;		/* marks seen so far */
static struct vcpu *vcpus[MAX_VCPUS];
static int vcpu_overflow;
static uint64_t ntbinfo;

static pthread_mutex_t trans_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t sample_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t vcpu_lock = PTHREAD_MUTEX_INITIALIZER;

/* Open-addressing set of pageinfo pointers keyed by (page, class). */
static struct pageinfo **page_tab;
static size_t page_cap, page_count;

static void die_oom(void)
{
	fprintf(stderr, PLUGIN ": out of memory\n");
	abort();
}

static void *zalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p)
		die_oom();
	return p;
}

static size_t page_hash(uint64_t page, unsigned cls)
{
	uint64_t h = (page * 2 + cls) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17);
}

static int page_pinned(uint64_t page)
{
	uint64_t lo = page << cfg.page_shift, hi = lo + ((uint64_t)1 << cfg.page_shift) - 1;
	unsigned i;

	for (i = 0; i < cfg.npins; i++)
		if (lo <= cfg.pin[i].hi && hi >= cfg.pin[i].lo)
			return 1;
	return 0;
}

static void page_tab_grow(void)
{
	size_t ncap = page_cap ? page_cap * 2 : 4096, i;
	struct pageinfo **nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		die_oom();
	for (i = 0; i < page_cap; i++) {
		struct pageinfo *pi = page_tab[i];
		size_t j;

		if (!pi)
			continue;
		for (j = page_hash(pi->page, pi->cls) & (ncap - 1); nt[j]; j = (j + 1) & (ncap - 1))
			;
		nt[j] = pi;
	}
	free(page_tab);
	page_tab = nt;
	page_cap = ncap;
}

/* Called with trans_lock held. */
static struct pageinfo *page_get(uint64_t page, unsigned cls)
{
	struct pageinfo *pi;
	size_t j;

	if ((page_count + 1) * 2 > page_cap)
		page_tab_grow();
	for (j = page_hash(page, cls) & (page_cap - 1); page_tab[j]; j = (j + 1) & (page_cap - 1))
		if (page_tab[j]->page == page && page_tab[j]->cls == cls)
			return page_tab[j];
	pi = zalloc(sizeof(*pi));
	pi->page = page;
	pi->cls = (uint8_t)cls;
	pi->pinned = (uint8_t)page_pinned(page);
	page_tab[j] = pi;
	page_count++;
	return pi;
}

static struct vcpu *vcpu_new(unsigned idx)
{
	struct vcpu *v = zalloc(sizeof(*v));
	const char *why = "";

	if (tlbm_tlb_init(&v->tlb, cfg.sizes, cfg.nsizes, cfg.ways, &why))
		die_oom();
	if (cfg.ic_on &&
	    tlbm_sa_init(&v->icache, (unsigned)(cfg.ic_size / cfg.ic_line / cfg.ic_ways), cfg.ic_ways))
		die_oom();
	v->ic_last = TLBM_EMPTY;
	pthread_mutex_lock(&vcpu_lock);
	if (vcpus[idx]) {	/* only in the overflow slot */
		pthread_mutex_unlock(&vcpu_lock);
		tlbm_tlb_free(&v->tlb);
		tlbm_sa_free(&v->icache);
		free(v);
		return vcpus[idx];
	}
	vcpus[idx] = v;
	pthread_mutex_unlock(&vcpu_lock);
	return v;
}

static inline struct vcpu *vcpu_get(unsigned idx)
{
	if (idx >= MAX_VCPUS) {
		if (!__atomic_exchange_n(&vcpu_overflow, 1, __ATOMIC_RELAXED))
			fprintf(stderr, PLUGIN ": more than %d vCPUs; the extra ones share "
				"one model and their counts are approximate\n", MAX_VCPUS);
		idx = MAX_VCPUS - 1;
	}
	return vcpus[idx] ? vcpus[idx] : vcpu_new(idx);
}

static void vcpu_grow(struct vcpu *v, unsigned ph)
{
	unsigned n = ph + 8;
	struct phase *p = realloc(v->ph, n * sizeof(*p));

	if (!p)
		die_oom();
	memset(p + v->nph, 0, (n - v->nph) * sizeof(*p));
	v->ph = p;
	v->nph = n;
}

static void sample(struct vcpu *v, uint64_t addr)
{
	if (++v->sampled_misses % cfg.sample_every)
		return;
	pthread_mutex_lock(&sample_lock);
	if (cfg.samples)
		fprintf(cfg.samples, "%" PRIx64 "\n", addr);
	pthread_mutex_unlock(&sample_lock);
}

static void tb_exec(unsigned int vcpu_index, void *udata)
{
	const struct tbinfo *tb = udata;
	struct vcpu *v = vcpu_get(vcpu_index);
	unsigned ph = __atomic_load_n(&cur_phase, __ATOMIC_RELAXED), i;
	uint64_t bit = (uint64_t)1 << (ph < PHASE_BITS ? ph : PHASE_BITS - 1);
	struct counts *c;

	if (ph >= v->nph)
		vcpu_grow(v, ph);
	c = &v->ph[ph].c[tb->cls];
	c->insns += tb->ninsns;
	c->tbs++;
	for (i = 0; i < tb->npages; i++) {
		struct pageinfo *pi = tb->pages[i];
		uint32_t missed;

		if (!(__atomic_load_n(&pi->phases, __ATOMIC_RELAXED) & bit))
			__atomic_fetch_or(&pi->phases, bit, __ATOMIC_RELAXED);
		c->refs++;
		if (pi->pinned) {
			c->pinned++;
			continue;
		}
		missed = tlbm_tlb_access(&v->tlb, pi->page);
		if (!missed)
			continue;
		/* The first instruction fetched from the page that missed: the
		 * TB's start on its first page, the first one that starts there
		 * on the next ones (none: the page holds only the tail of one
		 * that started before it, and the miss names no instruction). */
		if (cfg.samples && tb->cls == IN_RANGE && (missed >> cfg.sample_idx & 1) &&
		    ph >= cfg.sample_lo && ph <= cfg.sample_hi && (!i || tb->first[i]))
			sample(v, i ? tb->first[i] : tb->vaddr);
		while (missed) {
			c->miss[__builtin_ctz(missed)]++;
			missed &= missed - 1;
		}
	}
	if (cfg.ic_on) {
		uint64_t line = tb->line0, end = tb->line0 + tb->nlines;

		c->icrefs += tb->nlines;
		for (; line < end; line++) {
			if (line == v->ic_last)
				continue;
			v->ic_last = line;
			if (!tlbm_sa_access(&v->icache, line))
				c->icmiss++;
		}
	}
}

static void mark_exec(unsigned int vcpu_index, void *udata)
{
	__atomic_add_fetch(&cur_phase, 1, __ATOMIC_RELAXED);
}

static int in_range(uint64_t va)
{
	return va >= cfg.kbase && (cfg.kend == 0 || va < cfg.kend);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t va = qemu_plugin_tb_vaddr(tb), end, p0, p1, p;
	struct qemu_plugin_insn *last;
	struct tbinfo *ti;
	unsigned cls;
	size_t i;

	if (!cfg.range_ready) {
		/* qemu-user: the guest binary's text, known once it runs. */
		pthread_mutex_lock(&trans_lock);
		if (!cfg.range_ready) {
			cfg.kbase = qemu_plugin_start_code();
			cfg.kend = qemu_plugin_end_code();
			cfg.range_ready = 1;
		}
		pthread_mutex_unlock(&trans_lock);
	}
	if (n == 0)
		return;
	if (cfg.mark_on && va == cfg.mark) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
		return;
	}
	cls = in_range(va) ? IN_RANGE : OUTSIDE;
	if (cls == OUTSIDE && !cfg.user)
		return;
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	end = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last);
	if (end <= va)		/* wraps at the top of memory */
		end = UINT64_MAX;
	p0 = va >> cfg.page_shift;
	p1 = (end - 1) >> cfg.page_shift;

	ti = zalloc(sizeof(*ti) + (size_t)(p1 - p0 + 1) * sizeof(ti->pages[0]));
	ti->vaddr = va;
	ti->ninsns = (uint32_t)n;
	ti->cls = (uint8_t)cls;
	ti->npages = (uint16_t)(p1 - p0 + 1);
	if (cfg.samples_path && ti->npages > 1) {
		ti->first = zalloc(ti->npages * sizeof(ti->first[0]));
		for (i = 0; i < n; i++) {
			uint64_t iv = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));
			uint64_t k = (iv >> cfg.page_shift) - p0;

			if (k && k < ti->npages && !ti->first[k])
				ti->first[k] = iv;
		}
	}
	ti->line0 = va >> cfg.line_shift;
	ti->nlines = (uint16_t)(((end - 1) >> cfg.line_shift) - ti->line0 + 1);
	pthread_mutex_lock(&trans_lock);
	for (p = p0; p <= p1; p++)
		ti->pages[p - p0] = page_get(p, cls);
	ntbinfo++;
	pthread_mutex_unlock(&trans_lock);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, ti);
}

/* ---- output ---------------------------------------------------------- */

static double per_k(uint64_t num, uint64_t insns)
{
	return insns ? 1000.0 * (double)num / (double)insns : 0.0;
}

static void add_counts(struct counts *to, const struct counts *from)
{
	unsigned i;

	to->insns += from->insns;
	to->tbs += from->tbs;
	to->refs += from->refs;
	to->pinned += from->pinned;
	to->icrefs += from->icrefs;
	to->icmiss += from->icmiss;
	for (i = 0; i < TLBM_MAX_SIZES; i++)
		to->miss[i] += from->miss[i];
}

#define COLW 14	/* every numeric column, so the table lines up */

static void col_name(FILE *f, const char *a, const char *b, unsigned n)
{
	char name[32];

	if (n)
		snprintf(name, sizeof(name), "%s%s%u", a, b, n);
	else
		snprintf(name, sizeof(name), "%s%s", a, b);
	fprintf(f, " %*s", COLW, name);
}

static void print_class_header(FILE *f, const char *k, const char *pfx)
{
	unsigned i;

	col_name(f, k, "insns", 0);
	col_name(f, k, "tb_execs", 0);
	col_name(f, k, "refs", 0);
	col_name(f, k, "pages", 0);
	if (cfg.npins)
		col_name(f, k, "pinned", 0);
	for (i = 0; i < cfg.nsizes; i++) {
		col_name(f, pfx, "miss", cfg.sizes[i]);
		col_name(f, pfx, "mpki", cfg.sizes[i]);
	}
	if (cfg.ic_on) {
		col_name(f, pfx, "icmiss", 0);
		col_name(f, pfx, "icmpki", 0);
	}
}

static void print_class_row(FILE *f, const struct counts *c, uint64_t pages)
{
	unsigned i;

	fprintf(f, " %*" PRIu64 " %*" PRIu64 " %*" PRIu64 " %*" PRIu64,
		COLW, c->insns, COLW, c->tbs, COLW, c->refs, COLW, pages);
	if (cfg.npins)
		fprintf(f, " %*" PRIu64, COLW, c->pinned);
	for (i = 0; i < cfg.nsizes; i++)
		fprintf(f, " %*" PRIu64 " %*.3f", COLW, c->miss[i], COLW,
			per_k(c->miss[i], c->insns));
	if (cfg.ic_on)
		fprintf(f, " %*" PRIu64 " %*.3f", COLW, c->icmiss, COLW,
			per_k(c->icmiss, c->insns));
}

static void print_row(FILE *f, const char *label, const struct phase *p, const uint64_t *pages)
{
	fprintf(f, "%-6s", label);
	print_class_row(f, &p->c[IN_RANGE], pages[IN_RANGE]);
	if (cfg.user)
		print_class_row(f, &p->c[OUTSIDE], pages[OUTSIDE]);
	fputc('\n', f);
}

static void describe_models(FILE *f)
{
	unsigned i;

	fprintf(f, "# itlb model: ");
	if (cfg.ways)
		fprintf(f, "%u-way set-associative LRU (entries/%u sets)", cfg.ways, cfg.ways);
	else
		fprintf(f, "fully associative LRU");
	fprintf(f, ", page %" PRIu64 " B, entries", (uint64_t)1 << cfg.page_shift);
	for (i = 0; i < cfg.nsizes; i++)
		fprintf(f, " %u", cfg.sizes[i]);
	fprintf(f, "; pinned:");
	if (!cfg.npins)
		fprintf(f, " none");
	for (i = 0; i < cfg.npins; i++)
		fprintf(f, " %#" PRIx64 "-%#" PRIx64, cfg.pin[i].lo, cfg.pin[i].hi + 1);
	if (!cfg.samples_path) {
		fprintf(f, "; samples: none\n");
		goto icache;
	}
	fprintf(f, "; samples: every %" PRIu64 " miss of the %u-entry TLB", cfg.sample_every,
		cfg.sizes[cfg.sample_idx]);
	if (cfg.sample_hi == UINT_MAX)
		fprintf(f, " in phases %u and later\n", cfg.sample_lo);
	else
		fprintf(f, " in phases %u to %u\n", cfg.sample_lo, cfg.sample_hi);
icache:
	if (cfg.ic_on)
		fprintf(f, "# icache model: %" PRIu64 " B, %" PRIu64 " B lines, %u-way LRU "
			"(%" PRIu64 " sets), virtually indexed\n", cfg.ic_size, cfg.ic_line,
			cfg.ic_ways, cfg.ic_size / cfg.ic_line / cfg.ic_ways);
	else
		fprintf(f, "# icache model: off\n");
}

static int write_counters(FILE *f)
{
	unsigned nph = __atomic_load_n(&cur_phase, __ATOMIC_RELAXED) + 1, p, i;
	struct phase *ph = zalloc(nph * sizeof(*ph)), work, total;
	uint64_t (*pages)[NCLASS] = zalloc(nph * sizeof(*pages));
	uint64_t wpages[NCLASS] = { 0 }, tpages[NCLASS] = { 0 }, workmask = 0;
	unsigned nv = 0;
	size_t j;
	char label[16];

	memset(&work, 0, sizeof(work));
	memset(&total, 0, sizeof(total));
	for (i = 0; i < MAX_VCPUS; i++) {
		struct vcpu *v = vcpus[i];

		if (!v)
			continue;
		nv++;
		for (p = 0; p < v->nph && p < nph; p++)
			for (j = 0; j < NCLASS; j++)
				add_counts(&ph[p].c[j], &v->ph[p].c[j]);
	}
	/* work = phases 1 .. L-1, where L is the phase after the last mark */
	for (p = 1; p + 1 < nph; p++)
		workmask |= (uint64_t)1 << (p < PHASE_BITS ? p : PHASE_BITS - 1);
	for (j = 0; j < page_cap; j++) {
		struct pageinfo *pi = page_tab[j];

		if (!pi || !pi->phases)
			continue;
		for (p = 0; p < nph && p < PHASE_BITS; p++)
			if (pi->phases >> p & 1)
				pages[p][pi->cls]++;
		if (pi->phases & workmask)
			wpages[pi->cls]++;
		tpages[pi->cls]++;
	}
	for (p = 0; p < nph; p++)
		for (j = 0; j < NCLASS; j++) {
			add_counts(&total.c[j], &ph[p].c[j]);
			if (p >= 1 && p + 1 < nph)
				add_counts(&work.c[j], &ph[p].c[j]);
		}

	fprintf(f, "# hotpack-itlb %s target=%s mode=%s kbase=%#" PRIx64 " kend=%#" PRIx64
		" user=%s mark=", PACKAGE_VERSION, cfg.target, cfg.system ? "system" : "user",
		cfg.kbase, cfg.kend, cfg.user ? "on" : "off");
	if (cfg.mark_on)
		fprintf(f, "%#" PRIx64, cfg.mark);
	else
		fprintf(f, "off");
	fprintf(f, " vcpus=%u tbinfo=%" PRIu64 "\n", nv, ntbinfo);
	describe_models(f);
	fprintf(f, "# rows: phase 0 = before the first mark, 1..L-1 = between marks, L = after "
		"the last mark; work = phases 1..L-1; total = all\n");
	fprintf(f, "# columns: kinsns = instructions executed in [kbase, kend); ktb_execs = TB "
		"executions; krefs = page lookups (one per page per TB execution); kpages = "
		"distinct code pages; missN = I-TLB misses with N entries; mpkiN = missN per "
		"1000 kinsns; icmiss = I-cache misses; icmpki = per 1000 kinsns");
	if (cfg.npins)
		fprintf(f, "; kpinned = lookups in pinned ranges (never miss)");
	if (cfg.user)
		fprintf(f, "; u* = the same for code outside [kbase, kend), which shares the "
			"TLB and cache");
	fprintf(f, "\n");
	if (nph > PHASE_BITS)
		fprintf(f, "# note: phases %d and later share one distinct-page set\n",
			PHASE_BITS - 1);
	fprintf(f, "%-6s", "phase");
	print_class_header(f, "k", "");
	if (cfg.user)
		print_class_header(f, "u", "u");
	fputc('\n', f);
	for (p = 0; p < nph; p++) {
		snprintf(label, sizeof(label), "%u", p);
		print_row(f, label, &ph[p], pages[p]);
	}
	if (nph >= 3)
		print_row(f, "work", &work, wpages);
	print_row(f, "total", &total, tpages);
	free(ph);
	free(pages);
	return ferror(f) ? -EIO : 0;
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	if (cfg.out) {
		size_t len = strlen(cfg.out) + 8;
		char *tmp = zalloc(len);
		FILE *f;

		snprintf(tmp, len, "%s.tmp", cfg.out);
		f = fopen(tmp, "w");
		if (!f || write_counters(f) || fclose(f) || rename(tmp, cfg.out)) {
			fprintf(stderr, PLUGIN ": %s: cannot write the counters: %s\n",
				cfg.out, strerror(errno));
			remove(tmp);
		}
		free(tmp);
	} else {
		write_counters(stderr);
	}
	/* Other guest threads may still run: close the samples under the lock
	 * and keep the models (the process ends right after this). */
	pthread_mutex_lock(&sample_lock);
	if (cfg.samples && fclose(cfg.samples))
		fprintf(stderr, PLUGIN ": %s: cannot write the samples: %s\n",
			cfg.samples_path, strerror(errno));
	cfg.samples = NULL;
	pthread_mutex_unlock(&sample_lock);
}

/* ---- arguments --------------------------------------------------------- */

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int ilog2_exact(uint64_t v, unsigned *shift)
{
	unsigned s = 0;

	if (!v || (v & (v - 1)))
		return -1;
	while ((uint64_t)1 << s != v)
		s++;
	*shift = s;
	return 0;
}

static int bad(const char *arg, const char *what)
{
	fprintf(stderr, PLUGIN ": bad argument '%s': %s\n", arg, what);
	return -1;
}

static int parse_icache(const char *arg, const char *v)
{
	char buf[64], *a, *b;
	uint64_t ways;

	if (!strcmp(v, "off")) {
		cfg.ic_on = 0;
		return 0;
	}
	if (strlen(v) >= sizeof(buf))
		return bad(arg, "want icache=SIZE:LINE:WAYS, e.g. 32K:64:8, or icache=off");
	strcpy(buf, v);
	a = strchr(buf, ':');
	b = a ? strchr(a + 1, ':') : NULL;
	if (!a || !b)
		return bad(arg, "want icache=SIZE:LINE:WAYS, e.g. 32K:64:8, or icache=off");
	*a++ = '\0';
	*b++ = '\0';
	if (tlbm_parse_bytes(buf, &cfg.ic_size) || tlbm_parse_bytes(a, &cfg.ic_line) ||
	    parse_u64(b, &ways) || ways == 0 || ways > 64 ||
	    ilog2_exact(cfg.ic_line, &cfg.line_shift) || cfg.ic_line < 4 ||
	    cfg.ic_size % (cfg.ic_line * ways) ||
	    ilog2_exact(cfg.ic_size / cfg.ic_line / ways, &(unsigned){ 0 }))
		return bad(arg, "size, line and ways must give a power-of-two number of sets");
	cfg.ic_ways = (unsigned)ways;
	cfg.ic_on = 1;
	return 0;
}

/* "3", "1-5", "1-" (from 1 on); phases are counted from 0. */
static int parse_phases(const char *arg, const char *v)
{
	char *end;
	unsigned long lo, hi;

	errno = 0;
	lo = strtoul(v, &end, 10);
	if (end == v || errno || lo > UINT_MAX - 1)
		return bad(arg, "want a phase N, a range N-M, or N- (from N on)");
	hi = lo;
	if (*end == '-') {
		v = end + 1;
		if (!*v) {
			hi = UINT_MAX;
			end = (char *)v;
		} else {
			hi = strtoul(v, &end, 10);
			if (end == v || errno || hi < lo || hi > UINT_MAX - 1)
				return bad(arg, "want a phase N, a range N-M, or N- (from N on)");
		}
	}
	if (*end)
		return bad(arg, "want a phase N, a range N-M, or N- (from N on)");
	cfg.sample_lo = (unsigned)lo;
	cfg.sample_hi = (unsigned)hi;
	return 0;
}

static int parse_pin(const char *arg, const char *v)
{
	char buf[64], *dash;
	uint64_t lo, hi;

	if (strlen(v) >= sizeof(buf) || cfg.npins == MAX_PINS)
		return bad(arg, "want pin=START-END (hex), at most 16 of them");
	strcpy(buf, v);
	dash = strchr(buf, '-');
	if (!dash)
		return bad(arg, "want pin=START-END (hex)");
	*dash = '\0';
	if (parse_u64(buf, &lo) || parse_u64(dash + 1, &hi) || hi <= lo)
		return bad(arg, "want pin=START-END with START < END");
	cfg.pin[cfg.npins].lo = lo;
	cfg.pin[cfg.npins].hi = hi - 1;
	cfg.npins++;
	return 0;
}

/* ---- the kernel's text range from its vmlinux -------------------------- */

/* A field of @size bytes at @p in the file's byte order. */
static uint64_t elf_get(const unsigned char *p, unsigned size, int big)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < size; i++)
		v = big ? v << 8 | p[i] : v | (uint64_t)p[i] << (8 * i);
	return v;
}

/*
 * vmlinux=PATH: [_stext, the later of _etext and _einittext) from the ELF
 * symbol table, ELF32 or ELF64 of either byte order. The plugin reads ELF
 * itself (no libelf) so that it stays one self-contained object.
 */
static int range_from_vmlinux(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long len;
	int is64, big, ok = -1;
	uint64_t shoff, stext = 0, etext = 0, einit = 0;
	unsigned shentsize, shnum, i;

	if (!f) {
		fprintf(stderr, PLUGIN ": %s: %s; give the kernel's vmlinux (with symbols)\n",
			path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 64 || fseek(f, 0, SEEK_SET))
		goto bad;
	buf = malloc((size_t)len);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len)
		goto bad;
	if (memcmp(buf, "\177ELF", 4) || (buf[4] != 1 && buf[4] != 2) || (buf[5] != 1 && buf[5] != 2))
		goto bad;
	is64 = buf[4] == 2;
	big = buf[5] == 2;
	shoff = elf_get(buf + (is64 ? 0x28 : 0x20), is64 ? 8 : 4, big);
	shentsize = (unsigned)elf_get(buf + (is64 ? 0x3a : 0x2e), 2, big);
	shnum = (unsigned)elf_get(buf + (is64 ? 0x3c : 0x30), 2, big);
	if (shentsize < (is64 ? 64u : 40u) || shoff + (uint64_t)shnum * shentsize > (uint64_t)len)
		goto bad;
	for (i = 0; i < shnum; i++) {
		const unsigned char *sh = buf + shoff + (uint64_t)i * shentsize, *str;
		uint64_t off, size, entsize, stroff, strsize, j;
		unsigned link;

		if (elf_get(sh + 4, 4, big) != 2)	/* SHT_SYMTAB */
			continue;
		off = elf_get(sh + (is64 ? 0x18 : 0x10), is64 ? 8 : 4, big);
		size = elf_get(sh + (is64 ? 0x20 : 0x14), is64 ? 8 : 4, big);
		link = (unsigned)elf_get(sh + (is64 ? 0x28 : 0x18), 4, big);
		entsize = elf_get(sh + (is64 ? 0x38 : 0x24), is64 ? 8 : 4, big);
		if (link >= shnum || entsize < (is64 ? 24u : 16u) || off + size > (uint64_t)len)
			goto bad;
		str = buf + shoff + (uint64_t)link * shentsize;
		stroff = elf_get(str + (is64 ? 0x18 : 0x10), is64 ? 8 : 4, big);
		strsize = elf_get(str + (is64 ? 0x20 : 0x14), is64 ? 8 : 4, big);
		if (stroff + strsize > (uint64_t)len)
			goto bad;
		for (j = 0; j + entsize <= size; j += entsize) {
			const unsigned char *sym = buf + off + j;
			uint64_t name = elf_get(sym, 4, big), value;
			const char *n;

			if (name >= strsize)
				continue;
			n = (const char *)buf + stroff + name;
			if (memchr(n, '\0', strsize - name) == NULL)
				continue;
			value = is64 ? elf_get(sym + 8, 8, big) : elf_get(sym + 4, 4, big);
			if (!strcmp(n, "_stext"))
				stext = value;
			else if (!strcmp(n, "_etext"))
				etext = value;
			else if (!strcmp(n, "_einittext"))
				einit = value;
		}
	}
	if (!stext || etext <= stext) {
		fprintf(stderr, PLUGIN ": %s: no _stext and _etext symbols; give the kernel's "
			"vmlinux (with symbols), or kbase= and kend=\n", path);
		goto out;
	}
	cfg.kbase = stext;
	cfg.kend = einit > etext ? einit : etext;
	cfg.range_set = 1;
	ok = 0;
	goto out;
bad:
	fprintf(stderr, PLUGIN ": %s: not a readable ELF file; give the kernel's vmlinux\n", path);
out:
	free(buf);
	fclose(f);
	return ok;
}

/* Where the kernel's text lives when kbase= is not given (system mode). */
static int default_kbase(const char *target, uint64_t *base)
{
	static const struct { const char *target; uint64_t base; } tab[] = {
		{ "x86_64", 0xffffffff80000000ull },
		{ "i386", 0xc0000000ull },
		{ "aarch64", 0xffff800000000000ull },
		{ "arm", 0xc0000000ull },
		{ "ppc", 0xc0000000ull },
		{ "ppc64", 0xc000000000000000ull },
		{ "riscv64", 0xffffffff80000000ull },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(tab[i].target, target)) {
			*base = tab[i].base;
			return 0;
		}
	return -1;
}

static int parse_args(int argc, char **argv)
{
	uint64_t page = 4096, sample_tlb = 0;
	int i, n;

	cfg.mark = 0x5a5a0000;
	cfg.mark_on = 1;
	cfg.sample_every = 1;
	cfg.sample_lo = 0;
	cfg.sample_hi = UINT_MAX;
	cfg.nsizes = 5;
	memcpy(cfg.sizes, (unsigned[]){ 8, 16, 32, 64, 128 }, 5 * sizeof(unsigned));
	if (parse_icache("icache=32K:64:8", "32K:64:8"))
		return -1;
	for (i = 0; i < argc; i++) {
		char *arg = argv[i], *v = strchr(arg, '=');
		size_t klen;
		bool b;

		if (!v)
			return bad(arg, "want key=value");
		klen = (size_t)(v - arg);
		v++;
#define KEY(k) (klen == sizeof(k) - 1 && !strncmp(arg, k, klen))
		if (KEY("kbase")) {
			if (parse_u64(v, &cfg.kbase))
				return bad(arg, "want an address");
			cfg.range_set = 1;
		} else if (KEY("vmlinux")) {
			if (range_from_vmlinux(v))
				return -1;
		} else if (KEY("kend")) {
			if (parse_u64(v, &cfg.kend))
				return bad(arg, "want an address (exclusive; 0 = top of memory)");
		} else if (KEY("user")) {
			if (!qemu_plugin_bool_parse(arg, v, &b))
				return bad(arg, "want on or off");
			cfg.user = b;
		} else if (KEY("entries")) {
			n = tlbm_parse_sizes(v, cfg.sizes);
			if (n < 0)
				return bad(arg, "want sizes like 8:16:32:64:128 (at most 16, each 1..4096)");
			cfg.nsizes = (unsigned)n;
		} else if (KEY("ways")) {
			uint64_t w;

			if (parse_u64(v, &w) || w > 4096)
				return bad(arg, "want a number of ways (0 = fully associative)");
			cfg.ways = (unsigned)w;
		} else if (KEY("page")) {
			if (tlbm_parse_bytes(v, &page) || ilog2_exact(page, &cfg.page_shift) ||
			    page < 64 || page > ((uint64_t)1 << 30))
				return bad(arg, "want a power of two from 64 to 1G, e.g. 4K or 2M");
		} else if (KEY("pin")) {
			if (parse_pin(arg, v))
				return -1;
		} else if (KEY("sample_every")) {
			if (parse_u64(v, &cfg.sample_every) || !cfg.sample_every)
				return bad(arg, "want a number >= 1");
		} else if (KEY("sample_tlb")) {
			if (parse_u64(v, &sample_tlb) || !sample_tlb)
				return bad(arg, "want one of the entries= sizes");
		} else if (KEY("sample_phases")) {
			if (parse_phases(arg, v))
				return -1;
		} else if (KEY("out")) {
			free(cfg.out);
			cfg.out = strdup(v);
		} else if (KEY("samples")) {
			free(cfg.samples_path);
			cfg.samples_path = strdup(v);
		} else if (KEY("mark")) {
			if (!strcmp(v, "off")) {
				cfg.mark_on = 0;
			} else if (parse_u64(v, &cfg.mark)) {
				return bad(arg, "want an address or off");
			}
		} else if (KEY("icache")) {
			if (parse_icache(arg, v))
				return -1;
		} else {
			return bad(arg, "unknown key; see hotpack-itlb(7)");
		}
#undef KEY
	}
	if (ilog2_exact(page, &cfg.page_shift))
		return bad("page", "not a power of two");
	/* The sampled size: sample_tlb=, else 32 when simulated, else the first. */
	cfg.sample_idx = 0;
	for (i = 0; i < (int)cfg.nsizes; i++)
		if (cfg.sizes[i] == (sample_tlb ? sample_tlb : 32))
			cfg.sample_idx = (unsigned)i;
	if (sample_tlb && cfg.sizes[cfg.sample_idx] != sample_tlb)
		return bad("sample_tlb", "not one of the entries= sizes");
	if (cfg.ways) {
		for (i = 0; i < (int)cfg.nsizes; i++)
			if (cfg.sizes[i] % cfg.ways ||
			    ilog2_exact(cfg.sizes[i] / cfg.ways, &(unsigned){ 0 }))
				return bad("ways", "each entries= size must be ways times a power of two");
	}
	return 0;
}

HP_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					 int argc, char **argv)
{
	if (info->version.cur < HP_QEMU_PLUGIN_API) {
		fprintf(stderr, PLUGIN ": this QEMU offers plugin API %d; need %d\n",
			info->version.cur, HP_QEMU_PLUGIN_API);
		return -1;
	}
	cfg.target = info->target_name;
	cfg.system = info->system_emulation;
	if (parse_args(argc, argv))
		return -1;
	if (!cfg.range_set) {
		if (cfg.system && default_kbase(cfg.target, &cfg.kbase)) {
			fprintf(stderr, PLUGIN ": no default kernel base for target %s; give "
				"kbase=ADDR (and kend=ADDR)\n", cfg.target);
			return -1;
		}
		/* qemu-user: the binary's text, read at the first translation */
		cfg.range_ready = cfg.system || cfg.kend;
	} else {
		cfg.range_ready = 1;
	}
	if (cfg.kend && cfg.kend <= cfg.kbase) {
		fprintf(stderr, PLUGIN ": kend=%#" PRIx64 " is not above kbase=%#" PRIx64 "\n",
			cfg.kend, cfg.kbase);
		return -1;
	}
	if (cfg.samples_path) {
		cfg.samples = fopen(cfg.samples_path, "w");
		if (!cfg.samples) {
			fprintf(stderr, PLUGIN ": %s: cannot create the samples file: %s\n",
				cfg.samples_path, strerror(errno));
			return -1;
		}
		setvbuf(cfg.samples, NULL, _IOFBF, 1 << 16);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
