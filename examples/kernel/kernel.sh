#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# examples/kernel/kernel.sh - the kernel half of hotpack's loop on one
# machine: build a small Linux (Debian's linux-source-6.1 or -6.12, x86_64)
# with -ffunction-sections and hotpack's linker-script patch, relink it with
# an order file, and boot it under qemu-system-x86_64 (TCG, no KVM needed)
# with a busybox initramfs that runs a workload.  Everything is built outside
# the hotpack tree, in $KBUILD (default ${XDG_CACHE_HOME:-$HOME/.cache}/hotpack/kbuild,
# a directory of the user's own; every command says where).  Run with no
# argument for the usage.  Not part of `make check`: a full build takes ~3
# minutes.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)

: "${KVER:=6.1}"
: "${KBUILD:=${XDG_CACHE_HOME:-$HOME/.cache}/hotpack/kbuild}"
: "${JOBS:=2}"
: "${ARCH:=x86_64}"
: "${QEMU_MEM:=256}"

usage() {
	cat <<EOF
usage: $0 [COMMAND [ARGS]]

Commands (each runs the ones it needs first, if their output is missing):
  prepare         unpack /usr/src/linux-source-\$KVER.tar.xz into \$KBUILD,
                  apply linker-scripts/linux-\$KVER-hotpack.patch, write the
                  config (tinyconfig + the options below) into \$BUILD
  build           full build with KCFLAGS=-ffunction-sections (no order);
                  saves the image as \$KBUILD/images/base (6.1; other
                  versions: \$KBUILD/images-\$KVER/base)
  relink ORDER [NAME]
                  relink vmlinux with make HOTPACK_ORDER=ORDER (absolute path;
                  "none" relinks without an order) and save the image as
                  \$KBUILD/images/NAME (default: ORDER's base name without
                  extension); prints the link time
  initramfs       (re)build \$KBUILD/initramfs.cpio.gz: busybox-static, the
                  workload \$WORKLOAD, and every file of \$EXTRA_BINS in /bin
  boot [NAME|BZIMAGE]
                  boot \$KBUILD/images/NAME/bzImage (default: base) in
                  qemu-system-x86_64 -accel tcg; the console goes to stdout and
                  to \$KBUILD/boot-NAME.log; exits 0 when the workload ran and
                  the guest rebooted.  Extra QEMU arguments: \$QEMU_EXTRA
                  (e.g. "-plugin /path/itlbsim.so,arg=...").
  loop [ALGO [OPT...]]
                  the whole loop, measured by hotpack's QEMU plugin: boot
                  the base image with the plugin (hpmark phases, the I-TLB
                  counters), boot it again to record every change of 1 KiB
                  block of code in the workload, order from that with
                  hotpack (--algo ALGO and the options OPT if given, e.g.
                  "pages --search on"), relink as images/loop, boot that
                  with the plugin, run hotpack verify; counters and samples
                  go to \$KBUILD/loop/ (6.1; else loop-\$KVER/)
  paths           print the paths the other commands use

Environment (defaults in brackets):
  KVER [6.1]  JOBS [2]  QEMU_MEM [256]
  KBUILD [\${XDG_CACHE_HOME:-\$HOME/.cache}/hotpack/kbuild], now $KBUILD
  BUILD [\$KBUILD/build-\$KVER-x86_64]     out-of-tree kernel build directory
  WORKLOAD [examples/kernel/workload.sh]  run by the guest's /init
  EXTRA_BINS []                           space-separated host files -> /bin
  QEMU_ICOUNT [shift=3,align=off,sleep=off]  "" turns -icount off
  QEMU_EXTRA []
  HOTPACK [tool/hotpack of this tree, else hotpack on PATH]  (loop)
  PLUGIN [tool/qemu/libhotpack-itlb.so, else hotpack measure --plugin-path]
  HPMARK [tool/qemu/hpmark, else hpmark beside the plugin]

Each saved image directory holds vmlinux, vmlinux.map (CONFIG_VMLINUX_MAP),
System.map, bzImage, config and link.log (the link's stderr, for warnings).
EOF
}

SRC=$KBUILD/linux-source-$KVER
: "${BUILD:=$KBUILD/build-$KVER-x86_64}"
# 6.1 images in $KBUILD/images (other tools use that path), others apart
if [ "$KVER" = 6.1 ]; then IMAGES=$KBUILD/images; else IMAGES=$KBUILD/images-$KVER; fi
INITRAMFS=$KBUILD/initramfs.cpio.gz
: "${WORKLOAD:=$HERE/workload.sh}"
: "${EXTRA_BINS:=}"
: "${QEMU_EXTRA:=}"
QEMU_ICOUNT=${QEMU_ICOUNT-shift=3,align=off,sleep=off}
PATCH=$TOP/linker-scripts/linux-$KVER-hotpack.patch
KMAKE="make -C $SRC O=$BUILD ARCH=$ARCH -j$JOBS KCFLAGS=-ffunction-sections"
# The same bytes for the same inputs: no build date, user, host or count in
# the image (they change each link, and under -icount any change shifts the
# boot's counts).
export KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-2026-01-01 00:00:00 UTC}"
export KBUILD_BUILD_VERSION="${KBUILD_BUILD_VERSION:-1}"
export KBUILD_BUILD_USER="${KBUILD_BUILD_USER:-hotpack}"
export KBUILD_BUILD_HOST="${KBUILD_BUILD_HOST:-hotpack}"

