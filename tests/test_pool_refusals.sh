#!/bin/sh
# Pooling (merge --pool) and calibration (compare --calibration) take only separate runs of
# one command: the same run twice, in one format or two (its run id, or for timed runs its
# samples), is exit 2 "the same run"; runs of
# another metric, matrix or algorithm (the same name, another symbol of the library) are exit
# 2 naming that first difference, in one error line. Fewer runs than an interval needs pool
# with a warning that says so.
# Usage: test_pool_refusals.sh PATH/TO/qsortbench PATH/TO/libplugin_example.so
set -u
bin=$1
plugin=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
. "$(dirname "$0")/check.sh"


T="--nelem 200 --sizes 4 --patterns random --reps 3 -q"
C="--nelem 200 --sizes 4 --patterns random --metric comparisons -q"
"$bin" run $T --json t1.json --csv t1.csv >/dev/null 2>>run.err || fail "timed run 1"
"$bin" run $T --json t2.json --csv t2.csv >/dev/null 2>>run.err || fail "timed run 2"
"$bin" run $T --nelem 300 --json wide.json --csv /dev/null >/dev/null 2>>run.err || fail "other matrix"
"$bin" run $C --json counted.json --csv counted.csv >/dev/null 2>>run.err || fail "counted run"
"$bin" run $C --json counted2.json --csv /dev/null >/dev/null 2>>run.err || fail "counted run 2"
"$bin" run $C --algos "msort,cand=$plugin:plain_introsort" --json plain.json --csv /dev/null \
    >/dev/null 2>>run.err || fail "plain plug-in run"
"$bin" run $C --algos "msort,cand=$plugin:slow_introsort_10pct" --json slow.json \
    --csv /dev/null >/dev/null 2>>run.err || fail "slow plug-in run"

# the same run twice
check_refused "t1.json and t1.csv are the same run" "$bin" merge --pool t1.json t1.csv -o x.json
check_refused "are the same run" "$bin" merge --pool t1.json t2.json t1.json -o x.json
check_refused "are the same run" "$bin" compare --calibration t1.json t1.json
check_refused "are the same run" "$bin" compare --calibration t1.json t1.csv
# counted runs repeat their counts exactly: only the run id tells the same run from another
check_refused "counted.json and counted.csv are the same run: the same run id" \
    "$bin" merge --pool counted.json counted.csv -o x.json
check_refused "are the same run" "$bin" compare --calibration counted.csv counted.json
check "no file from a refused pool" test ! -e x.json
"$bin" merge --pool counted.json counted2.json -o counted-pooled.json >out 2>err
check_same "$?" 0 "two counted runs pooled"

# another command
check_refused "another metric" "$bin" merge --pool t1.json counted.json -o x.json
check_refused "another metric" "$bin" compare --calibration t1.json counted.json
check_refused "another matrix: --nelem" "$bin" merge --pool t1.json wide.json -o x.json
check_refused "another matrix: --nelem" "$bin" compare --calibration t1.json wide.json
check_refused "another algorithm: .*slow_introsort_10pct" "$bin" merge --pool plain.json slow.json -o x.json
check_refused "another algorithm: .*slow_introsort_10pct" "$bin" compare --calibration plain.json slow.json

# two separate runs pool, and say that they give no intervals
"$bin" merge --pool t1.json t2.json -o pooled.json >out 2>err
check_same "$?" 0 "two runs pooled"
grep -q '^qsortbench: warning: merge --pool: 2 runs give medians and deltas without intervals' err &&
    ok || fail "no warning below the runs an interval needs: $(cat err)"
"$bin" compare --calibration t1.json t2.json >out 2>err
check_same "$?" 0 "two separate runs calibrated"
check_done
