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
# CASE stdout: what plug-in code prints on stdout (in its sort, in its constructor) never
#   reaches the tool's stdout (`--csv -` holds the CSV alone): it is on stderr after a notice.
# CASE descriptors: a plug-in that closes its process's descriptors or lowers RLIMIT_NOFILE
#   (in its sort or its constructor) has its rows FAILED with the cause; the other rows are
#   written, exit 1.
# CASE signals: SIGHUP stops a run as SIGTERM does (files written, marked incomplete, exit
#   129, no temporary file left), with worker processes and in one process; so do SIGTERM
#   (143) to a run whose plug-in ignores SIGTERM, SIGINT and SIGHUP, and SIGQUIT (131); a
#   stdout nobody reads makes the write fail (exit 3, one error line, nothing left).
# CASE blocked: a one-process run (--reps 100, --reps 600) whose plug-in ignores the stop
#   signals and never returns from a sort of the last unit: SIGTERM (or SIGHUP), and after
#   the grace the measuring process is killed; the cells finished before are written all the
#   same, marked incomplete, exit 143 (129), nothing left.
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

stdout() {
    for how in "--reps 3 sort" "--processes 2 sort" "--reps 3 constructor" \
        "--processes 2 constructor"; do
        set -- $how
        mode="$1 $2"
        if [ "$3" = constructor ]; then
            export QSB_TEST_CONSTRUCTOR=print
            algos="msort,quiet=$PLUGIN:late_write_sort"
        else
            algos="msort,$PLUGIN:print_sort"
        fi
        # shellcheck disable=SC2086
        "$BIN" run $M $mode --algos "$algos" --csv - --json "$dir/r.json" >"$dir/out" 2>"$dir/err"
        st=$?
        unset QSB_TEST_CONSTRUCTOR
        at="stdout ($how)"
        check "$at: exit 0" [ "$st" -eq 0 ]
        check "$at: the CSV alone on stdout" [ "$(wc -l <"$dir/out")" -eq $((2 * CELLS + 1)) ]
        check "$at: nothing of the plug-in on stdout" not grep -q "standard output\|stdio" "$dir/out"
        check "$at: the notice" grep -q "^qsortbench: warning: plug-in code.* wrote [0-9]* bytes on standard output" "$dir/err"
        check "$at: nothing left" nothing_left
    done
    for how in "--reps 3" "--processes 2"; do
        # shellcheck disable=SC2086
        "$BIN" run $M $how --algos "msort,$PLUGIN:print_sort" --csv - --json "$dir/r.json" \
            >"$dir/out" 2>"$dir/err"
        check "stdout ($how): its lines on stderr" \
            grep -q "^print_sort: a line on standard output" "$dir/err"
    done
    "$BIN" audit --quick --algos "$PLUGIN:print_sort" >"$dir/out" 2>"$dir/err"
    check "stdout (audit): nothing of the plug-in on stdout" \
        not grep -q "standard output\|stdio" "$dir/out"
    check "stdout (audit): the notice" grep -q "^qsortbench: warning: plug-in code in an audit probe wrote" "$dir/err"
}

descriptors() {
    for how in "--reps 3 close_sort" "--processes 2 close_sort" "--reps 3 nofile_sort" \
        "--processes 2 nofile_sort" "--reps 3 constructor" "--processes 2 constructor"; do
        set -- $how
        mode="$1 $2" name=$3
        if [ "$name" = constructor ]; then
            export QSB_TEST_CONSTRUCTOR=close
            algos="msort,$name=$PLUGIN:late_write_sort,introsort"
            cause="closed the (worker|measuring process)'s descriptors \(fd [0-9]+\)"
        else
            algos="msort,$PLUGIN:$name,introsort"
            cause="closed the (worker|measuring process)'s descriptors \(fd [0-9]+\)"
            [ "$name" = nofile_sort ] && cause="lowered the (worker|measuring process)'s limit of open files \(RLIMIT_NOFILE\) to 3"
        fi
        # shellcheck disable=SC2086
        run $mode --algos "$algos"
        unset QSB_TEST_CONSTRUCTOR
        at="descriptors ($how)"
        check "$at: exit 1" [ "$st" -eq 1 ]
        check "$at: its rows FAILED with the cause" [ "$(rows_with failure "$name" "$cause")" -eq $CELLS ]
        check "$at: msort's rows verified" [ "$(rows_with verified msort true)" -eq $CELLS ]
        check "$at: introsort's rows verified" [ "$(rows_with verified introsort true)" -eq $CELLS ]
        check "$at: named on stderr" grep -Eq "^qsortbench: warning: .*$name $cause" "$dir/err"
        check "$at: nothing left" nothing_left
    done
}

stopped_files() { # stopped_files WHAT EXPECTED-STATUS
    at=$1
    check "$at: exit $2 (got $st)" [ "$st" -eq "$2" ]
    [ "$st" -eq "$2" ] || cat "$dir/err" >&2
    check "$at: JSON incomplete" grep -q '"incomplete":[[:space:]]*true' "$dir/r.json"
    check "$at: CSV rows incomplete" \
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
                 $(at["incomplete"]) != "true" { bad = 1 } END { exit bad }' "$dir/r.csv"
    check "$at: said" grep -q "^qsortbench: error: interrupted" "$dir/err"
    check "$at: nothing left" nothing_left
}

