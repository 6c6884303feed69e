#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# examples/kernel/kernel.sh - the kernel half of hotpack's loop on one
# machine: build a small Linux (Debian's linux-source-6.1 or -6.12; x86_64,
# or cross for ppc32 and arm64) with -ffunction-sections and hotpack's
# linker-script patch, relink it with an order file, and boot it under QEMU
# (TCG, no KVM needed) with an initramfs that runs a workload: busybox on
# x86_64 and arm64, a static C init (c-init.c) on ppc32, which Debian has no
# busybox for.  Everything is built outside the hotpack tree, in $KBUILD
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/hotpack/kbuild, a directory of the
# user's own; every command says where).  Run with no argument for the usage.
# Not part of `make check`: a full build takes ~3 minutes (x86_64) to ~6
# (ppc32, arm64).
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
                  config (the arch's base config + its options, see the
                  script's arch table) into \$BUILD
  build [NAME]    full build with KCFLAGS=\$KCFLAGS (no order); saves the
                  image as \$KBUILD/images/NAME (default base; x86_64 6.1;
                  else \$KBUILD/images-[\$KVER-]\$ARCH/NAME)
  relink ORDER [NAME]
                  relink vmlinux with make HOTPACK_ORDER=ORDER (absolute path;
                  "none" relinks without an order) and save the image as
                  \$KBUILD/images/NAME (default: ORDER's base name without
                  extension); prints the link time
  initramfs       (re)build \$KBUILD/initramfs.cpio.gz (other arches:
                  initramfs-\$ARCH.cpio.gz): busybox-static and the workload
                  script \$WORKLOAD, or (powerpc) c-init.c as /init and the
                  workload name \$WORKLOAD; every file of \$EXTRA_BINS in /bin
  boot [NAME|IMAGE]
                  boot \$IMAGES/NAME's kernel (default: base) in QEMU (TCG);
                  the console goes to stdout and to \$KBUILD/boot-NAME.log
                  (other arches: boot-\$ARCH-NAME.log); exits 0 when the
                  workload ran and the guest rebooted.  Extra QEMU
                  arguments: \$QEMU_EXTRA (e.g. "-plugin /path/itlbsim.so,...").
  loop [ALGO [OPT...]]
                  the whole loop, measured by hotpack's QEMU plugin: boot
                  the base image with the plugin (hpmark phases, the I-TLB
                  counters), boot it again to record every change of 64 B
                  block of code in the workload, order from that with
                  hotpack (--algo ALGO and the options OPT if given, e.g.
                  "pages --search on"), relink as images/loop, boot that
                  with the plugin, run hotpack verify; counters and samples
                  go to \$KBUILD/loop/ (x86_64 6.1; else
                  loop-[\$KVER-]\$ARCH/)
  count NAME      boot image NAME with the plugin counting (entries=
                  \$COUNT_ENTRIES, the plugin's I-cache) on \$WORKLOAD and
                  write the counters to \$L/NAME-WORKLOAD-counters.txt
                  (WORKLOAD: the script's or name's base name): how an order
                  does on a workload it was not made from
  hpmark          print the path of the guest's phase marker (other
                  arches: built for the guest first, as loop does)
  paths           print the paths the other commands use

Environment (defaults in brackets):
  ARCH [x86_64]: x86_64, powerpc (ppc32, 44x/bamboo under qemu-system-ppc
    -M bamboo) or arm64 (tinyconfig under qemu-system-aarch64 -M virt)
  KVER [6.1]  JOBS [2]  QEMU_MEM [256]
  KBUILD [\${XDG_CACHE_HOME:-\$HOME/.cache}/hotpack/kbuild], now $KBUILD
  CROSS_COMPILE [powerpc-linux-gnu- or aarch64-linux-gnu-; none on x86_64]
  BUILD [\$KBUILD/build-\$KVER-\$ARCH]     out-of-tree kernel build directory
  KCFLAGS [-ffunction-sections]  "" builds the stock layout (one .text per
    file; give it its own BUILD, and a NAME to build, so base stays)
  WORKLOAD [examples/kernel/workload.sh]  run by the guest's /init; powerpc:
    a name for c-init.c, steps (workload.sh's five steps) [steps] or other,
    or family names of examples/kernel/workloads/ (c-init.c's C versions,
    an hpmark between two)
  BUSYBOX [/bin/busybox; arm64: \$KBUILD/busybox-arm64/root/bin/busybox]
  COUNT_ENTRIES [8:16:32:64:128]           (count)
  EXTRA_BINS []                           space-separated host files -> /bin
  QEMU_ICOUNT [shift=3,align=off,sleep=off]  "" turns -icount off
  QEMU_EXTRA []
  HOTPACK [tool/hotpack of this tree, else hotpack on PATH]  (loop, count)
  PLUGIN [tool/qemu/libhotpack-itlb.so, else hotpack measure --plugin-path]
  HPMARK [tool/qemu/hpmark, else hpmark beside the plugin; cross arches:
    built from tool/qemu/hpmark.c into \$KBUILD/hpmark-\$ARCH/hpmark]

Each saved image directory holds vmlinux, vmlinux.map (CONFIG_VMLINUX_MAP),
System.map, the boot image (bzImage, arm64 Image; powerpc boots vmlinux),
config and link.log (the link's stderr, for warnings).
EOF
}

die() { echo "kernel.sh: error: $*" >&2; exit 1; }
say() { echo "kernel.sh: $*" >&2; }

# The arch table: the cross compiler, the base config and the options on
# top of it, the boot image, the QEMU machine and console, the guest's init.
# CONFIG_ON: what the loop needs (a serial console, an initramfs, procfs
# and sysfs walks, kallsyms, the link map); CONFIG_OFF: choices whose
# base-config member must go, and what would move the text at boot.
case $ARCH in
x86_64)
	: "${CROSS_COMPILE:=}"
	SRCARCH=x86 BASECONFIG=tinyconfig BOOTIMG=arch/x86/boot/bzImage
	QEMU=qemu-system-x86_64 QEMU_PKG=qemu-system-x86 QEMU_MACHINE="-accel tcg"
	CONSOLE=ttyS0 GUEST=busybox
	# (the shared reference data was built with the same set)
	CONFIG_ON="64BIT CC_OPTIMIZE_FOR_PERFORMANCE SLUB PRINTK EARLY_PRINTK TTY
SERIAL_8250 SERIAL_8250_CONSOLE BLK_DEV_INITRD RD_GZIP BINFMT_ELF
BINFMT_SCRIPT PROC_FS PROC_SYSCTL SYSFS DEVTMPFS MULTIUSER FUTEX POSIX_TIMERS
DEBUG_KERNEL KALLSYMS KALLSYMS_ALL FTRACE FUNCTION_TRACER
FUNCTION_GRAPH_TRACER DYNAMIC_FTRACE EXPERT VMLINUX_MAP KERNEL_GZIP"
	CONFIG_OFF="RELOCATABLE RANDOMIZE_BASE CPU_MITIGATIONS CC_OPTIMIZE_FOR_SIZE SLOB KERNEL_XZ"
	;;
powerpc)
	# ppc32: the PowerPC 440EP "bamboo" board, which Debian 12's QEMU 7.2
	# boots from vmlinux (bamboo.dtb comes with qemu-system-data).  The
	# plugin's TLB model does not depend on the guest's MMU, so the misses
	# of this 440 guest are those of an MPC8xx I-TLB running the same code.
	: "${CROSS_COMPILE:=powerpc-linux-gnu-}"
	SRCARCH=powerpc BASECONFIG=44x/bamboo_defconfig BOOTIMG=vmlinux
	QEMU=qemu-system-ppc QEMU_PKG=qemu-system-ppc QEMU_MACHINE="-M bamboo"
	CONSOLE=ttyS0 GUEST=c
	CONFIG_ON="DEVTMPFS DEVTMPFS_MOUNT KALLSYMS KALLSYMS_ALL PROC_FS SYSFS
