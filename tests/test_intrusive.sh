#!/bin/sh
# Plug-ins that reach outside their sort (tests/plugin_intrusive.c), through the real binary:
#   tests/test_intrusive.sh QSORTBENCH LIBPLUGIN_INTRUSIVE.so CASE
# CASE late: plug-in code that writes into an array after its sort returned FAILs that
#   plug-in's rows ("wrote into the array after returning"), never another algorithm's, in a
#   one-process run and in worker processes.
# CASE leftovers: processes that plug-in code forks (in its sort, in its library's
#   constructor) and leaves running are killed when the process that ran it ends, and named
#   on stderr; `--csv - | ...` ends with the run, in a one-process run, with worker processes
#   and in the audit.
# Only outcomes are asserted; every wait is for an event (a process's end, a file's creation).
set -u
BIN=$1
PLUGIN=$2
CASE=$3
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $PLUGIN in /*) ;; *) PLUGIN=$PWD/$PLUGIN ;; esac
. "$(dirname "$0")/check.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/tmp"
export TMPDIR="$dir/tmp"
CELLS=4 # 2 patterns x 2 counts
M="--nelem 300:600 --sizes 4 --patterns random,sorted -q"

run() { # run ARGS...: status in $st; r.csv, r.json, out, err in $dir
    rm -f "$dir/r.csv" "$dir/r.json"
    # shellcheck disable=SC2086
    "$BIN" run $M --csv "$dir/r.csv" --json "$dir/r.json" "$@" >"$dir/out" 2>"$dir/err"
    st=$?
}
rows_with() { # rows_with NAME ALGORITHM VALUE-REGEX: how many of its CSV rows match
    awk -F, -v name="$1" -v algo="$2" 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $4 == algo { print $(at[name]) }' "$dir/r.csv" | grep -Ec "^($3)\$"
}
nothing_left() {
    [ -z "$(ls -A "$TMPDIR")" ] && [ -z "$(find "$dir" -maxdepth 1 -name '*.tmp*')" ]
}

late() {
    for mode in "--reps 5" "--processes 2"; do
        # shellcheck disable=SC2086
        run $mode --algos "msort,late=$PLUGIN:late_write_sort,trigger=$PLUGIN:late_trigger_sort,introsort"
        at="late ($mode)"
        check "$at: exit 1" [ "$st" -eq 1 ]
        check "$at: its rows FAILED with the cause" \
            [ "$(rows_with failure late 'wrote into the array after returning')" -eq $CELLS ]
        for other in msort trigger introsort; do
            check "$at: $other's rows verified" [ "$(rows_with verified $other true)" -eq $CELLS ]
        done
        check "$at: the table says so" \
            grep -q "FAILED (late: wrote into the array after returning)" "$dir/out"
        check "$at: nothing left" nothing_left
    done
}

# The children the plug-in left hold a shared lock on the log of their pids while they live.
all_ended() { flock -n -x "$QSB_TEST_PID_LOG" true; }
kill_logged() { [ -f "$QSB_TEST_PID_LOG" ] && xargs kill -9 <"$QSB_TEST_PID_LOG" 2>/dev/null; }

leftovers() {
    export QSB_TEST_PID_LOG="$dir/pids"
    trap 'kill_logged; rm -rf "$dir"' EXIT
    for how in "--reps 3 fork_sort" "--processes 2 fork_sort" "--reps 3 constructor"; do
        set -- $how
        mode="$1 $2" symbol=$3
        rm -f "$QSB_TEST_PID_LOG"
        if [ "$symbol" = constructor ]; then
            export QSB_TEST_CONSTRUCTOR=fork
            symbol=plain=$PLUGIN:late_write_sort
        else
            symbol=$PLUGIN:$symbol
        fi
        # The pipeline ends when every writer of the pipe has: the run and what it left.
        # shellcheck disable=SC2086
        timeout -s KILL 120 "$BIN" run $M $mode --algos "msort,$symbol" --csv - \
            --json "$dir/r.json" 2>"$dir/err" | cat >"$dir/out"
        st=$?
        unset QSB_TEST_CONSTRUCTOR
        at="leftovers ($how)"
        check "$at: the pipeline ended with the run" [ "$st" -eq 0 ]
        check "$at: the CSV on stdout, nothing else" [ "$(wc -l <"$dir/out")" -eq $((2 * CELLS + 1)) ]
        check "$at: the plug-in left processes" [ -s "$QSB_TEST_PID_LOG" ]
        check "$at: named on stderr" \
            grep -Eq "^qsortbench: warning: .* left [0-9]+ process(es)? running \(pid [0-9]+.*; (it was|they were) killed" "$dir/err"
        check "$at: every one of them ended" all_ended
        check "$at: nothing left" nothing_left
    done
    rm -f "$QSB_TEST_PID_LOG"
    timeout -s KILL 120 "$BIN" audit --quick --algos "$PLUGIN:fork_sort" --csv "$dir/a.csv" \
        2>"$dir/err" | cat >"$dir/out"
    check "leftovers (audit): a row for the plug-in" grep -q '^"fork_sort",' "$dir/a.csv"
    check "leftovers (audit): named on stderr" \
        grep -q "^qsortbench: warning: an audit probe left 1 process running" "$dir/err"
    check "leftovers (audit): every one of them ended" all_ended
}

case $CASE in
late) late ;;
leftovers) leftovers ;;
*) fail "unknown case $CASE" ;;
esac
check_done
