#!/bin/sh
# The command line of `qsortbench run`: every bad one must exit 2 with exactly one line on
# stderr, "qsortbench: error: ...", print nothing on stdout, and create no file (no results/);
# good values of the measurement options are accepted (a tiny run with each).
# Usage: test_run_cli.sh path/to/qsortbench
set -u
bin=$1
sysfs=$(cd "$(dirname "$0")/fixtures/sysfs" && pwd) || exit 1
# Nothing here may depend on the host's sysfs: the machine is a fixture without caches (as on
# VMs that hide them), unless a case says otherwise.
QSB_SYSFS_CPU_ROOT=$sysfs/empty
export QSB_SYSFS_CPU_ROOT
work=$(mktemp -d "${TMPDIR:-/tmp}/qsb-run-cli-XXXXXX") || exit 1
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

expect_usage_error "not a whole number" --nelem 12x
expect_usage_error "too small" --nelem 0
expect_usage_error "out of range (must be ≥ 1)" --nelem -1
expect_usage_error "too large" --nelem 99999999999999999999
expect_usage_error "empty element" --nelem 1::2
expect_usage_error "empty element" --nelem 1000:
expect_usage_error "listed twice" --nelem 1000:1000
expect_usage_error "too small" --sizes 0
expect_usage_error "not a whole number" --sizes 4,x
expect_usage_error "unknown pattern 'nosuch'" --patterns nosuch
expect_usage_error "unknown algorithm 'nosuch' (valid: .*msort" --algos nosuch
expect_usage_error "listed twice" --algos msort,msort
# libbsd's mergesort fails (EINVAL) below half a pointer: a usage error, never a FAILED row.
expect_usage_error "bsd-mergesort sorts elements of [0-9]* bytes or more.*--sizes has 1" \
    --algos msort,bsd-mergesort --sizes 8,1
expect_usage_error "unknown metric 'foo'" --metric foo
expect_usage_error "unknown mode" --compat glibc-bench-1999
expect_usage_error "too small" --reps 0
expect_usage_error "too large" --seed 0x1000000000000
expect_usage_error "unknown option" --nosuch
expect_usage_error "needs a value" --nelem
expect_usage_error "no operands" --nelem 1000 stray
expect_usage_error "cannot both be" --csv - --json -
expect_usage_error "--reference: cannot read 'nosuch.csv': No such file or directory (or use" --reference nosuch.csv --nelem 100
expect_usage_error "cannot create 'nodir/r.csv'" --nelem 100 --csv nodir/r.csv --json r.json
expect_usage_error "need" --nelem 1000000000000 --sizes 32
# The reference table is read by the one input reader: regular files only.
expect_usage_error "'/dev/zero' is a character device: only regular files" --reference /dev/zero \
    --nelem 100
mkfifo pipe
expect_usage_error "'pipe' is a FIFO (pipe): only regular files" --reference pipe --nelem 100
rm -f pipe
# Two outputs on one destination, however spelled: refused before any file is created.
expect_usage_error "--csv and --export name the same file" --nelem 100 \
    --export gbench=o.csv --csv ./o.csv --json r.json
expect_usage_error "--csv and --export both write to standard output" --nelem 100 \
    --export gbench=- --csv - --json r.json
mkdir sub
expect_usage_error "--json and --export name the same file" --nelem 100 --json sub/../j.json \
    --export gbench=j.json --csv r.csv
rmdir sub
printf 'pattern,nelem,size,delta_pct,master_msort,patches_introsort\nSORTED,49152,4,x,1,2\n' >bad.csv
expect_usage_error "bad.csv:2:" --reference bad.csv --nelem 100

expect_usage_error "must be above 0" --precision 0
expect_usage_error "not a number" --precision x
expect_usage_error "out of range (must be ≥ 0)" --precision -1
expect_usage_error "out of range" --precision 101
expect_usage_error "must be above 0" --budget 0
expect_usage_error "is not a duration" --budget 1x
expect_usage_error "not a number" --budget 1.2.3s
expect_usage_error "give one of them" --reps 3 --budget 1m
expect_usage_error "unknown regime 'nowhere'" --placement nowhere
expect_usage_error "not a whole number" --warmup x
expect_usage_error "too large" --warmup 1001
expect_usage_error "not a whole number" --pin x
expect_usage_error "out of range (must be ≥ 0)" --pin -1
expect_usage_error "too large" --pin 99999
# The highest CPU number a cpu_set_t holds, which no test machine has.
expect_usage_error "CPU 1023 is not available to this process (available: " --pin 1023
expect_usage_error "needs a value" --pin
expect_usage_error "too small" --batch 0
expect_usage_error "not a whole number" --batch 2.5
expect_usage_error "too small" --processes 0
expect_usage_error "not a whole number" --processes x
expect_usage_error "too large" --processes 10001
expect_usage_error "give --processes 1 or --budget" --processes 3 --reps 2
expect_usage_error "is not K:SLICE" --worker 0.5
expect_usage_error "too small" --worker 0:0.5
expect_usage_error "must be above 0" --worker 1:0
expect_usage_error "the list of cells is empty" --worker 1:0.5:
expect_usage_error "is not a list of cells" --worker 1:0.5:1,,2
expect_usage_error "too large (at most 44)" --worker 1:0.5:45
expect_usage_error "must be above 0" --tsc-hz 0

