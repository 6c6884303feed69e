#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/readme-commands.sh: README.md's two set-up commands (1: install,
# build, make quickstart in the source tree; 2: .ci/run) on two fresh clones
# of this checkout's HEAD, 1 then 2 in one, 2 then 1 in the other: each must
# work on a fresh clone and after the other. The commands are read from
# README.md itself (the first indented line after each bold "**Run ..."
# heading), so the test follows the README. Not in make check: it reinstalls
# packages and builds twice per clone (make check-readme; ~1 hour on two
# cores). Needs root for apt-get, as the README says.
#   srcdir=SRC SHARED_DATA=DIR sh tests/readme-commands.sh
. "$srcdir/tests/lib.sh"
top=$(cd "$srcdir" && pwd)

# readme_command HEADING: the indented command line after **HEADING
readme_command() {
	awk -v h="**$1" 'index($0, h) == 1 { want = 1; next }
		want && /^    [^ ]/ { sub(/^    /, ""); print; exit }' "$top/README.md"
}
cmd1=$(readme_command "Run the main job")
cmd2=$(readme_command "Run the test suite")
[ -n "$cmd1" ]; ok $? "README command 1 found: $cmd1"
[ -n "$cmd2" ]; ok $? "README command 2 found: $cmd2"
echo "$cmd1" | grep -q 'make quickstart$'; ok $? "command 1 ends in make quickstart"

# run_cmd CLONE N: README command N in CLONE, as a user types it
run_cmd() {
	eval "c=\$cmd$2"
	mkdir -p "$1.tmp"
	(cd "$1" && TMPDIR=$1.tmp sh -c "$c") > "$1.cmd$2.log" 2>&1
}

# check_cmd CLONE N WHEN: exit status and what the command promises
check_cmd() {
	run_cmd "$1" "$2"
	st=$?
	ok $st "command $2 $3: exit 0"
	[ $st -eq 0 ] || tail -30 "$1.cmd$2.log" | sed 's/^/#   /'
	if [ "$2" = 1 ]; then
		grep -q '^== hot functions span [0-9]* pages .*, [0-9]* after relinking' "$1.cmd1.log"
		ok $? "command 1 $3: the quickstart shows pages before and after"
	else
		tail -1 "$1.cmd2.log" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'
		ok $? "command 2 $3: ends N passed, 0 failed ($(tail -1 "$1.cmd2.log"))"
		grep -q 'source directory already configured' "$1.cmd2.log"
		ok $((! $?)) "command 2 $3: no 'already configured' refusal"
	fi
}

# fresh CLONE: a clone of HEAD with the shared data beside it, as CI has it
fresh() {
	mkdir -p "$(dirname "$1")" &&
	git clone -q "$top" "$1" &&
	ln -s "$(cd "$SHARED_DATA/.." && pwd)" "$(dirname "$1")/shared"
}

check "fresh clone A" fresh "$TMP/a/hotpack"
check_cmd "$TMP/a/hotpack" 1 "first (clone A)"
check_cmd "$TMP/a/hotpack" 2 "after command 1 (clone A)"
check "clone A: command 2 built a copy of the configured tree" \
	grep -q 'is configured in place; building a copy of its files' "$TMP/a/hotpack.cmd2.log"
check "fresh clone B" fresh "$TMP/b/hotpack"
check_cmd "$TMP/b/hotpack" 2 "first (clone B)"
check_cmd "$TMP/b/hotpack" 1 "after command 2 (clone B)"
# the user's in-tree build is left as it was
check "clone A: command 2 left the in-tree build (tool/hotpack, config.status)" \
	test -x "$TMP/a/hotpack/tool/hotpack" -a -f "$TMP/a/hotpack/config.status"
check "clone A: tree clean for git after both" \
	sh -c "test -z \"\$(git -C '$TMP/a/hotpack' status --porcelain)\""
done_testing
