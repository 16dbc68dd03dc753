#!/bin/sh
# Worker processes side by side (--jobs): with tests/plugin_misbehaving.c's pair_sort, whose
# first sort in a process waits until a second process has reached it, a run of --jobs 2
# finishes only when two workers were in flight at once; its context says how many ran at
# once. A stop (SIGTERM) while two workers are held in flight stops both: exit 143, the files
# complete and marked incomplete, no worker left running, nothing left in TMPDIR; so does the
# budget's end where a worker outlasts it (slow_sort). The option's bad values are usage
# errors.
#   tests/test_jobs.sh QSORTBENCH PLUGIN.so
set -u
BIN=$1
PLUGIN=$2
. "$(dirname "$0")/check.sh"
dir=$(mktemp -d)
trap 'touch "$dir/pair/release" 2>/dev/null; rm -rf "$dir"' EXIT
mkdir "$dir/tmp" "$dir/pair"
export TMPDIR="$dir/tmp"
CELLS=4 # 2 patterns x 2 counts

run() { # run ARGS...: status in $st; r.csv, r.json, out, err in $dir
    rm -f "$dir/r.csv" "$dir/r.json"
    "$BIN" run --nelem 300:600 --sizes 4 --patterns random,sorted -q \
        --algos "msort,$PLUGIN:pair_sort" --csv "$dir/r.csv" --json "$dir/r.json" "$@" \
        >"$dir/out" 2>"$dir/err"
    st=$?
}
field() { # field NAME ALGORITHM: that column of the algorithm's CSV rows, one a line
    awk -F, -v name="$1" -v algo="$2" 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $4 == algo { print $(at[name]) }' "$dir/r.csv"
}
rows_with() { field "$1" "$2" | grep -Ec "^($3)\$"; }
nothing_left() { [ -z "$(ls -A "$TMPDIR")" ]; }
count_files() { find "$dir/pair" -name "$1" | wc -l; }

# two at once: the pair meets, every row measured and verified
PAIR_SORT_DIR="$dir/pair" run --processes 4 --jobs 2
check "two at once: exit 0 (got $st)" [ "$st" -eq 0 ]
[ "$st" -eq 0 ] || cat "$dir/err" >&2
check "two at once: every pair_sort row verified" \
    [ "$(rows_with verified pair_sort true)" -eq $CELLS ]
check "two at once: complete" [ "$(rows_with incomplete msort false)" -eq $CELLS ]
check "two at once: 4 processes, 2 at once in the context" \
    grep -q '"repetitions":[[:space:]]*"processes: 4 worker processes (2 at once)' "$dir/r.json"
check "two at once: the processes met" [ "$(count_files '[0-9]*')" -ge 2 ]
check "two at once: nothing left" nothing_left

# one after the other is the default, said in the context
rm -f "$dir/pair"/*
run --processes 2 --algos msort,introsort
check "default: exit 0" [ "$st" -eq 0 ]
check "default: one after the other" \
    grep -q '"repetitions":[[:space:]]*"processes: 2 worker processes (one after the other)' \
    "$dir/r.json"

# a stop with two workers held in flight (in their second cell): both stop, the files are
# written, marked incomplete, with the cell a stopped worker finished
rm -f "$dir/pair"/*
PAIR_SORT_DIR="$dir/pair" PAIR_SORT_HOLD_N=600 \
    "$BIN" run --nelem 300:600 --sizes 4 --patterns random,sorted -q --processes 4 --jobs 2 \
    --algos "msort,$PLUGIN:pair_sort" --csv "$dir/r.csv" --json "$dir/r.json" \
    >"$dir/out" 2>"$dir/err" &
pid=$!
waited=0 # the event decides; the count only ends a run that never gets there
while [ "$(count_files '*.held')" -lt 2 ] && [ $waited -lt 600 ]; do
    sleep 0.05
    waited=$((waited + 1))
done
check "stop: two workers held in flight" [ "$(count_files '*.held')" -eq 2 ]
held=$(find "$dir/pair" -name '*.held' -exec basename {} .held \;)
kill -s TERM $pid
touch "$dir/pair/release"
wait $pid
st=$?
check "stop: exit 143 (got $st)" [ "$st" -eq 143 ]
[ "$st" -eq 143 ] || cat "$dir/err" >&2
check "stop: said" grep -q "^qsortbench: error: interrupted" "$dir/err"
check "stop: JSON incomplete" grep -q '"incomplete":[[:space:]]*true' "$dir/r.json"
check "stop: the finished cell kept" [ "$(rows_with verified pair_sort true)" -ge 1 ]
check "stop: CSV rows incomplete" [ "$(rows_with incomplete msort false)" -eq 0 ]
for p in $held; do
    check "stop: worker $p ended" sh -c "! kill -0 $p 2>/dev/null"
done
check "stop: nothing left" nothing_left
check "stop: no temporary file" [ -z "$(find "$dir" -maxdepth 1 -name '*.tmp*')" ]

# the budget holds where its estimate was short: slow_sort sleeps 0.4 s a call, so the first
# worker needs over 7 s for 9 cells (a counted and a timed sort each) where its
# estimate is milliseconds; its end comes no later than 6 s (after a hung sort's 5 s stall
# deadline), where the run stops it, says so, and writes what it finished, marked incomplete:
# exit 3, nothing left running
"$BIN" run --nelem 100:200:300 --sizes 4 --patterns random,sorted,reversed -q --budget 1s \
    --algos "msort,$PLUGIN:slow_sort" --csv "$dir/r.csv" --json "$dir/r.json" \
    >"$dir/out" 2>"$dir/err"
st=$?
check "out of time: exit 3 (got $st)" [ "$st" -eq 3 ]
check "out of time: said" grep -q "warning: the budget ran out before the first worker process" \
    "$dir/err"
check "out of time: JSON incomplete" grep -q '"incomplete":[[:space:]]*true' "$dir/r.json"
check "out of time: nothing left" nothing_left

# bad values
for bad in 0 x 65 -1; do
    run --jobs "$bad"
    check "--jobs $bad: exit 2" [ "$st" -eq 2 ]
    check "--jobs $bad: one error line" [ "$(grep -c '^qsortbench: error: .*--jobs' "$dir/err")" -eq 1 ]
done
run --jobs 2 --pin 0
check "--jobs 2 --pin 0: exit 2" [ "$st" -eq 2 ]
check "--jobs 2 --pin 0: said" grep -q "^qsortbench: error: --jobs 2 with --pin" "$dir/err"
check_done