if [ -e results ] || [ -n "$(ls | grep -v -e '^out.txt$' -e '^err.txt$' -e '^bad.csv$')" ]; then
    echo "FAIL: a refused command left files behind:" >&2
    ls -la >&2
    failures=$((failures + 1))
fi

expect_ok --precision 0.5 --budget 0.5s
expect_ok --reps 3 --precision 5
expect_ok --warmup 0 --reps 2
expect_ok --warmup 3 --reps 2
expect_ok --batch 3 --reps 2
expect_ok --placement near --reps 2
expect_ok --no-reload --budget 0.2s
expect_ok --processes 2
expect_ok --processes 1 --budget 0.2s
expect_ok --worker 2:0.001
expect_ok --reps 2 --pin "$(grep -m1 -o '^[0-9]*' /sys/fs/cgroup/cpuset.cpus.effective 2>/dev/null || echo 0)"

# --nelem auto follows the sysfs root: the seed's counts and one warning when it has no cache
# sizes (only once a run starts), the capacity rule when it has them; the source is recorded.
expect_auto() {
    root=$1 want_counts=$2 want_source=$3 want_warnings=$4
    QSB_SYSFS_CPU_ROOT=$sysfs/$root "$bin" info >out.txt 2>err.txt
    if ! grep -q "^nelem auto  $want_counts" out.txt; then
        fail "info with sysfs $root: want nelem auto $want_counts"
    else
        passed=$((passed + 1))
    fi
    QSB_SYSFS_CPU_ROOT=$sysfs/$root "$bin" --nelem auto --sizes 4 --patterns sorted \
        --algos msort --reps 1 --csv a.csv --json a.json -q --metric comparisons >out.txt 2>err.txt
    status=$?
    warnings=$(grep -c 'warning: --nelem auto: no cache sizes' err.txt)
    if [ "$status" -ne 0 ] || [ "$warnings" -ne "$want_warnings" ] ||
        ! grep -q "\"nelem_source\":[[:space:]]*\"$want_source" a.json; then
        fail "run --nelem auto with sysfs $root -> status $status, $warnings warning(s)"
    else
        passed=$((passed + 1))
    fi
    rm -f a.csv a.json
}
expect_auto empty "49152:786432:" "--nelem auto: no cache sizes in sysfs: the seed's 49,152" 1
expect_auto no-l3 "16384:" "--nelem auto: L1d 128 KiB: 16,384; L2 1 MiB: 131,072 (its size / 8)" 0

# The memory bound: a size above 0; a matrix whose buffers pass it is refused before any
# work, naming the largest count that fits; by default a quarter of the machine's memory
# (a 2 GiB fixture: 512 MiB, which 8,388,608 elements of 32 bytes pass).
expect_usage_error "out of range (must be above 0)" --memory 0
expect_usage_error "not a size" --memory 4X
expect_usage_error "not a size" --memory 1.5G
expect_usage_error "the largest count that fits with --sizes up to 32: " --nelem 1000000 --sizes 32 \
    --memory 64M
QSB_MEMINFO=$(dirname "$sysfs")/meminfo/small-2g
export QSB_MEMINFO
expect_usage_error "beyond its memory bound of 512.0 MiB (a quarter of this machine's" \
    --nelem 8388608 --sizes 32
unset QSB_MEMINFO
# A budget that cannot hold one worker process of every cell: refused before any sort, the
# budget that would hold it named (a worker's start alone is estimated at 20 ms).
expect_usage_error "cannot hold one worker process of this matrix's 1 cells" --nelem 200 \
    --sizes 4 --patterns sorted --budget 0.001s --csv r.csv --json r.json

# --help shows what a user needs in at most 45 lines; --help-all every option, a worker
# process's own ones too.
"$bin" run --help >out.txt 2>err.txt
lines=$(wc -l <out.txt)
if [ "$lines" -gt 45 ] || grep -q -e '--worker' -e '--memory' out.txt ||
    ! grep -q -e '--help-all' out.txt; then
    fail "run --help: $lines lines (at most 45), no --worker nor --memory, --help-all named"
else
    passed=$((passed + 1))
fi
"$bin" run --help-all >out.txt 2>err.txt
if ! grep -q -e '--worker K:SLICE' out.txt || ! grep -q -e '--memory SIZE' out.txt; then
    fail "run --help-all: --worker and --memory"
else
    passed=$((passed + 1))
fi

echo "$passed passed, $failures failed"
[ "$failures" -eq 0 ]
