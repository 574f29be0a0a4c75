#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Check commit messages against the project's convention (DPDK's and Linux's):
#   - the headline reads `component: what changed`, at most 72 characters;
#   - the component is lower case (a file or directory name, a library, a few words), except
#     an upper-case file name such as README; a comma joins several components;
#   - the summary after ": " is not empty and does not end with a period;
#   - when there is a body, the second line is blank (the body says why, with the numbers).
# Merge commits are not checked (their headline is git's).
#
#   devtools/check-git-log.sh [-C DIR] [REV..REV | REV...]
#
# Without a range it checks every commit after $base below, the commit the convention starts
# after: that is decided from the repository alone, so a fresh clone checks the same commits
# as the author's checkout. -C DIR checks the repository at DIR instead of this one.
# Prints one line per bad commit and a total; exits 1 when any commit is bad.
set -u

# The convention applies to the commits after this one (d098b17); older ones are not checked.
base=d098b1759b4f8f6f32178dd21e89e8a8d7e2de59

repo=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = "-C" ]; then
	repo=$2
	shift 2
fi
if [ $# -gt 0 ]; then
	range=("$@")
else
	if ! git -C "$repo" cat-file -e "$base^{commit}" 2>/dev/null; then
		echo "check-git-log: base commit $base is not in $repo (a shallow clone?);" \
			"give a range: devtools/check-git-log.sh REV..REV" >&2
		exit 1
	fi
	range=("$base..HEAD")
fi

commits=$(git -C "$repo" rev-list --no-merges "${range[@]}") || {
	echo "check-git-log: bad range: ${range[*]}" >&2
	exit 1
}

# One word of a component: a name with dots, slashes, dashes, underscores or pluses in it.
word='[A-Za-z0-9_.+/*{}-]+'
# The first word is lower case (or starts with a digit, a dot or an underscore) or an
# upper-case file name (README, README.md, LICENSE); at most three more words follow
# ("model engine", "irdma uk"), and ", " starts another component.
first='([a-z0-9_.]'"$word"'?|[A-Z][A-Z0-9_]+(\.[a-z0-9]+)?)'
component="^$first( $word){0,3}(, $first( $word){0,3})*: "

checked=0
bad=0
complain() {
	printf '%s: %s\n    %s\n' "$1" "$2" "$3"
}
for c in $commits; do
	checked=$((checked + 1))
	msg=$(git -C "$repo" log -1 --format=%B "$c")
	headline=$(printf '%s\n' "$msg" | sed -n 1p)
	second=$(printf '%s\n' "$msg" | sed -n 2p)
	lines=$(printf '%s\n' "$msg" | sed '/^$/d' | wc -l)
	short=$(git -C "$repo" rev-parse --short "$c")
	problems=()
	if [ ${#headline} -gt 72 ]; then
		problems+=("headline is ${#headline} characters (at most 72)")
	fi
	if ! printf '%s\n' "$headline" | grep -Eq -- "$component"; then
		problems+=("headline is not 'component: what changed' with a lower-case component")
	else
		summary=${headline#*: }
		case $summary in
		"" | " "*) problems+=("nothing (or a space) after 'component: '") ;;
		esac
	fi
	case $headline in
	*.) problems+=("headline ends with a period") ;;
	*" ") problems+=("headline ends with a space") ;;
	esac
	if [ "$lines" -gt 1 ] && [ -n "$second" ]; then
		problems+=("no blank line between the headline and the body")
	fi
	if [ ${#problems[@]} -gt 0 ]; then
		bad=$((bad + 1))
		for p in "${problems[@]}"; do
			complain "$short" "$p" "$headline"
		done
	fi
done
echo "check-git-log: $checked commits checked (${range[*]}), $bad bad"
[ "$bad" -eq 0 ]
