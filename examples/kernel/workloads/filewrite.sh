# filewrite: creat/write/fsync/rename/truncate/unlink on a tmpfs mount
# (ramfs-backed: the tinyconfig kernel has no SHMEM).  The appends are the
# shell's own redirections, no fork.
mkdir -p /tmp/fw && mount -t tmpfs tmpfs /tmp/fw
fw=0
while [ $fw -lt 30 ]; do
	echo "line $fw" >> /tmp/fw/log
	echo "line $fw" > /tmp/fw/s$fw
	dd if=/dev/zero of=/tmp/fw/f$fw bs=4k count=8 conv=fsync 2>/dev/null
	fw=$((fw + 1))
done
sync -d /tmp/fw/log
truncate -s 1000 /tmp/fw/f1
dd if=/dev/zero of=/tmp/fw/f2 bs=4k count=8 conv=notrunc,fsync 2>/dev/null
mv /tmp/fw/f3 /tmp/fw/g3
rm -f /tmp/fw/*
umount /tmp/fw
