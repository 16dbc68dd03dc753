#!/bin/sh
# compare's $GITHUB_STEP_SUMMARY, from the outside: opened before the files are read, without
# ever waiting. A FIFO that no process reads, or a path that cannot be written (a directory),
# is refused at once (exit 2, one error line, no other output made); a FIFO that a process
# reads gets the Markdown table; a regular file is appended to; after bad input nothing is
# appended.
# Usage: test_compare_summary.sh PATH-TO-qsortbench PATH-TO-fixtures/report
set -u
bin=$1
fixtures=$2
. "$(dirname "$0")/check.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/qsb-summary-XXXXXX") || exit 1
trap 'exec 3<&- 2>/dev/null; rm -rf "$dir"' EXIT
cd "$dir" || exit 1
cp "$fixtures/run.json" a.json

# compare_with SUMMARY ARGS...: compare with $GITHUB_STEP_SUMMARY set to SUMMARY, stdout in
# out.txt, stderr in err.txt; rc its status. A guard of 20 s against a hang (exit 124).
compare_with() {
    summary=$1
    shift
    GITHUB_STEP_SUMMARY=$summary timeout 20 "$bin" compare "$@" >out.txt 2>err.txt
    rc=$?
}

refused() {
    if [ "$rc" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] &&
        grep -q '^qsortbench: error: ' err.txt && grep -q -- "$2" err.txt; then ok
    else fail "$1: exit $rc, stderr: $(cat err.txt)"; fi
}

# ---- a FIFO that no process reads: refused before the reading, nothing else written
mkfifo s.fifo
compare_with s.fifo a.json a.json --json v.json
refused "summary FIFO without a reader" "\$GITHUB_STEP_SUMMARY 's.fifo' is a FIFO that no process reads"
check "no table on stdout" test ! -s out.txt
check "no --json output made" test ! -e v.json
check "the FIFO is still a FIFO" test -p s.fifo

# ---- a FIFO that this shell reads: the Markdown table comes through it
exec 3<>s.fifo
compare_with s.fifo a.json a.json
if [ "$rc" -eq 0 ]; then ok; else fail "summary FIFO being read: exit $rc, $(cat err.txt)"; fi
: >from-fifo.md
[ "$rc" -eq 0 ] && timeout 10 head -n 1 <&3 >from-fifo.md # a guard against a short write
exec 3<&-
check "the Markdown table came through the FIFO" grep -q '^### qsortbench compare: ' from-fifo.md

# ---- a directory cannot be appended to: refused, nothing else written
mkdir d
compare_with d a.json a.json --markdown m.md
refused "summary that is a directory" "cannot append to \$GITHUB_STEP_SUMMARY 'd'"
check "no --markdown output made" test ! -e m.md

# ---- a regular file is appended to, and only after a comparison that worked
echo "earlier step" >s.md
compare_with s.md a.json a.json
check_eval '[ "$rc" -eq 0 ]'
check "what the file held is kept" grep -q '^earlier step$' s.md
check "the table is appended" grep -q '^### qsortbench compare: a.json → a.json' s.md
cp s.md kept.md
compare_with s.md a.json missing.json
check_eval '[ "$rc" -eq 2 ]'
check "nothing appended after bad input" cmp -s s.md kept.md

check_done
