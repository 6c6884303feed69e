# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/kernel-families.sh - sourced by bench/generalize.sh and bench/peers.sh:
# the kernel loop of examples/kernel/kernel.sh on the workload families of
# examples/kernel/workloads/, one plugin phase per family.
#
# One initramfs runs every family, `hpmark` between them, so phase K is
# family K (phase 0 is the boot, the last phase the reboot).  One boot of an
# image with the plugin then counts every family at every TLB size; the fine
# sample stream (every change of 1 KiB block of code, as `kernel.sh loop`
# takes it) is recorded per family by booting the base image once per
# family with sample_phases=K.  Everything is cached under $OUT: a rerun
# redoes only what is missing.
#
# Environment: KBUILD [as examples/kernel/kernel.sh]; HPBUILD, the hotpack build directory
# that holds tool/hotpack and tool/qemu/ [the source tree]; or HOTPACK,
# PLUGIN, HPMARK one by one; FAMILIES [bench/families.conf's: all of
# examples/kernel/workloads]; LLD [ld.lld-22] (peers.sh); KVER [6.1], the kernel
# version kernel.sh builds (6.12: its images in $KBUILD/images-6.12); ARCH
# [x86_64], the kernel's architecture as kernel.sh names it (arm64: images
# in $KBUILD/images-arm64, booted by qemu-system-aarch64, the arm64 busybox;
# powerpc: $KBUILD/images-powerpc, qemu-system-ppc, c-init.c's C families).
# HPMARK on other arches: the marker kernel.sh builds for that guest. GRAIN
# [64], the sample stream's block size (below).

: "${KBUILD:=${XDG_CACHE_HOME:-$HOME/.cache}/hotpack/kbuild}"
: "${HPBUILD:=$TOP}"
: "${HOTPACK:=$HPBUILD/tool/hotpack}"
: "${PLUGIN:=$HPBUILD/tool/qemu/libhotpack-itlb.so}"
# kf_conf NAME: NAME's setting in bench/families.conf (FAMILIES, SPLITS)
kf_conf() { sed -n "s/^$1=//p" "$TOP/bench/families.conf"; }
: "${FAMILIES:=$(kf_conf FAMILIES)}"
: "${KVER:=6.1}"
: "${ARCH:=x86_64}"
export KBUILD KVER ARCH
KERNEL_SH=$TOP/examples/kernel/kernel.sh
WORKLOADS=$TOP/examples/kernel/workloads
# where kernel.sh saves images: x86_64 6.1's in images/, others apart
# (kernel.sh paths says so); the emulator and the guest of each arch
IMAGES=$(sh "$KERNEL_SH" paths | sed -n 's,^images: *\(.*\)/NAME/.*,\1,p')
BASE=$IMAGES/base
case $ARCH in
x86_64) QEMU=qemu-system-x86_64 QEMU_PKG=qemu-system-x86 BOOTIMG=bzImage ;;
arm64) QEMU=qemu-system-aarch64 QEMU_PKG=qemu-system-arm BOOTIMG=Image ;;
powerpc) QEMU=qemu-system-ppc QEMU_PKG=qemu-system-ppc BOOTIMG=vmlinux ;;
*) echo "${0##*/}: error: ARCH=$ARCH: not one of x86_64, arm64, powerpc" >&2; exit 1 ;;
esac
# the guest's phase marker: the build's own on x86_64, else built for it
if [ -z "${HPMARK:-}" ]; then
	if [ "$ARCH" = x86_64 ]; then
		HPMARK=$HPBUILD/tool/qemu/hpmark
	else
		HPMARK=$(sh "$KERNEL_SH" hpmark) || exit 1
	fi
