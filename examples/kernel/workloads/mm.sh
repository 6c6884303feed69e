# mm: mmap/munmap, brk and page faults: large dd buffers (glibc maps them),
# an awk array that grows the heap, sort holding its input in memory.
mm=0
while [ $mm -lt 8 ]; do
	dd if=/dev/zero of=/dev/null bs=2M count=1 2>/dev/null
	mm=$((mm + 1))
done
awk 'BEGIN { for (i = 0; i < 50000; i++) a[i] = i }'
seq 1 20000 > /tmp/mm.txt
sort -r /tmp/mm.txt > /dev/null
rm -f /tmp/mm.txt
