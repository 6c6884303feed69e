/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xalloc.h - allocation that dies on exhaustion (as tmux and elfutils do), so
 * that callers carry no unreachable error branches. The only place a module
 * may end the process.
 */
#ifndef HP_XALLOC_H
#define HP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
/* Room for @nmemb elements of @size bytes; a product past SIZE_MAX is out of memory. */
void *xmallocarray(size_t nmemb, size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
__attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...);

/* Grow *arr (of *cap elements of size elem) so that index need-1 fits. */
void xgrow(void **arr, size_t *cap, size_t need, size_t elem);
#define XGROW(arr, cap, need) xgrow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

#endif
