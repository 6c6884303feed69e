# procsys: procfs and sysfs reads (seq_file, kernfs), ps, sysctl.
cat /proc/self/status /proc/self/maps /proc/self/stat /proc/meminfo \
	/proc/cmdline /proc/stat /proc/interrupts /proc/uptime /proc/version \
	/proc/loadavg /proc/filesystems /proc/mounts > /dev/null
ps > /dev/null
sysctl -a > /dev/null 2>&1
ls -lR /sys/kernel /sys/devices/system > /dev/null 2>&1
find /sys/devices -name uevent | head -n 50 | xargs cat > /dev/null 2>&1