EXPERT VMLINUX_MAP BLK_DEV_INITRD RD_GZIP TMPFS"
	CONFIG_OFF="MODULES"
	;;
arm64)
	: "${CROSS_COMPILE:=aarch64-linux-gnu-}"
	SRCARCH=arm64 BASECONFIG=tinyconfig BOOTIMG=arch/arm64/boot/Image
	QEMU=qemu-system-aarch64 QEMU_PKG=qemu-system-arm
	# dtb-randomness=off: virt puts a fresh rng-seed in the guest's device
	# tree each boot, which changes the kernel's paths and every count
	QEMU_MACHINE="-M virt,dtb-randomness=off -cpu cortex-a53"
	CONSOLE=ttyAMA0 GUEST=busybox
	: "${BUSYBOX:=$KBUILD/busybox-arm64/root/bin/busybox}"
	CONFIG_ON="PRINTK TTY SERIAL_AMBA_PL011 SERIAL_AMBA_PL011_CONSOLE
BLK_DEV_INITRD RD_GZIP BINFMT_ELF BINFMT_SCRIPT PROC_FS SYSFS DEVTMPFS
KALLSYMS KALLSYMS_ALL EXPERT VMLINUX_MAP MULTIUSER FUTEX POSIX_TIMERS TMPFS
SHMEM CC_OPTIMIZE_FOR_PERFORMANCE"
	CONFIG_OFF="RANDOMIZE_BASE RELOCATABLE CC_OPTIMIZE_FOR_SIZE"
	;;