fi
# the counting boot: fully associative LRU I-TLB of 4 KiB pages at five
# sizes, the plugin's default I-cache (32 KiB, 64 B lines, 8 ways)
COUNT_ARGS=entries=8:16:32:64:128
# the sampling boot: every change of GRAIN-byte block of code [64, as
# kernel.sh loop; 1K: the grain of the figures before "The sample stream's
# grain" in bench/RESULTS.md].  Orders and images of a grain other than
# 1K carry it in their names (kf_key), so that both live in one $IMAGES.
: "${GRAIN:=64}"
[ "$GRAIN" != 1024 ] || GRAIN=1K
SAMPLE_ARGS=page=$GRAIN,entries=1,sample_tlb=1
if [ "$GRAIN" = 1K ]; then KF_GRAIN_TAG=; else KF_GRAIN_TAG=-g$GRAIN; fi

kf_die() { echo "${0##*/}: error: $*" >&2; exit 1; }
kf_say() { echo "${0##*/}: $*" >&2; }

# kf_need: everything the loop needs, named, or a clear failure.
kf_need() {
	command -v $QEMU > /dev/null || kf_die "$QEMU not found; apt-get install $QEMU_PKG"
	for f in "$HOTPACK" "$PLUGIN" "$HPMARK"; do
		[ -f "$f" ] || kf_die "$f missing; build hotpack (make) and set HPBUILD to its build directory"
	done
	[ -f "$BASE/$BOOTIMG" ] && [ -f "$BASE/vmlinux" ] ||
		kf_die "$BASE: no base image; run 'ARCH=$ARCH KVER=$KVER KBUILD=$KBUILD $KERNEL_SH build' first (4-6 min)"
	[ -f "$KBUILD/build-$KVER-$ARCH/vmlinux.o" ] ||
		kf_die "$KBUILD/build-$KVER-$ARCH/vmlinux.o missing (relinks need the build tree); run 'ARCH=$ARCH KVER=$KVER $KERNEL_SH build'"
	# (kernel.sh initramfs names what the other arches' guests lack)
	[ "$ARCH" != x86_64 ] || [ -x /bin/busybox ] ||
		kf_die "/bin/busybox missing; apt-get install busybox-static"
	n=0
	for f in $FAMILIES; do
		[ -f "$WORKLOADS/$f.sh" ] || kf_die "$WORKLOADS/$f.sh: no such workload family"
		n=$((n + 1))
	done
	NFAM=$n
}

# kf_setup OUT: the work directory and the families' initramfs.
kf_setup() {
	OUT=$1
	mkdir -p "$OUT/samples" "$OUT/counts" "$OUT/orders"
	OUT=$(cd "$OUT" && pwd)
	kf_need
	# one workload, the families in order, a phase marker between them
	# (/init marks before and after the whole workload); powerpc's C init
	# runs its C versions of the families named, marks between them
	if [ "$ARCH" = powerpc ]; then
		w=$FAMILIES
	else
		w=$OUT/families.sh
		: > "$w.new"
		first=1
		for f in $FAMILIES; do
			[ $first = 1 ] || echo "hpmark	# next: $f" >> "$w.new"
			first=0
			cat "$WORKLOADS/$f.sh" >> "$w.new"
		done
		mv "$w.new" "$w"
	fi
	WORKLOAD=$w EXTRA_BINS=$HPMARK sh "$KERNEL_SH" initramfs > "$OUT/initramfs.log" 2>&1 ||
		{ cat "$OUT/initramfs.log" >&2; kf_die "kernel.sh initramfs failed (WORKLOAD=$w)"; }
	kf_say "$NFAM families, one phase each: $FAMILIES"
}

# kf_boot_plugin IMAGE PLUGIN-ARGS LOG: one boot under the plugin (kernel.sh
# checks that the workload ran to its end).
kf_boot_plugin() {
	QEMU_EXTRA="-plugin $PLUGIN,$2" sh "$KERNEL_SH" boot "$1" > "$3" 2>&1 ||
		kf_die "boot of $1 failed (see $3)"
}

