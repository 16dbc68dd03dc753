#!/bin/sh
# SIGTERM (a CI job's timeout) and SIGINT to the parent of a worker-process run, at varied
# moments once a worker runs: always exit 143 / 130, both files complete and marked incomplete
# (the JSON's context and every CSV row), nothing left in TMPDIR nor beside the files. The
# moments vary; what is asserted holds at any of them.
#   tests/test_run_interrupt.sh QSORTBENCH [TRIES]   TRIES of each signal (default 4)
set -u
BIN=$1
TRIES=${2:-4}
. "$(dirname "$0")/check.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/tmp"
export TMPDIR="$dir/tmp"

worker_started() { # the run's directory of worker files exists
    [ -n "$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'qsortbench-*' 2>/dev/null)" ]
}

interrupt() { # interrupt SIGNAL EXPECTED TRY
    sig=$1 expected=$2 try=$3
    rm -f "$dir/r.csv" "$dir/r.json"
    "$BIN" run --nelem 1000:20000 --sizes 4,8 --patterns random,sorted --budget 60s -q \
        --csv "$dir/r.csv" --json "$dir/r.json" >"$dir/out" 2>"$dir/err" &
    pid=$!
    waited=0
    while ! worker_started && [ $waited -lt 300 ]; do sleep 0.05; waited=$((waited + 1)); done
    sleep "0.$((try % 5))" # 0 to 0.4 s into the workers
    kill -s "$sig" $pid
    wait $pid
    st=$?
    at="$sig try $try"
    check "$at: exit $expected (got $st)" [ "$st" -eq "$expected" ]
    [ "$st" -eq "$expected" ] || cat "$dir/err" >&2
    check "$at: JSON incomplete" grep -q '"incomplete":[[:space:]]*true' "$dir/r.json"
    check "$at: CSV rows incomplete" \
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
                 $(at["incomplete"]) != "true" { bad = 1 } END { exit bad }' "$dir/r.csv"
    check "$at: said" grep -q "^qsortbench: error: interrupted" "$dir/err"
    check "$at: nothing left" [ -z "$(ls -A "$TMPDIR")" ]
    check "$at: no temporary file" [ -z "$(find "$dir" -maxdepth 1 -name '*.tmp*')" ]
}

try=1
while [ $try -le "$TRIES" ]; do
    interrupt TERM 143 $try
    interrupt INT 130 $try
    try=$((try + 1))
done
check_done