*) die "ARCH=$ARCH: not one of x86_64, powerpc, arm64" ;;
esac
: "${BUSYBOX:=/bin/busybox}"

SRC=$KBUILD/linux-source-$KVER
: "${BUILD:=$KBUILD/build-$KVER-$ARCH}"
# x86_64 6.1 images in $KBUILD/images (other tools use that path); other
# versions and arches apart, so one never overwrites another's
if [ "$ARCH" = x86_64 ]; then
	if [ "$KVER" = 6.1 ]; then SUFFIX=; else SUFFIX=-$KVER; fi
	INITRAMFS=$KBUILD/initramfs.cpio.gz
	LOGS=$KBUILD/boot
else
	if [ "$KVER" = 6.1 ]; then SUFFIX=-$ARCH; else SUFFIX=-$KVER-$ARCH; fi
	INITRAMFS=$KBUILD/initramfs-$ARCH.cpio.gz
	LOGS=$KBUILD/boot-$ARCH
fi
IMAGES=$KBUILD/images$SUFFIX
L=$KBUILD/loop$SUFFIX
if [ "$GUEST" = c ]; then
	: "${WORKLOAD:=steps}"
else
	: "${WORKLOAD:=$HERE/workload.sh}"
fi
: "${EXTRA_BINS:=}"
: "${QEMU_EXTRA:=}"
: "${COUNT_ENTRIES:=8:16:32:64:128}"
QEMU_ICOUNT=${QEMU_ICOUNT-shift=3,align=off,sleep=off}
PATCH=$TOP/linker-scripts/linux-$KVER-hotpack.patch
KCFLAGS=${KCFLAGS--ffunction-sections}
KMAKE="make -C $SRC O=$BUILD ARCH=$ARCH -j$JOBS KCFLAGS=$KCFLAGS"
[ -z "$CROSS_COMPILE" ] || KMAKE="$KMAKE CROSS_COMPILE=$CROSS_COMPILE"
# The same bytes for the same inputs: no build date, user, host or count in
# the image (they change each link, and under -icount any change shifts the
# boot's counts).
export KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-2026-01-01 00:00:00 UTC}"
export KBUILD_BUILD_VERSION="${KBUILD_BUILD_VERSION:-1}"
export KBUILD_BUILD_USER="${KBUILD_BUILD_USER:-hotpack}"
export KBUILD_BUILD_HOST="${KBUILD_BUILD_HOST:-hotpack}"

# need_cc: the (cross) compiler, named with its package when missing.
need_cc() {
	command -v "${CROSS_COMPILE}gcc" > /dev/null && return
	case $ARCH in
	powerpc) die "${CROSS_COMPILE}gcc not found; apt-get install gcc-powerpc-linux-gnu" ;;
	arm64) die "${CROSS_COMPILE}gcc not found; apt-get install gcc-aarch64-linux-gnu" ;;
	*) die "${CROSS_COMPILE}gcc not found; apt-get install build-essential" ;;
	esac
}

# need_qemu: the system emulator (and bamboo's device tree).
need_qemu() {
	command -v "$QEMU" > /dev/null || die "$QEMU not found; apt-get install $QEMU_PKG"
	[ "$ARCH" != powerpc ] || [ -f /usr/share/qemu/bamboo.dtb ] ||
		die "/usr/share/qemu/bamboo.dtb missing; apt-get install qemu-system-data"
}

cmd_prepare() {
	[ -f "$PATCH" ] || die "$PATCH: no patch for linux $KVER"
	need_cc
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
		$KMAKE "$BASECONFIG" >/dev/null
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
	for f in vmlinux vmlinux.map System.map $BOOTIMG .config; do
		[ -f "$BUILD/$f" ] || die "$BUILD/$f missing after the build"
	done
	# (powerpc boots vmlinux itself: copied once)
	cp "$BUILD/vmlinux" "$BUILD/vmlinux.map" "$BUILD/System.map" "$d/"
	[ "$BOOTIMG" = vmlinux ] || cp "$BUILD/$BOOTIMG" "$d/"
	cp "$BUILD/.config" "$d/config"
	say "image saved in $d"
}

