#!/bin/sh
# Plug-ins (src/plugins/plugins.h) and run's --export / --fail-above, through the real binary:
#   tests/test_plugin.sh QSORTBENCH LIBPLUGIN_EXAMPLE.so
# A plug-in that sorts wrongly is FAILED (exit 1); a missing file or symbol, a bad spec and a
# registry name are usage errors (2); a qsort-signature plug-in makes exactly the comparator
# calls of the same sort behind qsort_r (so the trampoline carries the counter); the gbench
# export and the gate work end to end. Only comparisons are asserted, never timings.
set -u
BIN=$1
PLUGIN=$2
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $PLUGIN in /*) ;; *) PLUGIN=$PWD/$PLUGIN ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/check.sh"
run() { # run ARGS...: status in $st, stdout in out, stderr in err
    "$BIN" run --nelem 1000 --sizes 4 --patterns random --reps 3 -q \
        --csv "$dir/r.csv" --json "$dir/r.json" "$@" >"$dir/out" 2>"$dir/err"
    st=$?
}
column() { # column NAME ALGORITHM: that field of the algorithm's CSV rows
    awk -F, -v name="$1" -v algo="$2" 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $4 == algo { print $(at[name]) }' "$dir/r.csv"
}

run --algos "introsort,$PLUGIN:broken_sort"
check_eval '[ $st -eq 1 ]'
check_eval 'grep -q "FAILED (broken_sort: not sorted" "$dir/out"'
check_eval '[ "$(column verified broken_sort)" = false ]'
check_eval 'grep -q "^qsortbench: error: 1 result(s) failed verification" "$dir/err"'

run --algos "introsort,$PLUGIN:no_such_symbol"
check_eval '[ $st -eq 2 ] && grep -q "undefined symbol: no_such_symbol" "$dir/err"'
run --algos "introsort,$dir/missing.so:plain_introsort"
check_eval '[ $st -eq 2 ] && grep -q "cannot open shared object file" "$dir/err"'
run --algos "introsort,x=:plain_introsort"
check_eval '[ $st -eq 2 ] && grep -q "expected \[NAME=\]PATH.so:SYMBOL" "$dir/err"'
run --algos "introsort,msort=$PLUGIN:plain_introsort"
check_eval '[ $st -eq 2 ] && grep -q "NAME is a registry algorithm" "$dir/err"'
run --algos "introsort,$PLUGIN:plain_introsort,$PLUGIN:plain_introsort"
check_eval '[ $st -eq 2 ] && grep -q "listed twice" "$dir/err"'

# the same introsort behind qsort_r, behind qsort (the trampoline), and the registry's
run --metric comparisons --algos "introsort,q=$PLUGIN:introsort_qsort:qsort,$PLUGIN:plain_introsort"
check_eval '[ $st -eq 0 ]'
check_eval '[ -n "$(column comparisons introsort)" ]'
check_eval '[ "$(column comparisons q)" = "$(column comparisons introsort)" ]'
check_eval '[ "$(column comparisons plain_introsort)" = "$(column comparisons introsort)" ]'

# a plug-in named without a directory is found in the current directory
(cd "$(dirname "$PLUGIN")" && "$BIN" run --nelem 100 --sizes 8 --patterns random --reps 1 -q \
    --metric comparisons --algos "introsort,$(basename "$PLUGIN"):slow_introsort_3pct" \
    --csv "$dir/r.csv" --json "$dir/r.json" >/dev/null 2>"$dir/err")
st=$?
check_eval '[ $st -eq 0 ]'

# --export gbench, both spellings; comparisons cannot be exported
run --metric ns --algos "introsort,$PLUGIN:plain_introsort" --export gbench "$dir/g1.json"
check_eval '[ $st -eq 0 ] && grep -q "\"introsort/RANDOM/1000/4\"" "$dir/g1.json"'
check_eval 'grep -q "\"plain_introsort/RANDOM/1000/4_median\"" "$dir/g1.json"'
run --metric ns --algos introsort --export "gbench=$dir/g2.json"
check_eval '[ $st -eq 0 ] && grep -q "\"run_type\":[[:space:]]*\"aggregate\"" "$dir/g2.json"'
run --metric comparisons --export "gbench=$dir/g3.json"
check_eval '[ $st -eq 2 ] && [ ! -e "$dir/g3.json" ]'
run --metric ns --export "gbench=$dir/no/such/dir/g.json"
check_eval '[ $st -eq 2 ]'

# --fail-above on exact counts: introsort makes more comparisons than msort on random input
run --metric comparisons --algos msort,introsort --fail-above 1
check_eval '[ $st -eq 1 ] && grep -q "^qsortbench: error: --fail-above 1: introsort is +" "$dir/err"'
run --metric comparisons --algos introsort,msort --fail-above 1
check_eval '[ $st -eq 0 ]'
run --algos introsort --fail-above 1
check_eval '[ $st -eq 2 ] && grep -q "needs a candidate" "$dir/err"'
run --metric comparisons --algos msort,introsort --alpha 0.05
check_eval '[ $st -eq 2 ] && grep -q "give both" "$dir/err"'
run --metric comparisons --algos msort,introsort --fail-above 1 --alpha 1.5
check_eval '[ $st -eq 2 ]'
run --metric comparisons --algos msort,introsort --correction bh
check_eval '[ $st -eq 2 ] && grep -q "give both" "$dir/err"'
run --metric comparisons --algos msort,introsort --fail-above 1 --correction bonferroni
check_eval '[ $st -eq 2 ] && grep -q "is not holm, bh or none" "$dir/err"'
run --metric comparisons --algos msort,introsort --fail-above 1 --correction bh
check_eval '[ $st -eq 1 ] && grep -q "^qsortbench: error: --fail-above 1: introsort is +" "$dir/err"'

check_done
