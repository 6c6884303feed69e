// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_profile.c - the in-memory profile: weights, edges and traces add up,
 * traces are deduplicated, and merging is commutative and associative.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "tap.h"

static struct profile *make(const char *a, const char *b, uint64_t w)
{
	struct profile *p = profile_new();
	uint32_t ids[2];

	ids[0] = profile_func_id(p, a);
	ids[1] = profile_func_id(p, b);
	profile_add_weight(p, ids[1], w);
	profile_add_edge(p, ids[0], ids[1], w);
	profile_add_trace(p, ids, 2, w);
	profile_add_provenance(p, a);
	return p;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A canonical text form, independent of insertion order. */
static char *dump(const struct profile *p)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	struct prof_edge **e = profile_sorted_edges(p);
	char **names = calloc(p->nfuncs, sizeof(*names));

	for (i = 0; i < p->nfuncs; i++)
		names[i] = p->funcs[i]->name;
	qsort(names, p->nfuncs, sizeof(*names), cmp_name);
	for (i = 0; i < p->nfuncs; i++)
		fprintf(f, "fn %s %llu\n", names[i],
			(unsigned long long)profile_find_func(p, names[i])->weight);
	for (i = 0; i < p->nedges; i++)
		fprintf(f, "edge %s %s %llu\n", p->funcs[e[i]->caller]->name,
			p->funcs[e[i]->callee]->name, (unsigned long long)e[i]->weight);
	fprintf(f, "traces %zu total %llu\n", p->ntraces, (unsigned long long)p->total_weight);
	fclose(f);
	free(e);
	free(names);
	return buf;
}

int main(void)
{
	struct profile *x = make("ksys_read", "vfs_read", 3);
	struct profile *y = make("vfs_read", "rw_verify_area", 5);
	struct profile *z = make("ksys_read", "vfs_read", 2);
	struct profile *xy_z = profile_new(), *z_yx = profile_new(), *tmp = profile_new();
	char *d1, *d2;

	is_int(x->nfuncs, 2, "two functions");
	is_int(profile_find_func(x, "vfs_read")->weight, 3, "weight");
	profile_merge(x, z);
	is_int(x->ntraces, 1, "same trace merged");
	is_int(x->nedges, 1, "same edge merged");
	is_int(profile_find_func(x, "vfs_read")->weight, 5, "weights add");
	profile_free(x);

	x = make("ksys_read", "vfs_read", 3);
	profile_merge(tmp, x);
	profile_merge(tmp, y);
	profile_merge(xy_z, tmp);
	profile_merge(xy_z, z);		/* (x + y) + z */
	profile_free(tmp);
	tmp = profile_new();
	profile_merge(tmp, y);
	profile_merge(tmp, x);
	profile_merge(z_yx, z);
	profile_merge(z_yx, tmp);	/* z + (y + x) */
	d1 = dump(xy_z);
	d2 = dump(z_yx);
	is_str(d1, d2, "merge is associative and commutative");
	ok(strstr(d1, "fn vfs_read 5\n") && strstr(d1, "fn rw_verify_area 5\n"), "merged weights");
	is_int(xy_z->nprov, 2, "provenance kept once per line");
	free(d1);
	free(d2);
	profile_free(tmp);
	profile_free(x);
	profile_free(y);
	profile_free(z);
	profile_free(xy_z);
	profile_free(z_yx);
	return done_testing();
}
