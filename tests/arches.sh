# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arches.sh - the architectures the tests compile fixtures for, one
# line each: name (as hotpack calls it), Debian's cross toolchain triplet,
# byte order. Sourced by tests/lib.sh and tests/fixtures/build.sh; a new
# architecture's fixtures start with a line here.
test_arch_table='x86_64 x86_64-linux-gnu le
ppc32 powerpc-linux-gnu be
aarch64 aarch64-linux-gnu le
ppc64 powerpc64-linux-gnu be'

# shellcheck disable=SC2034 # used by the tests that source this
test_arches=$(echo "$test_arch_table" | awk '{ print $1 }' | tr '\n' ' ')

arch_field() {	# arch_field ARCH N: field N of ARCH's line; fails if none
	echo "$test_arch_table" | awk -v a="$1" -v n="$2" '$1 == a { print $n; f = 1 }
		END { exit !f }'
}
arch_triplet() { arch_field "$1" 2; }
arch_endian() { arch_field "$1" 3; }
