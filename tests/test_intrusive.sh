#!/bin/sh
# Plug-ins that reach outside their sort (tests/plugin_intrusive.c), through the real binary:
#   tests/test_intrusive.sh QSORTBENCH LIBPLUGIN_INTRUSIVE.so CASE
# CASE late: plug-in code that writes into an array after its sort returned FAILs that
#   plug-in's rows ("wrote into the array after returning"), never another algorithm's, in a
#   one-process run and in worker processes.
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

case $CASE in
late) late ;;
*) fail "unknown case $CASE" ;;
esac
check_done