# image_target: the make target of the boot image, if not vmlinux.
image_target() {
	[ "$BOOTIMG" = vmlinux ] || basename "$BOOTIMG"
}

cmd_build() {
	cmd_prepare
	start=$(date +%s)
	# Leaves no order behind: a stale HOTPACK_ORDER is not remembered by
	# Kbuild (the variable is read on each make run only).
	# shellcheck disable=SC2046
	$KMAKE vmlinux $(image_target) 2> "$BUILD/build.log.err" || {
		tail -30 "$BUILD/build.log.err" >&2; die "kernel build failed"; }
	end=$(date +%s)
	say "full build took $((end - start)) s"
	grep -i "warning" "$BUILD/build.log.err" >&2 || true
	save_image "${1:-base}"
	cp "$BUILD/build.log.err" "$IMAGES/${1:-base}/link.log"
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
	$KMAKE $ovar vmlinux.o "arch/$SRCARCH/kernel/vmlinux.lds" >/dev/null 2>&1 ||
		die "make $ovar vmlinux.o failed"
	rm -f "$BUILD/vmlinux"
	start=$(date +%s.%N)
	$KMAKE $ovar vmlinux > "$BUILD/link.out" 2> "$BUILD/link.log" || {
		cat "$BUILD/link.log" >&2; die "relink failed"; }
	end=$(date +%s.%N)
	t=$(echo "$end - $start" | bc)
	if [ "$BOOTIMG" != vmlinux ]; then
		$KMAKE $ovar "$(image_target)" >/dev/null 2>>"$BUILD/link.log" ||
			die "$(image_target) failed"
	fi
	if grep -i "warning" "$BUILD/link.log" >&2; then
		say "the link printed warnings (above)"
	fi
	save_image "$name"
	cp "$BUILD/link.log" "$IMAGES/$name/link.log"
	echo "relink $name: vmlinux link took $t s"
}

# build_guest_c: c-init.c for the guest, static, with the cross compiler.
build_guest_c() {
	need_cc
	out=$KBUILD/c-init-$ARCH
	libc=$("${CROSS_COMPILE}gcc" -print-file-name=libc.a)
	[ -f "$libc" ] || case $ARCH in
		powerpc) die "no static libc for ${CROSS_COMPILE}gcc; apt-get install libc6-dev-powerpc-cross" ;;
		*) die "no static libc for ${CROSS_COMPILE}gcc; apt-get install libc6-dev-$ARCH-cross" ;;
	esac
	"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wl,--build-id=none -o "$out" "$HERE/c-init.c" ||
		die "$HERE/c-init.c did not build with ${CROSS_COMPILE}gcc"
	echo "$out"
}

# build_hpmark: the plugin's phase marker for a cross guest, linked the
# way mk/qemu.am links it (entry point at the marker address).  hpmark.c
# takes nothing from config.h: an empty one stands in for the build's.
build_hpmark() {
	need_cc
	[ -f "$TOP/tool/qemu/hpmark.c" ] ||
		die "$TOP/tool/qemu/hpmark.c missing (an installed copy?); set HPMARK to hpmark built for $ARCH"
	# (the guest runs /bin/hpmark: the file keeps that name)
	dir=$KBUILD/hpmark-$ARCH
	mkdir -p "$dir"
	: > "$dir/config.h"
	"${CROSS_COMPILE}gcc" -I "$dir" -O2 -ffreestanding -fno-stack-protector -fno-pie \
		-nostdlib -static -no-pie -Wl,-Ttext=0x5a5a0000 -Wl,--build-id=none \
		-Wl,-z,max-page-size=4096 -o "$dir/hpmark" "$TOP/tool/qemu/hpmark.c" ||
		die "$TOP/tool/qemu/hpmark.c did not build with ${CROSS_COMPILE}gcc"
	echo "$dir/hpmark"
}

# workload_name: the base name of $WORKLOAD (script or c-init name).
workload_name() {
	basename "$WORKLOAD" .sh
}

