#!/bin/sh
# A run survives its plug-ins (tests/plugin_misbehaving.c): one that exits, crashes, aborts or
# corrupts the heap, in a one-process run (--reps) and in worker processes, gets its rows
# FAILED with the cause, named on stderr, every other row written (CSV and JSON) and exit 1;
# a process killed from outside (SIGKILL) is measured again once, and the second loss ends the
# run (exit 3; worker processes: the finished results kept, marked incomplete); a symbol that
# names a data object is a usage error. Nothing is left in TMPDIR nor beside the files.
#   tests/test_isolation.sh QSORTBENCH PLUGIN.so one      the above in a one-process run
#   tests/test_isolation.sh QSORTBENCH PLUGIN.so workers  the above with worker processes
#   tests/test_isolation.sh QSORTBENCH PLUGIN.so jobs     the same, two workers at once
#   tests/test_isolation.sh QSORTBENCH PLUGIN.so hang     a plug-in that loops or stops itself:
#                                                         killed past its deadline (5 s, 8 s)
# Under ASan a crash is reported by the sanitizer, which exits with a status of its own: the
# cause is then "exited with status N", which the checks accept in a sanitized build.
set -u
BIN=$1
PLUGIN=$2
WHAT=$3
. "$(dirname "$0")/check.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/tmp"
export TMPDIR="$dir/tmp"
CELLS=4 # 2 patterns x 2 counts
ONE="--reps 3"
WORKERS="--processes 2"
JOBS="" # --jobs 2 in the "jobs" mode: the failures among workers in flight side by side
if [ "$WHAT" = jobs ]; then JOBS="--jobs 2"; WORKERS="--processes 2 $JOBS"; fi

run() { # run MODE ARGS...: status in $st; r.csv, r.json, out, err in $dir
    mode=$1
    shift
    rm -f "$dir/r.csv" "$dir/r.json"
    # shellcheck disable=SC2086
    "$BIN" run --nelem 300:600 --sizes 4 --patterns random,sorted -q $mode \
        --csv "$dir/r.csv" --json "$dir/r.json" "$@" >"$dir/out" 2>"$dir/err"
    st=$?
}
field() { # field NAME ALGORITHM: that column of the algorithm's CSV rows, one a line
    awk -F, -v name="$1" -v algo="$2" 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $4 == algo { print $(at[name]) }' "$dir/r.csv"
}
rows_with() { # rows_with NAME ALGORITHM VALUE-REGEX: how many of its rows match
    field "$1" "$2" | grep -Ec "^($3)\$"
}
nothing_left() {
    [ -z "$(ls -A "$TMPDIR")" ] && [ -z "$(find "$dir" -maxdepth 1 -name '*.tmp*')" ]
}
no_files() { [ ! -e "$dir/r.csv" ] && [ ! -e "$dir/r.json" ]; }
sanitized() { grep -q '"sanitized":[[:space:]]*true' "$dir/r.json" 2>/dev/null; }

# plug-in NAME fails with CAUSE (a regex) in MODE: the others measured, all written
expect_failed() {
    name=$1 cause=$2 mode=$3
    run "$mode" --algos "msort,$PLUGIN:$name,introsort"
    if sanitized; then cause="$cause|crashed: signal [0-9]+|exited with status [0-9]+"; fi
    check "$name ($mode): exit 1" [ "$st" -eq 1 ]
    check "$name ($mode): msort rows verified" [ "$(rows_with verified msort true)" -eq $CELLS ]
    check "$name ($mode): introsort rows verified" \
        [ "$(rows_with verified introsort true)" -eq $CELLS ]
    check "$name ($mode): its rows FAILED with the cause" \
        [ "$(rows_with failure "$name" "$cause")" -eq $CELLS ]
    check "$name ($mode): the JSON says so" \
        grep -Eq "\"failure\":[[:space:]]*\"($cause)\"" "$dir/r.json"
    check "$name ($mode): the table says so" grep -Eq "FAILED \\($name: ($cause)\\)" "$dir/out"
    check "$name ($mode): named on stderr" \
        grep -Eq "^qsortbench: warning: .*$name ($cause) in cell" "$dir/err"
    check "$name ($mode): nothing left" nothing_left
}

if [ "$WHAT" = hang ]; then
    expect_failed loop_sort "timed out after [0-9]+ s" "--budget 1s"
    expect_failed stop_sort "timed out after [0-9]+ s" "$ONE"
    check_done
    exit
fi

if [ "$WHAT" = one ]; then MODE=$ONE; else MODE=$WORKERS; fi
expect_failed exit_sort "exited with status 0" "$MODE"
expect_failed _exit_sort "exited with status 0" "$MODE"
expect_failed crash_sort "crashed: signal 11" "$MODE"
expect_failed abort_sort "crashed: signal 6" "$MODE"
expect_failed heap_sort "crashed: signal 6" "$MODE"

# killed from outside once: measured again, nothing lost
export KILL_SORT_FILE="$dir/killed" KILL_SORT_TIMES=1
rm -f "$KILL_SORT_FILE"
if [ "$WHAT" = one ]; then
    KILL_SORT_FROM=1 run "$ONE" --algos "msort,$PLUGIN:kill_sort" # the measuring process
else
    KILL_SORT_FROM=2 run "--processes 3 $JOBS" --algos "msort,$PLUGIN:kill_sort" # the second worker
fi
check "killed once: exit 0" [ "$st" -eq 0 ]
check "killed once: every row" [ "$(rows_with verified kill_sort true)" -eq $CELLS ]
check "killed once: complete" [ "$(rows_with incomplete msort false)" -eq $CELLS ]
check "killed once: said" grep -q "killed: signal 9" "$dir/err"
check "killed once: nothing left" nothing_left

# killed twice: the run ends; worker processes keep the first worker's results, incomplete
export KILL_SORT_TIMES=2
rm -f "$KILL_SORT_FILE"
if [ "$WHAT" = one ]; then
    KILL_SORT_FROM=1 run "$ONE" --algos "msort,$PLUGIN:kill_sort"
    check "killed twice (one process): exit 3" [ "$st" -eq 3 ]
    check "killed twice (one process): no files" no_files
    check "killed twice (one process): nothing left" nothing_left
else
    KILL_SORT_FROM=2 run "--processes 3 $JOBS" --algos "msort,$PLUGIN:kill_sort"
    check "killed twice (workers): exit 3" [ "$st" -eq 3 ]
    check "killed twice (workers): the first worker's rows" \
        [ "$(rows_with verified kill_sort true)" -eq $CELLS ]
    check "killed twice (workers): CSV incomplete" \
        [ "$(rows_with incomplete msort true)" -eq $CELLS ]
    check "killed twice (workers): JSON incomplete" \
        grep -q '"incomplete":[[:space:]]*true' "$dir/r.json"
    check "killed twice (workers): said" grep -q "^qsortbench: error: the run ended early" "$dir/err"
    check "killed twice (workers): nothing left" nothing_left
fi
unset KILL_SORT_FILE KILL_SORT_FROM KILL_SORT_TIMES

# a data object is no sort: refused before any work
run "$MODE" --algos "msort,$PLUGIN:notafunc"
check "notafunc: exit 2" [ "$st" -eq 2 ]
check "notafunc: said" grep -q "^qsortbench: error: .*notafunc is not a function" "$dir/err"
check "notafunc: nothing left" nothing_left
check_done