die() { echo "kernel.sh: error: $*" >&2; exit 1; }
say() { echo "kernel.sh: $*" >&2; }

# Options on top of tinyconfig: enough to boot a busybox initramfs on a
# serial console, run dd and procfs/sysfs walks, and trace functions
# (the shared reference data was built with the same set).
CONFIG_ON="64BIT CC_OPTIMIZE_FOR_PERFORMANCE SLUB PRINTK EARLY_PRINTK TTY
SERIAL_8250 SERIAL_8250_CONSOLE BLK_DEV_INITRD RD_GZIP BINFMT_ELF
BINFMT_SCRIPT PROC_FS PROC_SYSCTL SYSFS DEVTMPFS MULTIUSER FUTEX POSIX_TIMERS
DEBUG_KERNEL KALLSYMS KALLSYMS_ALL FTRACE FUNCTION_TRACER
FUNCTION_GRAPH_TRACER DYNAMIC_FTRACE EXPERT VMLINUX_MAP KERNEL_GZIP"
# Choices: turning one member on needs the tinyconfig member turned off.
CONFIG_OFF="RELOCATABLE RANDOMIZE_BASE CPU_MITIGATIONS CC_OPTIMIZE_FOR_SIZE SLOB KERNEL_XZ"

cmd_prepare() {
	[ -f "$PATCH" ] || die "$PATCH: no patch for linux $KVER"
	if [ ! -d "$SRC" ]; then
		tarball=/usr/src/linux-source-$KVER.tar.xz
		[ -f "$tarball" ] || die "$tarball missing; apt-get install linux-source-$KVER"
		mkdir -p "$KBUILD"
		say "unpacking $tarball"
		tar -C "$KBUILD" -xf "$tarball"
	fi
	if [ ! -f "$SRC/.hotpack-patched" ]; then
		say "applying $PATCH"
		patch -d "$SRC" -p1 --forward < "$PATCH"
		cp "$PATCH" "$SRC/.hotpack-patched"
	elif ! cmp -s "$PATCH" "$SRC/.hotpack-patched"; then
		die "$SRC carries an older hotpack patch; remove the tree and rerun"
	fi
	if [ ! -f "$BUILD/.config" ]; then
		mkdir -p "$BUILD"
		$KMAKE tinyconfig >/dev/null
		args=
		for o in $CONFIG_ON; do args="$args -e $o"; done
		for o in $CONFIG_OFF; do args="$args -d $o"; done
		# shellcheck disable=SC2086
		"$SRC/scripts/config" --file "$BUILD/.config" $args
		$KMAKE olddefconfig >/dev/null
		# An option whose dependencies are missing silently drops out.
		for o in $CONFIG_ON; do
			grep -q "^CONFIG_$o=y" "$BUILD/.config" ||
				die "CONFIG_$o did not take effect in $BUILD/.config"
		done
		for o in $CONFIG_OFF; do
			! grep -q "^CONFIG_$o=y" "$BUILD/.config" ||
				die "CONFIG_$o is still set in $BUILD/.config"
		done
		say "config written to $BUILD/.config"
	fi
}

# save_image NAME: copy the build's products into $IMAGES/NAME.
save_image() {
	d=$IMAGES/$1
	mkdir -p "$d"
	for f in vmlinux vmlinux.map System.map arch/x86/boot/bzImage .config; do
		[ -f "$BUILD/$f" ] || die "$BUILD/$f missing after the build"
	done
	cp "$BUILD/vmlinux" "$BUILD/vmlinux.map" "$BUILD/System.map" \
		"$BUILD/arch/x86/boot/bzImage" "$d/"
	cp "$BUILD/.config" "$d/config"
	say "image saved in $d"
}

cmd_build() {
	cmd_prepare
	start=$(date +%s)
	# Leaves no order behind: a stale HOTPACK_ORDER is not remembered by
	# Kbuild (the variable is read on each make run only).
	$KMAKE vmlinux bzImage 2> "$BUILD/build.log.err" || {
		tail -30 "$BUILD/build.log.err" >&2; die "kernel build failed"; }
	end=$(date +%s)
	say "full build took $((end - start)) s"
	grep -i "warning" "$BUILD/build.log.err" >&2 || true
	save_image base
	cp "$BUILD/build.log.err" "$IMAGES/base/link.log"
}

