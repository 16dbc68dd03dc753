#!/bin/sh
# `qsortbench audit` from the outside: exit 2 on bad arguments (before any probe runs), exit 0
# with findings, and the CSV and JSON files holding one row per audited algorithm.
# Usage: test_audit_cli.sh PATH-TO-qsortbench
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/check.sh"

"$bin" audit --bogus >/dev/null 2>"$dir/err"; check "unknown option exits 2" test $? -eq 2
check "one error line" grep -q "^qsortbench: error: " "$dir/err"
"$bin" audit --algos no-such-sort >/dev/null 2>&1; check "unknown algorithm exits 2" test $? -eq 2
"$bin" audit --algos quicksort,quicksort >/dev/null 2>&1; check "duplicate exits 2" test $? -eq 2
"$bin" audit --algos quicksort --csv "$dir/none/x.csv" >/dev/null 2>&1
check "bad CSV path exits 2" test $? -eq 2
"$bin" audit extra >/dev/null 2>&1; check "operand exits 2" test $? -eq 2
"$bin" audit --help >"$dir/help"; check "--help exits 0" test $? -eq 0
check "--help lists --algos" grep -q -- "--algos" "$dir/help"

"$bin" audit --quick --algos quicksort,msort --csv "$dir/a.csv" --json "$dir/a.json" \
    >"$dir/table" 2>"$dir/stderr"
check "audit with findings exits 0" test $? -eq 0
check "table row for quicksort" grep -q "^quicksort " "$dir/table"
check "table row for msort's fallback" grep -q "^msort (malloc fails)" "$dir/table"
check "quicksort out of bounds in the table" grep -q "^quicksort .*OOB-below" "$dir/table"
check "CSV: header + 3 rows" test "$(wc -l <"$dir/a.csv")" -eq 4
check "CSV: quicksort quadratic" grep -q '^"quicksort","","no",.*"quadratic"' "$dir/a.csv"
check "JSON: kind audit" grep -q '"kind":[[:space:]]*"audit"' "$dir/a.json"
check "JSON: the fallback row" grep -q '"variant":[[:space:]]*"malloc fails"' "$dir/a.json"

# A plug-in (plugins.h): this machine's libc qsort_r, loaded by path. It declares nothing.
libc=$(ldd "$bin" | awk '/libc\.so/ { print $3 }')
if [ -n "$libc" ] && [ -f "$libc" ]; then
    "$bin" audit --quick --algos "libc=$libc:qsort_r" --json "$dir/p.json" >"$dir/ptable" 2>&1
    check "plug-in audit exits 0" test $? -eq 0
    check "plug-in row" grep -q "^libc " "$dir/ptable"
    check "plug-in declares nothing" grep -q '"declared":[[:space:]]*null' "$dir/p.json"
else
    echo "skipped: no libc path from ldd"
fi
check_done
