# forkexec: fork, exec, exit and wait: external commands, subshells,
# command substitution, a nested shell.
fe=0
while [ $fe -lt 30 ]; do
	/bin/true
	(:)
	fe_x=$(echo $fe)
	fe=$((fe + 1))
done
sh -c 'exit 3' || :
env /bin/true
