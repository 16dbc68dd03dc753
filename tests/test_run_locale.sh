#!/bin/sh
# The numbers of a run never depend on the locale: under LC_ALL=de_DE.UTF-8 (decimal comma)
# the table still prints "+1.23%", and every CSV row still has all its comma-separated fields (29).
# Skipped (77) when that locale is not installed.
# Usage: test_run_locale.sh path/to/qsortbench
set -u
bin=$1
locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\{0,1\}8$' || { echo "de_DE.UTF-8 not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/qsb-run-locale-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0

LC_ALL=de_DE.UTF-8 "$bin" --nelem 300 --sizes 4 --patterns random --reps 3 \
    --csv r.csv --json r.json --quiet >table.txt 2>err.txt || failures=$((failures + 1))
grep -q '^  elements=      300 (size= 4): *[+-][0-9]*\.[0-9][0-9]% (msort=[0-9]*\.[0-9] introsort=[0-9]*\.[0-9])\(  ~noisy\)\{0,1\}$' table.txt ||
    { echo "FAIL: table line:"; cat table.txt; failures=$((failures + 1)); }
awk -F, 'NF != 29 { bad = 1 } END { exit bad }' r.csv ||
    { echo "FAIL: a CSV row without 29 fields:"; cat r.csv; failures=$((failures + 1)); }
grep -q '"tsc_hz":	[0-9]*\(\.[0-9]*\)\{0,1\},$' r.json ||
    { echo "FAIL: JSON numbers:"; head -20 r.json; failures=$((failures + 1)); }
echo "$failures failed"
[ "$failures" -eq 0 ]
