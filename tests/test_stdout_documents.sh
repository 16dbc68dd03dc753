#!/bin/sh
# Every command that writes a document to '-' keeps standard output for that document alone:
# the JSON parses, the CSV has one header and rows of its width, the Markdown and the HTML
# start at their first line; the human text (tables, notes) goes to stderr or is dropped.
# Covered: run --csv/--json/--report/--export, info --json, audit --csv/--json, compare
# --json/--markdown, compare --calibration --json, merge --csv/--json, export -o, report -o,
# history show --csv, history detect --json, gen -o.
# Usage: test_stdout_documents.sh PATH/TO/qsortbench FIXTURE_DIR (tests/fixtures/report)
set -u
bin=$1
fixtures=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
. "$(dirname "$0")/check.sh"
command -v python3 >/dev/null 2>&1 || { echo "no python3: skipped"; exit 77; }

# document KIND WHAT COMMAND...: COMMAND exits 0 or 1 (a finding) and its stdout is one
# document of KIND (json, csv, markdown, html) and nothing else.
document() {
    kind=$1
    what=$2
    shift 2
    "$@" >out 2>err
    rc=$?
    if [ "$rc" -gt 1 ]; then
        fail "$what: exit $rc, stderr: $(cat err)"
        return
    fi
    if python3 - "$kind" out <<'PY'; then ok; else fail "$what: stdout is not $kind alone: $(head -c 300 out)"; fi
import csv, json, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
if kind == "json":
    json.loads(text)
elif kind == "csv":
    rows = list(csv.reader(text.splitlines()))
    assert len(rows) >= 2, rows
    assert all(len(r) == len(rows[0]) for r in rows), "rows of another width"
elif kind == "markdown":
    assert text.startswith("#"), text[:80]
    assert "pattern     nelem" not in text, "the text table is there"
elif kind == "html":
    assert text.startswith("<!DOCTYPE html>"), text[:80]
    assert text.rstrip().endswith("</html>"), text[-80:]
PY
}

M="--nelem 1000 --sizes 4 --patterns random,sorted --metric comparisons -q"
"$bin" run $M --csv a.csv --json a.json >/dev/null 2>run.err || fail "run: $(cat run.err)"
"$bin" run $M --csv b.csv --json b.json >/dev/null 2>run.err || fail "run: $(cat run.err)"

document csv "run --csv -" "$bin" run $M --csv - --json r.json
document json "run --json -" "$bin" run $M --json - --csv r.csv
document html "run --report -" "$bin" run $M --csv r.csv --json r.json --report -
document json "info --json -" "$bin" info --json -
document json "audit --json -" "$bin" audit --quick --algos quicksort --json -
document csv "audit --csv -" "$bin" audit --quick --algos quicksort --csv -

document json "compare --json -" "$bin" compare a.csv b.csv --json -
grep -q 'pattern  *nelem' err && ok || fail "compare's table is not on stderr: $(cat err)"
document markdown "compare --markdown -" "$bin" compare a.csv b.csv --markdown -
document json "compare --calibration --json -" "$bin" compare --calibration a.csv b.csv --json -
grep -q '^calibration ' err && ok || fail "the calibration's text is not on stderr: $(cat err)"

document csv "merge --csv -" "$bin" merge a.csv --csv -
document json "merge --json -" "$bin" merge a.json --json -
document json "export -o -" "$bin" export "$fixtures/run.json" -f gbench -o -
document json "run --export bmf=-" "$bin" run $M --csv r.csv --json r.json --export bmf=-
document html "report -o -" "$bin" report a.json -o -

db="--db h.sqlite"
"$bin" history add a.csv $db --commit c1 --date 2026-11-01 --machine box 2>/dev/null || fail "add c1"
"$bin" history add b.csv $db --commit c2 --date 2026-11-02 --machine box 2>/dev/null || fail "add c2"
document csv "history show --csv -" "$bin" history show $db --cell random/1000/4 --algo introsort --csv -
grep -q 'c2' err && ok || fail "history show's table is not on stderr: $(cat err)"
document json "history detect --json -" "$bin" history detect $db --json -
grep -q '^no steps$' err && ok || fail "history detect's table is not on stderr: $(cat err)"

# gen's raw bytes: exactly n * size of them
"$bin" gen random --nelem 100 --size 4 -o - >out 2>err
check_same "$(wc -c <out | tr -d ' ')" 400 "gen -o -: the input's bytes alone"

# without '-' the human text stays on stdout
"$bin" compare a.csv b.csv --json c.json >out 2>err
grep -q 'pattern  *nelem' out && ok || fail "compare's table left stdout: $(cat out)"
check_done
