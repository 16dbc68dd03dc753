# Sourced by the shell tests, one harness for all of them:
#   check DESCRIPTION COMMAND...   a pass when COMMAND succeeds, else the failure is named;
#   check_eval 'EXPRESSION'        the same for a shell expression, which names itself;
#   check_same ACTUAL EXPECTED WHAT  a pass when the two strings are equal;
#   check_refused WORDS COMMAND... a pass when COMMAND (its output in ./out and ./err) exits 2
#                                  with one line on stderr, "qsortbench: error: ...", holding WORDS;
#   another_run FILE ID            prints results CSV FILE as another run of its command would
#                                  give it: its rows' run id is ID;
#   without_run_id FILE            prints results CSV FILE without its run_id column (a run's
#                                  own, where two runs are compared for what they measured);
#   ok / fail MESSAGE              a pass, or a failure with its message;
#   check_done                     prints "N passed, N failed" and returns the status to exit with.
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
check() {
    what=$1
    shift
    if "$@"; then ok; else failed=$((failed + 1)); echo "check failed: $what" >&2; fi
}
check_eval() {
    if eval "$1"; then ok; else failed=$((failed + 1)); echo "check failed: $1" >&2; fi
}
check_refused() {
    want=$1
    shift
    "$@" >out 2>err
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q '^qsortbench: error: ' err &&
        grep -q -- "$want" err; then ok; else fail "$*: rc $rc: $(cat err)"; fi
}
run_id_column='NR == 1 { for (i = 1; i <= NF; i++) if ($i == "run_id") c = i }'
another_run() { awk -F, -v OFS=, -v id="$2" "$run_id_column"' NR > 1 { $c = id } 1' "$1"; }
without_run_id() {
    awk -F, "$run_id_column"' { s = ""; sep = ""; for (i = 1; i <= NF; i++) if (i != c) { s = s sep $i; sep = "," }; print s }' "$1"
}
check_same() { if [ "$1" = "$2" ]; then ok; else fail "$3: got '$1', expected '$2'"; fi; }
check_done() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