cmd_relink() {
	[ $# -ge 1 ] || die "relink needs an ORDER file (or none)"
	order=$1
	if [ "$order" = none ]; then
		name=${2:-stock}
		ovar=
	else
		case $order in /*) ;; *) order=$(pwd)/$order ;; esac
		[ -f "$order" ] || die "$order: no such order file"
		name=${2:-$(basename "$order" | sed 's/\.[^.]*$//')}
		ovar=HOTPACK_ORDER=$order
	fi
	[ -f "$BUILD/vmlinux.o" ] || cmd_build
	# Time only the link: make vmlinux.o and vmlinux.lds up to date first.
	$KMAKE $ovar vmlinux.o arch/x86/kernel/vmlinux.lds >/dev/null 2>&1 ||
		die "make $ovar vmlinux.o failed"
	rm -f "$BUILD/vmlinux"
	start=$(date +%s.%N)
	$KMAKE $ovar vmlinux > "$BUILD/link.out" 2> "$BUILD/link.log" || {
		cat "$BUILD/link.log" >&2; die "relink failed"; }
	end=$(date +%s.%N)
	t=$(echo "$end - $start" | bc)
	$KMAKE $ovar bzImage >/dev/null 2>>"$BUILD/link.log" ||
		die "bzImage failed"
	if grep -i "warning" "$BUILD/link.log" >&2; then
		say "the link printed warnings (above)"
	fi
	save_image "$name"
	cp "$BUILD/link.log" "$IMAGES/$name/link.log"
	echo "relink $name: vmlinux link took $t s"
}

cmd_initramfs() {
	bb=/bin/busybox
	[ -x "$bb" ] && file -L "$bb" 2>/dev/null | grep -q "statically linked" ||
		die "$bb is not busybox-static; apt-get install busybox-static"
	[ -f "$WORKLOAD" ] || die "$WORKLOAD: no workload script"
	root=$KBUILD/initramfs.root
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp"
	cp "$bb" "$root/bin/busybox"
	for a in $("$bb" --list); do
		[ "$a" = busybox ] || ln -s busybox "$root/bin/$a"
	done
	for f in $EXTRA_BINS; do
		[ -f "$f" ] || die "$f: no such file (EXTRA_BINS)"
		rm -f "$root/bin/$(basename "$f")"
		cp "$f" "$root/bin/"
	done
	# A phase marker command that does nothing when the QEMU plugin's
	# marker program is not given (see examples/kernel/README.md).
	[ -e "$root/bin/hpmark" ] || printf '#!/bin/sh\n:\n' > "$root/bin/hpmark"
	chmod +x "$root/bin/hpmark"
	cp "$WORKLOAD" "$root/workload.sh"
	cat > "$root/init" <<'EOF'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
echo "hotpack: workload start"
hpmark
. /workload.sh
hpmark
echo "hotpack: workload done"
reboot -f
EOF
	chmod +x "$root/init"
	# Byte-identical archives for identical inputs (fixed times, inode
	# numbers): a different archive shifts the boot under -icount.
	(cd "$root" && find . -exec touch -h -d @0 {} + &&
		find . | LC_ALL=C sort > "$KBUILD/initramfs.list")
	(cd "$root" && cpio -o -H newc --quiet --reproducible < "$KBUILD/initramfs.list") \
		> "$KBUILD/initramfs.cpio"
	# The kernel opens /dev/console before /init mounts devtmpfs.  Make the
	# node without root rights: append a second cpio archive holding only
	# it, written by the kernel's own gen_init_cpio.
	if [ -x "$BUILD/usr/gen_init_cpio" ]; then
		printf 'dir /dev 755 0 0\nnod /dev/console 600 0 0 c 5 1\n' > "$KBUILD/console.list"
		"$BUILD/usr/gen_init_cpio" -t 0 "$KBUILD/console.list" >> "$KBUILD/initramfs.cpio"
	else
		die "$BUILD/usr/gen_init_cpio missing; run '$0 build' first"
	fi
	gzip -9n < "$KBUILD/initramfs.cpio" > "$INITRAMFS"
	rm -f "$KBUILD/initramfs.cpio"
	say "initramfs written to $INITRAMFS"
}

cmd_boot() {
	what=${1:-base}
	case $what in
	*/*|*bzImage) kernel=$what; name=$(basename "$(dirname "$what")") ;;
	*) kernel=$IMAGES/$what/bzImage; name=$what ;;
	esac
	[ -f "$kernel" ] || die "$kernel missing; run '$0 build' or 'relink' first"
	[ -f "$INITRAMFS" ] || cmd_initramfs
	log=$KBUILD/boot-$name.log
	icount=
	[ -z "$QEMU_ICOUNT" ] || icount="-icount $QEMU_ICOUNT"
	say "booting $kernel (log: $log)"
	# shellcheck disable=SC2086
	timeout 600 qemu-system-x86_64 -accel tcg -m "$QEMU_MEM" -nographic \
		-no-reboot -kernel "$kernel" -initrd "$INITRAMFS" \
		-append "console=ttyS0 panic=-1 quiet loglevel=3" \
		-rtc base=2026-01-01T00:00:00,clock=vm $icount $QEMU_EXTRA \
		< /dev/null 2>&1 | tee "$log"
	grep -q "hotpack: workload done" "$log" ||
		die "the guest did not finish the workload (see $log)"
}

