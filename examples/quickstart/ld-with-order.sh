#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ld-with-order.sh LD ORDER OUT.lds: write the linker's default script with
# "INCLUDE ORDER" at the start of the .text output section, where a kernel's
# patched TEXT_TEXT has it (see linker-scripts/). LD is the GNU ld to ask
# (ld, powerpc-linux-gnu-ld, ...); ORDER must be an absolute path.
set -e
ld=${1:?usage: ld-with-order.sh LD ORDER OUT.lds} order=${2:?} out=${3:?}
case $order in /*) ;; *) echo "ld-with-order.sh: ORDER must be absolute" >&2; exit 2 ;; esac
"$ld" --verbose | awk -v order="$order" '
/^====/ { inscript = !inscript; next }
!inscript { next }
/^[ \t]*\.text[ \t]*:/ { text = 1 }
{ print }
text && /^[ \t]*\{/ { print "    INCLUDE " order; text = 0; done = 1 }
END { if (!done) { print "ld-with-order.sh: no .text output section in the default script" > "/dev/stderr"; exit 1 } }
' >"$out"
