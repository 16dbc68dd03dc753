#!/bin/sh
# Usage errors say what is wrong and where help is: a negative number is "out of range (must
# be ≥ 0)", not "not a number"; each command's and each history verb's errors point at its
# own --help.
# Usage: test_messages.sh PATH/TO/qsortbench
set -u
bin=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
. "$(dirname "$0")/check.sh"

# says TEXT COMMAND...: exit 2 and one error line holding TEXT (a fixed string).
says() {
    want=$1
    shift
    "$@" >out 2>err
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q '^qsortbench: error: ' err &&
        grep -qF -- "$want" err; then ok; else fail "$*: rc $rc: $(cat err)"; fi
}

says "--run-level: '-5' is out of range (must be ≥ 0)" "$bin" compare --run-level -5 a b
says "--threshold: '-1' is out of range (must be ≥ 0)" "$bin" compare --threshold -1 a b
says "--threshold: '-1' is out of range (must be ≥ 0)" "$bin" history detect --threshold -1
says "--reps: '-3' is out of range (must be ≥ 1)" "$bin" run --reps -3
says "--threshold: '2e6' is not a number" "$bin" compare --threshold 2e6 a b
says "--threshold: '2000000' is out of range (must be ≤ 1e+06)" "$bin" compare --threshold 2000000 a b

says "; try 'qsortbench history detect --help'" "$bin" history detect --threshold x
says "; try 'qsortbench history list --help'" "$bin" history list extra
says "; try 'qsortbench history show --help'" "$bin" history show
says "; try 'qsortbench history --help'" "$bin" history nosuchverb
says "; try 'qsortbench compare --help'" "$bin" compare only-one.csv
says "; try 'qsortbench merge --help'" "$bin" merge --nosuch
says "; try 'qsortbench --help'" "$bin" nosuchcommand
check_done
