#!/bin/sh
# Bad command lines of `qsortbench run`: each must exit 2 with exactly one line on stderr,
# "qsortbench: error: ...", print nothing on stdout, and create no file (no results/).
# Usage: test_run_cli.sh path/to/qsortbench
set -u
bin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/qsb-run-cli-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
passed=0

# expect_usage_error WORD-THE-MESSAGE-MUST-CONTAIN ARGS...
expect_usage_error() {
    want=$1
    shift
    "$bin" "$@" >out.txt 2>err.txt
    status=$?
    lines=$(wc -l <err.txt)
    if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || [ -s out.txt ] ||
        ! grep -q '^qsortbench: error: ' err.txt || ! grep -q -- "$want" err.txt; then
        echo "FAIL: qsortbench $* -> status $status, $lines stderr line(s):" >&2
        cat err.txt out.txt >&2
        failures=$((failures + 1))
    else
        passed=$((passed + 1))
    fi
}

expect_usage_error "not a whole number" --nelem 12x
expect_usage_error "too small" --nelem 0
expect_usage_error "not a whole number" --nelem -1
expect_usage_error "too large" --nelem 99999999999999999999
expect_usage_error "empty element" --nelem 1::2
expect_usage_error "empty element" --nelem 1000:
expect_usage_error "listed twice" --nelem 1000:1000
expect_usage_error "too small" --sizes 0
expect_usage_error "not a whole number" --sizes 4,x
expect_usage_error "unknown pattern 'nosuch'" --patterns nosuch
expect_usage_error "unknown algorithm 'nosuch' (valid: .*msort" --algos nosuch
expect_usage_error "listed twice" --algos msort,msort
expect_usage_error "unknown metric 'foo'" --metric foo
expect_usage_error "unknown mode" --compat glibc-bench-1999
expect_usage_error "too small" --reps 0
expect_usage_error "too large" --seed 0x1000000000000
expect_usage_error "unknown option" --nosuch
expect_usage_error "needs a value" --nelem
expect_usage_error "no operands" --nelem 1000 stray
expect_usage_error "cannot both be" --csv - --json -
expect_usage_error "cannot open 'nosuch.csv'" --reference nosuch.csv --nelem 100
expect_usage_error "cannot create 'nodir/r.csv'" --nelem 100 --csv nodir/r.csv --json r.json
expect_usage_error "need" --nelem 1000000000000 --sizes 32
printf 'pattern,nelem,size,delta_pct,master_msort,patches_introsort\nSORTED,49152,4,x,1,2\n' >bad.csv
expect_usage_error "bad.csv:2:" --reference bad.csv --nelem 100

if [ -e results ] || [ -n "$(ls | grep -v -e '^out.txt$' -e '^err.txt$' -e '^bad.csv$')" ]; then
    echo "FAIL: a refused command left files behind:" >&2
    ls -la >&2
    failures=$((failures + 1))
fi
echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