# Starts a long run in the background (its pid in $pid), waits for the file the plug-in
# creates at its first sort, then signals the run and waits for it.
signal_run() { # signal_run SIGNAL MODE
    rm -f "$dir/r.csv" "$dir/r.json" "$QSB_TEST_DEAF_MARK"
    # shellcheck disable=SC2086
    "$BIN" run --nelem 1000:20000 --sizes 4,8 --patterns random,sorted -q $2 \
        --algos "msort,$PLUGIN:deaf_sort" --csv "$dir/r.csv" --json "$dir/r.json" \
        >"$dir/out" 2>"$dir/err" &
    pid=$!
    while [ ! -e "$QSB_TEST_DEAF_MARK" ] && kill -0 $pid 2>/dev/null; do
        sleep 0.05 # polls for the event; the outcome does not depend on it
    done
    kill -s "$1" $pid
    wait $pid
    st=$?
}

signals() {
    export QSB_TEST_DEAF_MARK="$dir/deaf"
    signal_run HUP "--budget 60s"
    stopped_files "SIGHUP (worker processes)" 129
    signal_run HUP "--reps 100000"
    stopped_files "SIGHUP (one process)" 129
    signal_run TERM "--reps 100000"
    stopped_files "SIGTERM, a plug-in that ignores it (one process)" 143
    signal_run TERM "--budget 60s"
    stopped_files "SIGTERM, a plug-in that ignores it (worker processes)" 143
    signal_run QUIT "--reps 100000"
    stopped_files "SIGQUIT (one process)" 131
    # stdout a pipe nobody reads: the write fails, one error line, no temporary file
    if command -v python3 >/dev/null; then
        python3 - "$BIN" "$dir" <<'PY'
import os, subprocess, sys
binary, d = sys.argv[1], sys.argv[2]
r, w = os.pipe()
os.close(r)
st = subprocess.run([binary, "run", "--nelem", "300", "--sizes", "4", "--patterns", "random",
                     "-q", "--reps", "3", "--csv", "-", "--json", d + "/p.json"], stdout=w,
                    stderr=open(d + "/err", "w")).returncode
open(d + "/pipe.status", "w").write(str(st))
PY
        check "SIGPIPE: exit 3" [ "$(cat "$dir/pipe.status")" -eq 3 ]
        check "SIGPIPE: said" grep -q "^qsortbench: error: cannot write .*Broken pipe" "$dir/err"
        check "SIGPIPE: nothing left" nothing_left
    fi
}

# The plug-in blocks in the last unit (the fifth) of the last cell, sorted 600: the visits of
# each unit go in matrix order (random 300, random 600, sorted 300, sorted 600), so the tenth
# visit of a cell of 600 elements is that one, and the three cells before it are finished.
blocked() {
    export QSB_TEST_HANG_NELEM=600 QSB_TEST_HANG_VISIT=10 QSB_TEST_HANG_MARK="$dir/hang"
    for how in "TERM 100 143" "TERM 600 143" "HUP 100 129"; do
        set -- $how
        signal=$1 reps=$2 expected=$3
        rm -f "$dir/r.csv" "$dir/r.json" "$QSB_TEST_HANG_MARK"
        "$BIN" run $M --reps $reps --no-reload --algos "msort,$PLUGIN:deaf_hang_sort" \
            --csv "$dir/r.csv" --json "$dir/r.json" >"$dir/out" 2>"$dir/err" &
        pid=$!
        while [ ! -e "$QSB_TEST_HANG_MARK" ] && kill -0 $pid 2>/dev/null; do
            sleep 0.05 # polls for the event; the outcome does not depend on it
        done
        kill -s "$signal" $pid
        wait $pid
        st=$?
        at="blocked (SIG$signal, --reps $reps)"
        check "$at: the plug-in blocked" [ -e "$QSB_TEST_HANG_MARK" ]
        stopped_files "$at" "$expected"
        check "$at: the three finished cells" [ "$(($(wc -l <"$dir/r.csv") - 1))" -eq 6 ]
        for algo in msort deaf_hang_sort; do
            check "$at: $algo's rows verified" [ "$(rows_with verified $algo true)" -eq 3 ]
            check "$at: $algo's rows of $reps samples" [ "$(rows_with reps $algo $reps)" -eq 3 ]
        done
        check "$at: not the blocked cell" not grep -q '^sorted,600,' "$dir/r.csv"
        check "$at: the JSON has their rows" [ "$(grep -c '"algorithm":' "$dir/r.json")" -eq 6 ]
        check "$at: said what happened" grep -q "^qsortbench: warning: a sort did not return within 5 s of the stop request (in cell sorted 600 x 4): the measuring process was killed" "$dir/err"
        check "$at: said where" grep -q "^qsortbench: error: interrupted: the 3 finished cells are in" "$dir/err"
    done
}

not() { ! "$@"; }

case $CASE in
late) late ;;
stdout) stdout ;;
descriptors) descriptors ;;
signals) signals ;;
leftovers) leftovers ;;
blocked) blocked ;;
*) fail "unknown case $CASE" ;;
esac
check_done
