# Sourced by the shell tests, one harness for all of them:
#   check DESCRIPTION COMMAND...   a pass when COMMAND succeeds, else the failure is named;
#   check_eval 'EXPRESSION'        the same for a shell expression, which names itself;
#   check_same ACTUAL EXPECTED WHAT  a pass when the two strings are equal;
#   check_refused WORDS COMMAND... a pass when COMMAND (its output in ./out and ./err) exits 2
#                                  with one line on stderr, "qsortbench: error: ...", holding WORDS;
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
check_same() { if [ "$1" = "$2" ]; then ok; else fail "$3: got '$1', expected '$2'"; fi; }
check_done() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
