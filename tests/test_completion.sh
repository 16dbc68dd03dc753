#!/bin/sh
# The generated bash completion, sourced into bash and asked as bash asks it (COMP_WORDS,
# COMP_CWORD): the command word, history's verbs, the options of every table (as each
# command's --help-all prints them, a worker process's own left out), the algorithm and
# pattern names of `qsortbench list`, and file names where a file is asked for.
#   tests/test_completion.sh QSORTBENCH COMPLETION     (skipped, 77, without bash)
set -u
BIN=$1
COMPLETION=$2
. "$(dirname "$0")/check.sh"
. "$(dirname "$0")/help_tables.sh"
command -v bash >/dev/null || { echo "bash missing: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# complete WORD...: what the completion offers for the last word, one per line.
complete() {
    bash -c '. "$1" && shift && COMP_WORDS=("$@") && COMP_CWORD=$(($# - 1)) || exit
             _qsortbench # its status is that of compopt, which fails outside a completion
             printf "%s\n" "${COMPREPLY[@]}"' complete "$COMPLETION" qsortbench "$@"
}
# offers EXPECTED WORD...: the completion of WORD... is exactly the lines EXPECTED.
offers() {
    expected=$1
    shift
    got=$(complete "$@" | sort | tr '\n' ' ')
    check_same "$got" "$expected" "completion of 'qsortbench $*'"
}
# offers_all WORDS-EXPECTED WORD...: every one of WORDS-EXPECTED is among the completions.
offers_all() {
    expected=$1
    shift
    complete "$@" >"$work/got"
    for word in $expected; do
        grep -qx -e "$word" "$work/got" || fail "'qsortbench $*' does not offer '$word'"
        ok
    done
}

check "bash reads it" bash -n "$COMPLETION"
offers "compare " com
offers "msort msort-2.39 " --algos ms
offers "introsort,msort introsort,msort-2.39 " run --algos introsort,ms
offers "bisect " history b
offers "sorted " gen sor
offers "gbench github-action-benchmark " export --format g
offers "png svg " plot --format ''
offers_all "$(help_options "$BIN" compare | grep -e '^--')
            $(help_options "$BIN" compare --machines A,B | grep -e '^--')" compare --
offers_all "--version -V --help" -
offers "--help --help-all " run --he
offers " " run --work # a worker process's own options are the run's, no user's
mkdir "$work/dir"
: >"$work/results.csv"
offers "$work/results.csv " compare "$work/res"
offers "$work/dir " plot -o "$work/d"

# Every command, every verb, every option of every table, every algorithm and pattern.
offers_all "$(help_commands "$BIN")" ''
offers_all "$(help_verbs "$BIN")" history ''
help_tables "$BIN" >"$work/tables"
while read -r command words; do
    key=$command
    [ "$command" = history ] && key="history ${words#history }"
    # shellcheck disable=SC2086 # the words of the help's command line
    offers_all "$(help_options "$BIN" $words | grep -e '^--')" $key --
    offers_all "$(help_options "$BIN" $words)" $key -
done <"$work/tables"
"$BIN" list >"$work/list"
offers_all "$(sed -n '/^Algorithms/,/^$/s/^  \([^ ]*\) .*/\1/p' "$work/list")" run --algos ''
offers_all "$(sed -n '/^Patterns/,/^$/s/^  \([^ ]*\) .*/\1/p' "$work/list")" run --patterns ''
check_done