cmd_initramfs() {
	if [ "$GUEST" = c ]; then
		case $WORKLOAD in
		steps|other) ;;
		*/*|"") die "WORKLOAD=$WORKLOAD: the C init ($HERE/c-init.c) runs steps, other or family names" ;;
		*)	# c-init.c's C versions of examples/kernel/workloads/
			for w in $WORKLOAD; do
				[ -f "$HERE/workloads/$w.sh" ] ||
					die "WORKLOAD: $w is not a family of $HERE/workloads (c-init.c runs those)"
			done ;;
		esac
		cinit=$(build_guest_c)
	else
		bb=$BUSYBOX
		if [ ! -f "$bb" ] && [ "$ARCH" = arm64 ]; then
			die "$bb missing; fetch busybox-static for arm64: dpkg --add-architecture arm64 &&" \
				"apt-get update && mkdir -p $KBUILD/busybox-arm64 && (cd $KBUILD/busybox-arm64 && apt-get download" \
				"busybox-static:arm64 && dpkg-deb -x busybox-static_*_arm64.deb root)"
		fi
		[ -x "$bb" ] && file -L "$bb" 2>/dev/null | grep -q "statically linked" ||
			die "$bb is not busybox-static; apt-get install busybox-static"
		[ -f "$WORKLOAD" ] || die "$WORKLOAD: no workload script"
	fi
	root=${INITRAMFS%.cpio.gz}.root
	list=${INITRAMFS%.cpio.gz}.list
	cpio=${INITRAMFS%.gz}
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp"
	if [ "$GUEST" = busybox ]; then
		cp "$bb" "$root/bin/busybox"
		if [ "$ARCH" = x86_64 ]; then
			for a in $("$bb" --list); do
				[ "$a" = busybox ] || ln -s busybox "$root/bin/$a"
			done
		else
			# a foreign busybox cannot list its applets here: /init
			# installs their links at boot (phase 0, not measured)
			ln -s busybox "$root/bin/sh"
		fi
	fi
	for f in $EXTRA_BINS; do
		[ -f "$f" ] || die "$f: no such file (EXTRA_BINS)"
		rm -f "$root/bin/$(basename "$f")"
		cp "$f" "$root/bin/"
	done
	if [ "$GUEST" = c ]; then
		# /init runs /bin/hpmark between steps (a missing one is a
		# failed exec, which changes nothing)
		cp "$cinit" "$root/init"
		echo "$WORKLOAD" > "$root/workload"
	else
		# A phase marker command that does nothing when the QEMU plugin's
		# marker program is not given (see examples/kernel/README.md).
		[ -e "$root/bin/hpmark" ] || printf '#!/bin/sh\n:\n' > "$root/bin/hpmark"
		chmod +x "$root/bin/hpmark"
		cp "$WORKLOAD" "$root/workload.sh"
		{
			echo '#!/bin/sh'
			[ "$ARCH" = x86_64 ] || echo '/bin/busybox --install -s /bin'
			cat <<'EOF'
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
		} > "$root/init"
	fi
	chmod +x "$root/init"
	# Byte-identical archives for identical inputs (fixed times, inode
	# numbers): a different archive shifts the boot under -icount.
	(cd "$root" && find . -exec touch -h -d @0 {} + &&
		find . | LC_ALL=C sort > "$list")
	(cd "$root" && cpio -o -H newc --quiet --reproducible < "$list") > "$cpio"
	# The kernel opens /dev/console before /init mounts devtmpfs.  Make the
	# node without root rights: append a second cpio archive holding only
	# it, written by the kernel's own gen_init_cpio.
	if [ -x "$BUILD/usr/gen_init_cpio" ]; then
		printf 'dir /dev 755 0 0\nnod /dev/console 600 0 0 c 5 1\n' > "$KBUILD/console.list"
		"$BUILD/usr/gen_init_cpio" -t 0 "$KBUILD/console.list" >> "$cpio"
	else
		die "$BUILD/usr/gen_init_cpio missing; run '$0 build' first"
	fi
	gzip -9n < "$cpio" > "$INITRAMFS"
	rm -f "$cpio"
	say "initramfs written to $INITRAMFS"
}

cmd_boot() {
	need_qemu
	what=${1:-base}
	case $what in
	*/*) kernel=$what; name=$(basename "$(dirname "$what")") ;;
	*) kernel=$IMAGES/$what/$(basename "$BOOTIMG"); name=$what ;;
	esac
	[ -f "$kernel" ] || die "$kernel missing; run '$0 build' or 'relink' first"
	[ -f "$INITRAMFS" ] || cmd_initramfs
	log=$LOGS-$name.log
	icount=
	[ -z "$QEMU_ICOUNT" ] || icount="-icount $QEMU_ICOUNT"
	say "booting $kernel (log: $log)"
	# shellcheck disable=SC2086
	timeout 600 $QEMU $QEMU_MACHINE -m "$QEMU_MEM" -nographic \
		-no-reboot -kernel "$kernel" -initrd "$INITRAMFS" \
		-append "console=$CONSOLE panic=-1 quiet loglevel=3" \
		-rtc base=2026-01-01T00:00:00,clock=vm $icount $QEMU_EXTRA \
		< /dev/null 2>&1 | tee "$log"
	grep -q "hotpack: workload done" "$log" ||
		die "the guest did not finish the workload (see $log)"
}

