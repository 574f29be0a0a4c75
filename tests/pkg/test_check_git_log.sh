#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the irdma-pmd authors
#
# devtools/check-git-log.sh on a throwaway repository: each good headline passes, each bad one
# fails and is named, merges are skipped, and without the recorded base commit (not in this
# repository) it refuses rather than checking nothing.
# usage: test_check_git_log.sh <devtools/check-git-log.sh>. Prints TAP.
set -u
check=$1
if ! command -v git >/dev/null 2>&1; then
	echo "1..0 # SKIP git not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
g() { git -C "$repo" -c user.name=test -c user.email=test@example.invalid "$@"; }
git init -q "$repo"
n=0
commit() {	# commit MESSAGE: an empty commit with that message; prints its hash
	n=$((n + 1))
	g commit -q --allow-empty -m "$1"
	g rev-parse HEAD
}
commit "init: the first commit" >/dev/null

t=0
failed=0
ok() {	# ok GOOD NAME [DETAIL]
	t=$((t + 1))
	if [ "$1" -eq 0 ]; then echo "ok $t - $2"; else
		echo "not ok $t - $2"; failed=$((failed + 1))
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
	fi
}

long72="restrack: $(printf 'x%.0s' $(seq 62))"	# 72 characters
long73="restrack: $(printf 'x%.0s' $(seq 63))"
good=(
	"restrack: lookups read one slot"
	"doc/restrack.md, README: the benchmark's numbers"
	"README: a link to the man page"
	"model engine: the RNR timer in ticks"
	"tests/pkg: compile every installed header as C++"
	"$long72"
	"$(printf 'pkg: version 0.3.0\n\nWhy, with the numbers.')"
)
bad=(
	"Fix the bug"
	"restrack: "
	"restrack:no space"
	"restrack: done."
	"Restrack: capitalised component"
	"a sentence before the colon that runs on: and on"
	"$long73"
	"$(printf 'pkg: version 0.3.0\nno blank line before the body')"
)
echo "1..$(( ${#good[@]} + ${#bad[@]} + 3 ))"
for m in "${good[@]}"; do
	c=$(commit "$m")
	out=$("$check" -C "$repo" "$c^!" 2>&1)
	ok $? "good: $(printf '%s' "$m" | head -n 1)" "$out"
done
for m in "${bad[@]}"; do
	c=$(commit "$m")
	out=$("$check" -C "$repo" "$c^!" 2>&1)
	rc=$?
	short=$(g rev-parse --short "$c")
	[ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "^$short: "
	ok $? "bad, named: $(printf '%s' "$m" | head -n 1)" "$out"
done

# A merge commit's headline is git's: not checked. Only the good commit on the branch counts.
g checkout -q -b side
commit "examples: a third example" >/dev/null
g checkout -q -
last=$(g rev-parse HEAD)
g merge -q --no-ff -m "Merge branch 'side'" side
out=$("$check" -C "$repo" "$last..HEAD" 2>&1)
rc=$?
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "1 commits checked"
ok $? "merge commits are skipped" "$out"

# A range with good and bad commits fails and counts the bad ones.
out=$("$check" -C "$repo" "HEAD~$((${#bad[@]} + 3))..HEAD" 2>&1)
rc=$?
[ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q ", ${#bad[@]} bad$"
ok $? "a mixed range fails with ${#bad[@]} bad commits" "$out"

# Without a range the base recorded in the script is needed: absent here, so it refuses.
out=$("$check" -C "$repo" 2>&1)
rc=$?
[ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "base commit .* is not in"
ok $? "no range and no base commit: refused" "$out"
[ $failed -eq 0 ]
