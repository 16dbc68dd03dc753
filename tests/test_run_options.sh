#!/bin/sh
# The measurement options of `qsortbench run` (--precision, --max-time, --warmup, --batch,
# --pin):
# every bad value exits 2 with exactly one line "qsortbench: error: ..." on stderr, nothing on
# stdout and no file left; good values are accepted (a tiny run with each).
# Usage: test_run_options.sh path/to/qsortbench
set -u
bin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/qsb-run-options-XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
passed=0

fail() {
    echo "FAIL: $*" >&2
    cat err.txt out.txt >&2
    failures=$((failures + 1))
}

# expect_usage_error WORD-THE-MESSAGE-MUST-CONTAIN ARGS...
expect_usage_error() {
    want=$1
    shift
    "$bin" "$@" >out.txt 2>err.txt
    status=$?
    lines=$(wc -l <err.txt)
    if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || [ -s out.txt ] ||
        ! grep -q '^qsortbench: error: ' err.txt || ! grep -q -- "$want" err.txt; then
        fail "qsortbench $* -> status $status, $lines stderr line(s)"
    else
        passed=$((passed + 1))
    fi
}

# expect_ok ARGS...: a tiny run that must succeed.
expect_ok() {
    "$bin" --nelem 200 --sizes 4 --patterns sorted --csv ok.csv --json ok.json -q "$@" \
        >out.txt 2>err.txt
    status=$?
    if [ "$status" -ne 0 ] || ! grep -q '^  elements=' out.txt; then
        fail "qsortbench $* -> status $status"
    else
        passed=$((passed + 1))
    fi
    rm -f ok.csv ok.json
}

expect_usage_error "must be above 0" --precision 0
expect_usage_error "not a number" --precision x
expect_usage_error "not a number" --precision -1
expect_usage_error "out of range" --precision 101
expect_usage_error "must be above 0" --max-time 0
expect_usage_error "not a number" --max-time 1s
expect_usage_error "give one of them" --reps 3 --max-time 1
expect_usage_error "not a whole number" --warmup x
expect_usage_error "too large" --warmup 1001
expect_usage_error "not a whole number" --pin x
expect_usage_error "not a whole number" --pin -1
expect_usage_error "too large" --pin 99999
# The highest CPU number a cpu_set_t holds, which no test machine has.
expect_usage_error "CPU 1023 is not available to this process (available: " --pin 1023
expect_usage_error "needs a value" --pin
expect_usage_error "too small" --batch 0
expect_usage_error "not a whole number" --batch 2.5

if [ -n "$(ls | grep -v -e '^out.txt$' -e '^err.txt$')" ]; then
    echo "FAIL: a refused command left files behind:" >&2
    ls -la >&2
    failures=$((failures + 1))
fi

expect_ok --precision 0.5 --max-time 0.05
expect_ok --reps 3 --precision 5
expect_ok --warmup 0
expect_ok --warmup 3 --reps 2
expect_ok --batch 3
expect_ok --pin "$(grep -m1 -o '^[0-9]*' /sys/fs/cgroup/cpuset.cpus.effective 2>/dev/null || echo 0)"

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