# need_loop_tools: hotpack, the plugin and a phase marker for the guest.
need_loop_tools() {
	# a build tree's tools; installed (this script in $(datadir)/hotpack),
	# the hotpack on PATH and the plugin and marker it was installed with
	if [ -z "${HOTPACK:-}" ] && [ ! -x "$TOP/tool/hotpack" ] &&
	   HOTPACK=$(command -v hotpack) && P=$("$HOTPACK" measure --plugin-path); then
		: "${PLUGIN:=$P}"
		[ "$ARCH" != x86_64 ] || : "${HPMARK:=$(dirname "$P")/hpmark}"
	fi
	: "${HOTPACK:=$TOP/tool/hotpack}" "${PLUGIN:=$TOP/tool/qemu/libhotpack-itlb.so}"
	for f in "$HOTPACK" "$PLUGIN"; do
		[ -f "$f" ] || die "$f missing; run make in the hotpack tree (or set HOTPACK, PLUGIN)"
	done
	if [ -z "${HPMARK:-}" ]; then
		if [ "$ARCH" = x86_64 ]; then HPMARK=$TOP/tool/qemu/hpmark; else HPMARK=$(build_hpmark); fi
	fi
	[ -f "$HPMARK" ] || die "$HPMARK missing; run make in the hotpack tree"
	mkdir -p "$L"
}

cmd_loop() {
	need_loop_tools
	[ -f "$IMAGES/base/vmlinux" ] || cmd_build
	EXTRA_BINS="$HPMARK $EXTRA_BINS" cmd_initramfs
	args=entries=1:8:16:32:64:128,sample_phases=1-
	QEMU_EXTRA="-plugin $PLUGIN,$args,out=$L/base-counters.txt $QEMU_EXTRA" \
		cmd_boot base > /dev/null
	# the samples: misses of a 1-entry TLB of 64 B blocks, every change of
	# 64 B block of code: nearly every call and return between functions,
	# which a 1 KiB grain misses when both lie in one block of the base
	# image (bench/RESULTS.md, "The sample stream's grain"); windows of 64
	# of them say what runs together
	smp=page=64,entries=1,sample_tlb=1,sample_phases=1-
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

cmd_count() {
	[ $# -ge 1 ] || die "count needs an image NAME (e.g. base, loop)"
	need_loop_tools
	out=$L/$1-$(workload_name)-counters.txt
	EXTRA_BINS="$HPMARK $EXTRA_BINS" cmd_initramfs
	QEMU_EXTRA="-plugin $PLUGIN,entries=$COUNT_ENTRIES,out=$out $QEMU_EXTRA" \
		cmd_boot "$1" > /dev/null
	echo "== emulated counters, image $1, workload $(workload_name) ($out)"
	cat "$out"
}

cmd_paths() {
	echo "kbuild:    $KBUILD"
	echo "patch:     $PATCH"
	echo "source:    $SRC"
	echo "build:     $BUILD"
	echo "images:    $IMAGES/NAME/{vmlinux,vmlinux.map,System.map,$(basename "$BOOTIMG"),config,link.log}"
	echo "initramfs: $INITRAMFS"
	echo "boot logs: $LOGS-NAME.log"
	echo "loop:      $L"
}

# cmd_hpmark: what loop and count give the guest as /bin/hpmark
cmd_hpmark() {
	if [ -n "${HPMARK:-}" ]; then echo "$HPMARK"
	elif [ "$ARCH" = x86_64 ]; then echo "$TOP/tool/qemu/hpmark"
	else build_hpmark
	fi
}

[ $# -ge 1 ] || { usage; exit 2; }
cmd=$1; shift
case $cmd in
paths) cmd_paths ;;
hpmark) cmd_hpmark ;;
prepare|build|relink|initramfs|boot|loop|count)
	say "building in $KBUILD (KBUILD=DIR to change)"
	"cmd_$cmd" "$@" ;;
-h|--help|help) usage ;;
*) usage >&2; exit 2 ;;
esac
