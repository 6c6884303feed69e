# pagecache: reads of a file in the page cache (the initramfs's busybox on
# rootfs, ramfs-backed), sequential at 512 B, 4 KiB and 64 KiB, and seeks.
dd if=/bin/busybox of=/dev/null bs=4k 2>/dev/null
dd if=/bin/busybox of=/dev/null bs=64k 2>/dev/null
dd if=/bin/busybox of=/dev/null bs=512 count=4000 2>/dev/null
dd if=/bin/busybox of=/dev/null bs=4k skip=100 count=200 2>/dev/null
cat /bin/busybox > /dev/null
