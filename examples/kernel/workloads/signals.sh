# signals: signal delivery to a shell with a trap, kill of a sleeping
# child and wait, nanosleep/timers (sleep, usleep), a timeout.
sh -c 'n=0; trap "n=\$((n + 1))" USR1; while [ $n -lt 200 ]; do kill -USR1 $$; done'
sg=0
while [ $sg -lt 20 ]; do
	sleep 0.01
	usleep 1000
	sg=$((sg + 1))
done
sleep 5 &
kill -TERM $!
wait $! || :
timeout 1 sleep 3 || :
