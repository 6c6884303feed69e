/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * warn.h - the one way hotpack talks to the user on stderr.
 *
 * Messages read "hotpack: error: FILE[:LINE]: what; what to do". A module
 * prints an error once, where it is detected, and returns -errno (or NULL);
 * callers pass the value up without printing it again. Only main() exits.
 */
#ifndef HP_WARN_H
#define HP_WARN_H

#include <stdarg.h>
#include <string.h>

/* Verbosity: 0 quiet (errors only), 1 normal (warnings, notes), 2 debug. */
extern int hp_verbosity;

__attribute__((format(printf, 1, 2))) void pr_err(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void pr_warn(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void pr_info(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void pr_debug(const char *fmt, ...);

/* Count of pr_warn() calls so far; --werror turns any into a failure. */
unsigned long hp_warn_count(void);

/* What to do about errno @err (either sign): "check the path", ... */
const char *errno_hint(int err);

/* "FMT: strerror; what to do" */
#define pr_err_errno(err, fmt, ...) \
	pr_err(fmt ": %s; %s", ##__VA_ARGS__, strerror((err) < 0 ? -(err) : (err)), \
	       errno_hint(err))

#endif
