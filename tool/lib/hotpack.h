/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hotpack.h - what every module shares: the version, the exit codes and the
 * few limits that are part of the tool's contract.
 */
#ifndef HOTPACK_H
#define HOTPACK_H

#include "config.h"

#define HOTPACK_VERSION PACKAGE_VERSION

/* Exit codes, documented in --help and hotpack(1). */
enum hp_exit {
	HP_EXIT_OK = 0,		/* done */
	HP_EXIT_ERROR = 1,	/* bad input, I/O error, nothing usable */
	HP_EXIT_USAGE = 2,	/* bad command line */
	HP_EXIT_NOT_APPLIED = 3,/* verify: the order was not applied */
	HP_EXIT_UNSUPPORTED = 4,/* measure: no counters on this machine */
};

#define HP_DEFAULT_PAGE_SIZE 4096u

#endif
