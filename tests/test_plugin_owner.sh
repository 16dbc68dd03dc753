#!/bin/sh
# No plug-in code runs in the process that owns the run's or the audit's files
# (docs/measurement.md, "Isolation and deadlines"):
#   tests/test_plugin_owner.sh QSORTBENCH LIBPLUGIN_LOADED.so
# The plug-in's constructor and its sort log the pid of each process that runs them; the
# command's own pid (the files' owner) must never appear, while the sorting processes (the
# checking child, the measuring child or the workers, the audit's probe children) do.
set -u
BIN=$1
PLUGIN=$2
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $PLUGIN in /*) ;; *) PLUGIN=$PWD/$PLUGIN ;; esac
. "$(dirname "$0")/check.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export QSB_TEST_LOADED_LOG="$dir/loaded.log"

owner() { # owner ARGS...: runs qsortbench ARGS in the background; its pid in $pid, status $st
    rm -f "$QSB_TEST_LOADED_LOG"
    "$BIN" "$@" >"$dir/out" 2>"$dir/err" &
    pid=$!
    wait "$pid"
    st=$?
}
loaded_in_owner() { grep -qx "$pid" "$QSB_TEST_LOADED_LOG"; }
sorted_in_owner() { grep -qx "sort $pid" "$QSB_TEST_LOADED_LOG"; }
loaded_elsewhere() { grep -qx '[0-9][0-9]*' "$QSB_TEST_LOADED_LOG"; }
sorted_elsewhere() { grep -q '^sort [0-9]' "$QSB_TEST_LOADED_LOG"; }
not() { ! "$@"; }

RUN="run --nelem 200 --sizes 4 --patterns random -q --csv $dir/r.csv --json $dir/r.json"
for mode in "--reps 3" "--reps 3 --no-reload" "--metric comparisons" "--processes 2"; do
    # shellcheck disable=SC2086
    owner $RUN $mode --algos "introsort,$PLUGIN:marked_sort"
    check "run $mode: exit 0" [ "$st" -eq 0 ]
    check "run $mode: the plug-in sorted" sorted_elsewhere
    check "run $mode: its library loaded elsewhere" loaded_elsewhere
    check "run $mode: not loaded by the run's own process" not loaded_in_owner
    check "run $mode: no sort in the run's own process" not sorted_in_owner
    check "run $mode: its rows verified" grep -q ',marked_sort,introsort,.*,true,' "$dir/r.csv"
done

owner audit --quick --algos "$PLUGIN:marked_sort" --csv "$dir/a.csv"
check "audit: exit 0 or a finding" [ "$st" -le 1 ]
check "audit: a row for the plug-in" grep -q "^\"marked_sort\"," "$dir/a.csv"
check "audit: the plug-in sorted in its probes" sorted_elsewhere
check "audit: not loaded by the audit's own process" not loaded_in_owner
check "audit: no sort in the audit's own process" not sorted_in_owner

# a library that cannot be loaded is still refused before the run starts
owner $RUN --reps 3 --algos "introsort,$dir/missing.so:marked_sort"
check "missing library: exit 2" [ "$st" -eq 2 ]
check "missing library: one error line" [ "$(grep -c '^qsortbench: error: ' "$dir/err")" -eq 1 ]
check_done
