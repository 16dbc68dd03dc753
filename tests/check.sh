# Sourced by the shell tests: check DESCRIPTION COMMAND... counts a pass or names the failure;
# check_done prints "N passed, N failed" and returns the status to exit with.
passed=0
failed=0
check() {
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "check failed: $what" >&2; fi
}
check_done() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
