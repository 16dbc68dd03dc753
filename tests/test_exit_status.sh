#!/bin/sh
# The exit status each command's --help states is the README's and the binary's: every
# command's help has an "Exit status:" paragraph whose codes are rows of the README's table;
# audit's says 1 when a subject FAILED, and an audit of a plug-in that crashes exits 1 (one
# that finds only properties exits 0).
# Usage: test_exit_status.sh PATH-TO-qsortbench README.md PATH-TO-plugin_misbehaving
set -u
bin=$1
readme=$2
plugin=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/qsb-exit-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/check.sh"

# The codes of the README's "Exit codes" table: "| 0 |", "| 130, 143 |" ...
readme_codes=$(sed -n '/^## Exit codes/,/^## /p' "$readme" |
    sed -n 's/^| \([0-9][0-9, ]*\) |.*/\1/p' | tr ',\n' '  ' | tr -s ' ')
readme_codes=${readme_codes% }
check_same "$readme_codes" "0 1 2 3 129 130 131 143" "the README's exit codes"

# help_exit WORDS...: the "Exit status:" paragraph of `qsortbench WORDS --help`, on one line.
help_exit() {
    "$bin" "$@" --help | sed -n '/^Exit status:/,/^$/p' | tr '\n' ' '
}

for command in run list info gen compare "compare --machines a,b" merge plot report export audit; do
    # shellcheck disable=SC2086 # "compare --machines a,b" is three words
    text=$(help_exit $command)
    if [ -z "$text" ]; then
        fail "$command --help has no 'Exit status:' paragraph"
        continue
    fi
    ok
    # every code it names (a number before a space, comma, slash or ';' that is not a
    # percentage or an element count) is in the README's table
    for code in $(echo "$text" | sed 's/Exit status://' | grep -o '\(^\| \|(\)[0-9]\+\(/[0-9]\+\)\?\( \|,\|;\)' |
        tr -d ' ,;(' | tr '/' ' '); do
        case " $readme_codes " in
        *" $code "*) ok ;;
        *) fail "$command --help names exit code $code, which the README's table has not" ;;
        esac
    done
done

audit_help=$(help_exit audit)
case $audit_help in
*"1 when a subject FAILED"*) ok ;;
*) fail "audit --help does not say 1 when a subject FAILED: $audit_help" ;;
esac
case $(help_exit) in
*"an audit subject FAILED"*) ok ;;
*) fail "qsortbench --help does not name the audit's finding" ;;
esac
check "the README's code 1 names the audit" \
    grep -q '^| 1 | .*`audit`' "$readme"

"$bin" audit --quick --algos "crash=$plugin:crash_sort" >"$dir/table" 2>"$dir/err"
rc=$?
check_same "$rc" 1 "audit of a crashing plug-in: exit status"
check "its error line names the crash" grep -q '^qsortbench: error: audit: crash: crashed' "$dir/err"
"$bin" audit --quick --algos quicksort >"$dir/table" 2>"$dir/err"
rc=$?
check_same "$rc" 0 "audit of a sort with properties only (quadratic, out of bounds): exit status"
check_done