cmd_loop() {
	# a build tree's tools; installed (this script in $(datadir)/hotpack),
	# the hotpack on PATH and the plugin and marker it was installed with
	if [ -z "${HOTPACK:-}" ] && [ ! -x "$TOP/tool/hotpack" ] &&
	   HOTPACK=$(command -v hotpack) && P=$("$HOTPACK" measure --plugin-path); then
		: "${PLUGIN:=$P}" "${HPMARK:=$(dirname "$P")/hpmark}"
	fi
	: "${HOTPACK:=$TOP/tool/hotpack}" "${PLUGIN:=$TOP/tool/qemu/libhotpack-itlb.so}"
	: "${HPMARK:=$TOP/tool/qemu/hpmark}"
	for f in "$HOTPACK" "$PLUGIN" "$HPMARK"; do
		[ -f "$f" ] || die "$f missing; run make in the hotpack tree"
	done
	L=$KBUILD/loop
	[ "$KVER" = 6.1 ] || L=$KBUILD/loop-$KVER
	mkdir -p "$L"
	[ -f "$IMAGES/base/bzImage" ] || cmd_build
	EXTRA_BINS="$HPMARK $EXTRA_BINS" cmd_initramfs
	args=entries=1:8:16:32:64:128,sample_phases=1-
	QEMU_EXTRA="-plugin $PLUGIN,$args,out=$L/base-counters.txt $QEMU_EXTRA" \
		cmd_boot base > /dev/null
	# the samples: misses of a 1-entry TLB of 1 KiB pages, every change of
	# 1 KiB block of code, the finest stream the plugin gives, which orders
	# best (bench/RESULTS.md, "the sampling TLB"); windows of 64 of them say
	# what runs together
	smp=page=1K,entries=1,sample_tlb=1,sample_phases=1-
	QEMU_EXTRA="-plugin $PLUGIN,$smp,out=$L/base-stream.txt,samples=$L/base-misses.txt $QEMU_EXTRA" \
		cmd_boot base > /dev/null
	algo=
	[ $# -lt 1 ] || { algo="--algo $1"; shift; }
	# shellcheck disable=SC2086
	"$HOTPACK" $algo "$@" --addr-window 64 -o "$L/order.lds" "$IMAGES/base/vmlinux" \
		"$L/base-misses.txt"
	cmd_relink "$L/order.lds" loop
	QEMU_EXTRA="-plugin $PLUGIN,$args,out=$L/loop-counters.txt $QEMU_EXTRA" \
		cmd_boot loop > /dev/null
	"$HOTPACK" verify --order "$L/order.lds" "$IMAGES/base/vmlinux" "$IMAGES/loop/vmlinux" \
		"$L/base-misses.txt" > "$L/verify.txt" || { cat "$L/verify.txt"; die "verify failed"; }
	echo "== emulated counters, base image ($L/base-counters.txt)"
	cat "$L/base-counters.txt"
	echo "== emulated counters, ordered image ($L/loop-counters.txt)"
	cat "$L/loop-counters.txt"
	echo "== hotpack verify ($L/verify.txt)"
	sed -n '/^total:/,$p' "$L/verify.txt"
}

cmd_paths() {
	echo "kbuild:    $KBUILD"
	echo "patch:     $PATCH"
	echo "source:    $SRC"
	echo "build:     $BUILD"
	echo "images:    $IMAGES/NAME/{vmlinux,vmlinux.map,System.map,bzImage,config,link.log}"
	echo "initramfs: $INITRAMFS"
	echo "boot logs: $KBUILD/boot-NAME.log"
}

[ $# -ge 1 ] || { usage; exit 2; }
cmd=$1; shift
case $cmd in
paths) cmd_paths ;;
prepare|build|relink|initramfs|boot|loop)
	say "building in $KBUILD (KBUILD=DIR to change)"
	"cmd_$cmd" "$@" ;;
-h|--help|help) usage ;;
*) usage >&2; exit 2 ;;
esac
