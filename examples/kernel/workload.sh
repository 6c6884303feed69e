# hotpack guest workload, sourced by the initramfs's /init between two
# `hpmark` calls.  Each `hpmark` starts a new counting phase of the QEMU
# I-TLB plugin (a no-op without it).  Edit freely, then run
# `examples/kernel/kernel.sh initramfs`.
dd if=/dev/zero of=/dev/null bs=4k count=20000 2>/dev/null            # 1: read/write syscalls on char devs
hpmark; dd if=/bin/busybox of=/dev/null bs=4k 2>/dev/null              # 2: page-cache read path (ramfs)
hpmark; i=0; while [ $i -lt 2000 ]; do echo $i; i=$((i+1)); done > /dev/null   # 3: many small write()s
hpmark; cat /proc/self/status /proc/meminfo /proc/cmdline > /dev/null  # 4: procfs, fork/exec
hpmark; ls -lR /sys/kernel > /dev/null 2>&1                            # 5: getdents/stat/open/close
