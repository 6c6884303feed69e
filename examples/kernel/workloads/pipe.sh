# pipe: anonymous pipes between processes, several stages, and a FIFO.
dd if=/dev/zero bs=4k count=1500 2>/dev/null | cat > /dev/null
dd if=/dev/zero bs=512 count=3000 2>/dev/null | dd of=/dev/null bs=512 2>/dev/null
yes hotpack | head -n 15000 > /dev/null
seq 1 5000 | cat | cat | wc -l > /dev/null
mkfifo /tmp/hp.fifo
dd if=/dev/zero of=/tmp/hp.fifo bs=4k count=500 2>/dev/null &
dd if=/tmp/hp.fifo of=/dev/null bs=4k 2>/dev/null
wait
rm -f /tmp/hp.fifo
