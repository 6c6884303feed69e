/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hprof.h - hotpack's own profile file, .hprof (docs/profiles.md): written
 * by hotpack profile and merge, read back as it is (its reader is in the
 * table of readers.h).
 */
#ifndef HP_HPROF_H
#define HP_HPROF_H

#include <stdio.h>

#include "profile/profile.h"

/** Add the .hprof @in (named @name in messages) to @prof; 0 or -EINVAL (printed). */
int hprof_read(FILE *in, const char *name, struct profile *prof);

/** Write @prof, sorted so that the same content gives the same bytes; 0 or -EIO. */
int hprof_write(FILE *out, const struct profile *prof);

#endif
