#!/bin/sh
# Hostile plug-ins (tests/plugin_bounds.c) through the real binary:
#   tests/test_bounds.sh QSORTBENCH LIBPLUGIN_BOUNDS.so
# A sort that writes a page or one element past its array, or one element before it, is
# FAILED (wrote outside the array), exit 1, in one process (--reps) and in worker processes
# (--budget), the baseline's rows still measured. The audit survives a subject that loops,
# crashes or exits: its row says what happened, the other rows are complete, exit 1.
# Only outcomes are asserted, never timings; the audit's loop ends at its per-child limit.
set -u
BIN=$1
PLUGIN=$2
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $PLUGIN in /*) ;; *) PLUGIN=$PWD/$PLUGIN ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/check.sh"
run() { # run ARGS...: status in $st, stdout in out, stderr in err
    "$BIN" run --nelem 1000:5000 --sizes 4,8 --patterns random,sorted -q \
        --csv "$dir/r.csv" --json "$dir/r.json" "$@" >"$dir/out" 2>"$dir/err"
    st=$?
}
rows() { # rows ALGORITHM FIELD VALUE: how many of the algorithm's CSV rows have that value
    awk -F, -v algo="$1" -v name="$2" -v want="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $4 == algo && $(at[name]) == want { n++ } END { print n + 0 }' "$dir/r.csv"
}

for regime in "--reps 3" "--budget 0.5s"; do
    for plugin in past_end_page:"past its end" past_end_element:"past its end" \
        before_start:"before its start"; do
        symbol=${plugin%%:*}
        where=${plugin#*:}
        run --algos "msort,$PLUGIN:$symbol" $regime
        check_eval '[ $st -eq 1 ]'
        check_eval '[ "$(grep -c "FAILED ($symbol: wrote outside the array: $where)" "$dir/out")" -eq 8 ]'
        check_eval '[ "$(rows "$symbol" verified false)" -eq 8 ]'
        check_eval '[ "$(rows msort verified true)" -eq 8 ]'
        check_eval 'grep -q "^qsortbench: error: 8 result(s) failed verification" "$dir/err"'
    done
done

# The audit: the subject's row says how it ended, the registry entry beside it is measured
# whole, the exit status is 1 (a finding). A loop ends at the audit's per-child limit.
audit() { # audit SYMBOL: status in $st
    "$BIN" audit --quick --algos "$PLUGIN:$1,bsd" --csv "$dir/a.csv" --json "$dir/a.json" \
        >"$dir/out" 2>"$dir/err"
    st=$?
}
for plugin in crash_segv:"crashed: signal 11" exit_zero:"exited with status " \
    loop_forever:"timed out after 5s" past_end_page:"wrote outside the array: past its end" \
    before_start:"wrote outside the array: before its start"; do
    symbol=${plugin%%:*}
    how=${plugin#*:}
    audit "$symbol"
    check_eval '[ $st -eq 1 ]'
    check_eval 'grep -q "^$symbol  *FAILED ($how.* in its first sort)$" "$dir/out"'
    check_eval 'grep -q "^qsortbench: error: audit: $symbol: $how" "$dir/err"'
    check_eval 'grep -q "^bsd  *no  *no  .* OK  *OK " "$dir/out"'
    check_eval 'grep -q "^\"$symbol\",\"\",\"\",.*,\"$how" "$dir/a.csv"'
    check_eval 'grep -q "^\"bsd\",\"\",\"no\"" "$dir/a.csv"'
    check_eval 'grep -q "\"failure\":[[:space:]]*\"$how" "$dir/a.json"'
done

# A sort that strays only on small arrays passes the first sort and fails in the stability
# probe, whose arrays are fenced too.
audit past_end_small_n
check_eval '[ $st -eq 1 ]'
check_eval 'grep -q "^past_end_small_n  *FAILED (wrote outside the array: past its end (size 1, n 2) in the stability probe)$" "$dir/out"'

check_done
