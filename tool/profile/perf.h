/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.h - what the perf script reader (perf.c, profile_reader_perf in
 * readers.h) knows of perf's header beyond the samples.
 */
#ifndef HP_PERF_H
#define HP_PERF_H

/**
 * perf_arch_name() - the arch table's name (arch/arch.h: "x86_64",
 * "aarch64", "ppc64", ...) for @uname, the uname -m name perf prints in
 * "# arch : NAME"; NULL for a name that does not say one of them.
 */
const char *perf_arch_name(const char *uname);

#endif