# kf_phase_of FAMILY: its phase number
kf_phase_of() {
	k=1
	for f in $FAMILIES; do
		[ "$f" != "$1" ] || { echo $k; return; }
		k=$((k + 1))
	done
	kf_die "$1: not one of FAMILIES"
}

# kf_sample FAMILY: $OUT/samples/FAMILY.txt, the fine stream of that phase
# on the base image.
kf_sample() {
	s=$OUT/samples/$1.txt
	if [ -f "$s.done" ]; then
		# a stream of another grain is not this one: the plugin's header says
		g=$(sed -n 's/^# itlb model: .*, page \([0-9]*\) B,.*/\1/p' "$OUT/samples/$1.counters")
		want=$GRAIN; [ "$want" = 1K ] && want=1024
		[ "$g" = 1024 ] && gname=1K || gname=$g
		[ "$g" = "$want" ] || kf_die "$s: recorded with ${g:-an unknown} B blocks, not GRAIN=$GRAIN;" \
			"use another OUTDIR or GRAIN=$gname"
		return 0
	fi
	k=$(kf_phase_of "$1")
	kf_say "sampling $1 (phase $k) on the base image"
	kf_boot_plugin base "$SAMPLE_ARGS,sample_phases=$k,out=$OUT/samples/$1.counters,samples=$s" \
		"$OUT/samples/$1.console"
	[ -s "$s" ] || kf_die "$s: no samples from phase $k"
	: > "$s.done"
}

# kf_streams FAMILY...: sample the families (if not yet) and set $files to
# their streams, in that order.
kf_streams() {
	files=
	for f in "$@"; do kf_sample "$f"; files="$files $OUT/samples/$f.txt"; done
}

# kf_count IMAGE: $OUT/counts/IMAGE.txt, the counters of every phase.
kf_count() {
	c=$OUT/counts/$1.txt
	[ -f "$c" ] && return 0
	kf_say "counting $1"
	kf_boot_plugin "$1" "$COUNT_ARGS,out=$c.new" "$OUT/counts/$1.console"
	rows=$(grep -c '^[0-9]' "$c.new")
	[ "$rows" -eq $((NFAM + 2)) ] ||
		kf_die "$c.new: $rows phases, expected $((NFAM + 2)) (boot, $NFAM families, reboot)"
	mv "$c.new" "$c"
}

# kf_splits SPLITS: SPLITS as given, or for leave-one-out each set of all
# FAMILIES but one, comma-separated, in FAMILIES' order
kf_splits() {
	if [ "$1" != leave-one-out ]; then
		echo "$1"
		return
	fi
	for out in $FAMILIES; do
		set --
		for f in $FAMILIES; do [ "$f" = "$out" ] || set -- "$@" "$f"; done
		echo "$*" | tr ' ' ,
	done | tr '\n' ' ' | sed 's/ $//'
}

# kf_algo_tag: ALGO_OPTS as a name for orders and images ("-a pages
# --search on" -> pages-search; empty -> cds, the default algorithm)
kf_algo_tag() {
	echo "${ALGO_OPTS:-cds}" | sed 's/-a //; s/--search on/search/; s/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//'
}

# kf_order NAME "HOTPACK-OPTIONS" FAMILY...: $OUT/orders/NAME.lds, hotpack's
# order from those families' streams concatenated.
kf_order() {
	name=$1 opts=$2
	shift 2
	[ -f "$OUT/orders/$name.lds" ] && return 0
	kf_streams "$@"
	kf_say "order $name: hotpack order $opts --addr-window 64 from $*"
	# shellcheck disable=SC2086
	kf_order_files "$name" "$opts" $files
}

# kf_order_files NAME "HOTPACK-OPTIONS" STREAM...: the same from stream files,
# concatenated on standard input.
kf_order_files() {
	[ -f "$OUT/orders/$1.lds" ] && return 0
	name=$1 opts=$2
	shift 2
	# kf_order_inputs dies in the pipeline's subshell: this shell follows
	cat "$@" | kf_order_inputs "$name" "$opts" - || exit 1
}

