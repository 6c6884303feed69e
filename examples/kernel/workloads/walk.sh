# walk: open/stat/getdents/readlink over the initramfs tree (rootfs only,
# -xdev keeps procfs, sysfs and devtmpfs out).
find / -xdev > /dev/null
ls -lR /bin > /dev/null
stat /bin/* > /dev/null
du -s /bin > /dev/null
readlink /bin/sh > /dev/null
wk=0
while [ $wk -lt 100 ]; do
	[ -e /bin/sh ] && [ -d /tmp ] && [ -x /bin/busybox ]
	wk=$((wk + 1))
done
