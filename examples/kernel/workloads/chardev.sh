# chardev: read/write syscalls on character devices (mem driver: /dev/zero and
# /dev/null) through dd, at several block sizes.  (No /dev/urandom: before
# the CRNG is ready 6.1 spins in try_to_generate_entropy, 100 M instructions.)
dd if=/dev/zero of=/dev/null bs=4k count=4500 2>/dev/null
dd if=/dev/zero of=/dev/null bs=512 count=4500 2>/dev/null
dd if=/dev/zero of=/dev/null bs=64k count=180 2>/dev/null