# kf_order_inputs NAME "HOTPACK-OPTIONS" INPUT...: $OUT/orders/NAME.lds,
# hotpack's order from those inputs as it takes several ("-": standard
# input), timed in NAME.time.
kf_order_inputs() {
	name=$1 opts=$2
	shift 2
	o=$OUT/orders/$name.lds
	[ -f "$o" ] && return 0
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$HOTPACK" order $opts --addr-window 64 -o "$o.new" "$BASE/vmlinux" "$@" \
		2> "$OUT/orders/$name.err" || { cat "$OUT/orders/$name.err" >&2; kf_die "hotpack order failed"; }
	end=$(date +%s.%N)
	echo "$end - $start" | bc > "$OUT/orders/$name.time"
	mv "$o.new" "$o"
}

# kf_image NAME: relink with $OUT/orders/NAME.lds as image kf-NAME, count it.
kf_image() {
	img=kf-$1
	o=$OUT/orders/$1.lds
	if ! cmp -s "$o" "$IMAGES/$img/order.lds" 2> /dev/null; then
		kf_say "relinking $img"
		sh "$KERNEL_SH" relink "$o" "$img" > "$OUT/orders/$1.relink" 2>&1 ||
			{ cat "$OUT/orders/$1.relink" >&2; kf_die "relink with $o failed"; }
		cp "$o" "$IMAGES/$img/order.lds"
		rm -f "$OUT/counts/$img.txt"
	fi
	kf_count "$img"
}

# kf_sum COUNTS FAMILY...: the families' phases summed: misses at 8, 16,
# 32, 64, 128 entries, I-cache misses, distinct pages (a sum of each phase's
# own), kernel instructions.
kf_sum() {
	c=$1
	shift
	ks=
	for f in "$@"; do ks="$ks $(kf_phase_of "$f")"; done
	awk -v ks="$ks" '
	BEGIN { n = split(ks, K, " "); for (i = 1; i <= n; i++) want[K[i]] = 1 }
	/^#/ { next }
	$1 == "phase" { for (i = 1; i <= NF; i++) col[$i] = i; next }
	($1 in want) {
		for (j = 0; j < 5; j++) m[j] += $col["miss" (8 * 2 ^ j)]
		ic += $col["icmiss"]; pg += $col["kpages"]; ins += $col["kinsns"]
	}
	END { printf "%d %d %d %d %d %d %d %d\n", m[0], m[1], m[2], m[3], m[4], ic, pg, ins }
	' "$c"
}

# kf_fmt N: 1234567 -> 1,234,567
kf_fmt() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }

# kf_row LABEL COUNTS FAMILY...: a markdown row of kf_sum's figures.
kf_row() {
	label=$1 c=$2
	shift 2
	set -- $(kf_sum "$c" "$@")
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" \
		"$(kf_fmt "$1")" "$(kf_fmt "$2")" "$(kf_fmt "$3")" "$(kf_fmt "$4")" \
		"$(kf_fmt "$5")" "$(kf_fmt "$6")" "$(kf_fmt "$7")"
}
KF_HEAD='| 8 | 16 | 32 | 64 | 128 entries | I-cache misses | distinct pages (sum over phases) |'
KF_RULE='---:|---:|---:|---:|---:|---:|---:|'

# kf_complement FAMILY...: FAMILIES without those
kf_complement() {
	r=
	for f in $FAMILIES; do
		case " $* " in *" $f "*) ;; *) r="$r $f" ;; esac
	done
	echo "${r# }"
}

# kf_key FAMILY...: a short name for a set of families, from their phase
# numbers (chardev pagecache -> f1-2; with GRAIN=64, f1-2-g64)
kf_key() {
	k=
	for f in "$@"; do k="$k-$(kf_phase_of "$f")"; done
	echo "f${k#-}$KF_GRAIN_TAG"
}
