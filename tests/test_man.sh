#!/bin/sh
# The generated man pages: qsortbench(1), qsortbench-COMMAND(1) for every command of --help
# and qsortbench(7) exist; groff renders each with every warning on (-ww) and prints none; and
# every option a user types of every table (as each command's --help-all prints it) is on its
# command's page.
# A page with an option taken out must fail the same check.
#   tests/test_man.sh QSORTBENCH MANDIR        (skipped, 77, without groff)
set -u
BIN=$1
MAN=$2
. "$(dirname "$0")/check.sh"
. "$(dirname "$0")/help_tables.sh"
command -v groff >/dev/null || { echo "groff missing (Debian groff-base): skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# render PAGE: the page as plain text on one long line per paragraph, for the search.
render() { groff -man -Tascii -P-cbou -rLL=400n "$1" 2>/dev/null; }

# has_options PAGE WORDS...: every option of `qsortbench WORDS --help` is on PAGE.
has_options() {
    page=$1
    shift
    render "$page" >"$work/text"
    for option in $(help_options "$BIN" "$@"); do
        grep -q -e "$option\\([^a-z0-9-]\\|\$\\)" "$work/text" || {
            echo "$page: $option (of '$*') missing" >&2
            return 1
        }
    done
}

pages="qsortbench.1 qsortbench.7"
for command in $(help_commands "$BIN"); do
    pages="$pages qsortbench-$command.1"
done
for page in $pages; do
    if [ -f "$MAN/$page" ]; then
        groff -man -Tutf8 -ww -z "$MAN/$page" >"$work/warnings" 2>&1
        check "$page: no warning" [ ! -s "$work/warnings" ]
        [ -s "$work/warnings" ] && cat "$work/warnings" >&2
    else
        fail "$page: missing"
    fi
done

help_tables "$BIN" >"$work/tables"
while read -r command words; do
    # shellcheck disable=SC2086 # the words of the help's command line
    check "qsortbench-$command.1 names every option of '$words'" \
        has_options "$MAN/qsortbench-$command.1" $words
done <"$work/tables"
check "qsortbench.1: --version and -V" sh -c "groff -man -Tascii -P-cbou '$MAN/qsortbench.1' |
    grep -q -e '-V, --version'"
# A worker process's own options are the run's business, no user's: --help-all alone shows them.
render "$MAN/qsortbench-run.1" >"$work/run.txt"
check_eval "! grep -q -e '--worker' -e '--tsc-hz' -e '--visit-fd' '$work/run.txt'"
check "qsortbench-run.1 names --help-all" grep -q -e '--help-all' "$work/run.txt"
check "qsortbench.7 points at measurement.md" grep -q 'measurement\.md' "$MAN/qsortbench.7"

# The check itself: a page without one of its options fails it.
sed '/^\\fB\\-\\-threshold\\fR/d' "$MAN/qsortbench-compare.1" >"$work/qsortbench-compare.1"
check_eval "! has_options '$work/qsortbench-compare.1' compare 2>/dev/null"
check_done
