#!/bin/sh
# The documentation's contract (tools/check-docs): this tree's README and results page pass,
# and each rule fails a copy that breaks it: a README over 200 lines, a sentence over 60
# words, a README that does not start with the two commands, a results row without an anchor,
# an anchor given twice, a link to an anchor that does not exist.
# Usage: test_docs.sh SOURCE-DIR
set -u
src=$1
check_docs="$src/tools/check-docs"
dir=$(mktemp -d "${TMPDIR:-/tmp}/qsb-docs-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/check.sh"

check "this tree's documentation passes" python3 "$check_docs" "$src"

# fails_with WHAT TEXT README RESULTS ROOT: check-docs exits 1 and names TEXT.
fails_with() {
    python3 "$check_docs" --readme "$3" --results "$4" "$5" >/dev/null 2>"$dir/err"
    rc=$?
    check_same "$rc" 1 "$1: exit status"
    check "$1: the failure names it" grep -q -- "$2" "$dir/err"
}

mkdir -p "$dir/root/docs"
cp "$src/README.md" "$dir/README.md"
cp "$src/docs/results.md" "$dir/results.md"

# A README over 200 lines.
{ cat "$dir/README.md"; i=0; while [ $i -lt 200 ]; do echo; i=$((i + 1)); done; } >"$dir/long.md"
fails_with "201+ lines" "more than 200" "$dir/long.md" "$dir/results.md" "$dir/root"

# A sentence of 61 words in a paragraph.
{ cat "$dir/README.md"; echo; i=0; while [ $i -lt 61 ]; do printf 'word '; i=$((i + 1)); done; echo; } \
    >"$dir/wordy.md"
fails_with "a 61-word sentence" "a sentence of 61 words" "$dir/wordy.md" "$dir/results.md" "$dir/root"

# The same in a table cell.
{ cat "$dir/README.md"; echo; printf '| a |'; i=0; while [ $i -lt 61 ]; do printf ' cell'; i=$((i + 1)); done
  echo ' |'; } >"$dir/cell.md"
fails_with "a 61-word table cell" "a sentence of 61 words" "$dir/cell.md" "$dir/results.md" "$dir/root"

# Sixty words pass, and a long command in a code block is not a sentence.
{ head -n 12 "$dir/README.md"; echo; i=0; while [ $i -lt 60 ]; do printf 'word '; i=$((i + 1)); done; echo
  echo '```'; i=0; while [ $i -lt 80 ]; do printf 'arg '; i=$((i + 1)); done; echo; echo '```'; } \
    >"$dir/sixty.md"
check "60 words and a long code block pass" \
    python3 "$check_docs" --readme "$dir/sixty.md" --results "$dir/results.md" "$dir/root"

# The two commands swapped, or a line before them.
awk 'NR == 3 { a = $0; next } NR == 7 { print; print a; next } { print }' "$dir/README.md" >"$dir/swapped.md"
fails_with "the commands swapped" "does not start with" "$dir/swapped.md" "$dir/results.md" "$dir/root"
sed '2a\
A line before the commands.' "$dir/README.md" >"$dir/preface.md"
fails_with "a paragraph before the commands" "does not start with" "$dir/preface.md" "$dir/results.md" "$dir/root"

# A results row without an anchor, an anchor twice.
sed '0,/^| <a id="[^"]*"><\/a> /s//| /' "$dir/results.md" >"$dir/bare.md"
fails_with "a row without an anchor" "a table row without an anchor" "$dir/README.md" "$dir/bare.md" "$dir/root"
{ cat "$dir/results.md"; echo; echo '<a id="gates"></a>again'; } >"$dir/twice.md"
fails_with "an anchor twice" "anchor 'gates' again" "$dir/README.md" "$dir/twice.md" "$dir/root"

# A link to a missing anchor, in a page and in a code comment (the links spelt through a
# variable, so that this file holds none that dangles).
link="results.md#"
echo "See [the row]($link""no-such-row)." >"$dir/root/docs/page.md"
fails_with "a page's dangling link" "$link""no-such-row names no anchor" \
    "$dir/README.md" "$dir/results.md" "$dir/root"
rm "$dir/root/docs/page.md"
printf '/* the rule (docs/%sgates-no-such-row) */\n' "$link" >"$dir/root/code.c"
fails_with "a comment's dangling link" "code.c:1: $link""gates-no-such-row" \
    "$dir/README.md" "$dir/results.md" "$dir/root"
printf '/* the rule (docs/results.md#gates-run-gate-one-cell) */\n' >"$dir/root/code.c"
check "a link to an existing row passes" \
    python3 "$check_docs" --readme "$dir/README.md" --results "$dir/results.md" "$dir/root"
check_done
