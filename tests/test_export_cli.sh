#!/bin/sh
# The dashboard exports through the binary: `qsortbench export` of a fleet file and of a run
# in every format (JSON that python3 reads, when python3 is there), `run --export bmf=FILE` and
# `--export github-action-benchmark FILE`, `merge --export` of two shards; the refusals (gbench
# of a fleet or of comparator counts, an unknown format, no -o): exit 2, one error line, no
# file left.
# Usage: test_export_cli.sh PATH/TO/qsortbench FIXTURE_DIR (tests/fixtures/report).
set -u
bin=$1
fixtures=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$(dirname "$0")/check.sh"

# A JSON document of the given top-level type ("dict" or "list") with N entries, or why not.
json_shape() {
    if ! command -v python3 >/dev/null 2>&1; then
        echo "$2 $3"
        return
    fi
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(type(d).__name__, len(d))' "$1" 2>&1
}

"$bin" export "$fixtures/fleet.json" --format bmf -o "$tmp/fleet.bmf.json" 2>"$tmp/err"
check_same "$?" 0 "export bmf of a fleet"
check_same "$(json_shape "$tmp/fleet.bmf.json" dict 16)" "dict 16" "bmf of 2 machines x 4 cells x 2 algorithms"
grep -q '"random/200/4/introsort@beta"' "$tmp/fleet.bmf.json" && ok || fail "machine in the name"

"$bin" export "$fixtures/run.json" -f github-action-benchmark -o "$tmp/run.gab.json" 2>"$tmp/err"
check_same "$?" 0 "export github-action-benchmark of a run"
check_same "$(json_shape "$tmp/run.gab.json" list 8)" "list 8" "one element per cell and algorithm"
check_same "$(grep -c '"unit":.*"ns"' "$tmp/run.gab.json")" 8 "unit stated"

"$bin" export "$fixtures/run.json" -f gbench -o - >"$tmp/run.gbench.json" 2>"$tmp/err"
check_same "$?" 0 "export gbench of a run to stdout"
grep -q '"benchmarks"' "$tmp/run.gbench.json" && ok || fail "gbench document"

"$bin" export "$fixtures/fleet.json" -f gbench -o "$tmp/no.json" 2>"$tmp/err"
check_same "$?" 2 "gbench of a fleet"
check_same "$(wc -l <"$tmp/err" | tr -d ' ')" 1 "one error line"
grep -q "fleet file holds 2 machines" "$tmp/err" && ok || fail "says why: $(cat "$tmp/err")"
[ ! -e "$tmp/no.json" ] && ok || fail "file left after a refusal"

"$bin" export "$fixtures/run.json" -f csv -o "$tmp/no.json" 2>"$tmp/err"
check_same "$?" 2 "unknown format"
grep -q "gbench, bmf or github-action-benchmark" "$tmp/err" && ok || fail "names the formats"
"$bin" export "$fixtures/run.json" -f bmf 2>"$tmp/err"
check_same "$?" 2 "no -o"

# run --export, both spellings; gbench cannot carry comparator counts, the others can
"$bin" -q --metric comparisons --nelem 100 --sizes 4 --patterns random --csv "$tmp/c.csv" \
    --json /dev/null --export "bmf=$tmp/c.bmf.json" >/dev/null 2>"$tmp/err"
check_same "$?" 0 "run --export bmf=FILE"
grep -q '"median-comparisons"' "$tmp/c.bmf.json" && ok || fail "the measure names the metric"
"$bin" -q --metric comparisons --nelem 100 --sizes 4 --patterns random --csv "$tmp/c.csv" \
    --json /dev/null --export github-action-benchmark "$tmp/c.gab.json" >/dev/null 2>"$tmp/err"
check_same "$?" 0 "run --export FORMAT FILE"
check_same "$(json_shape "$tmp/c.gab.json" list 2)" "list 2" "two algorithms, one cell"
"$bin" -q --metric comparisons --nelem 100 --sizes 4 --patterns random --csv "$tmp/c.csv" \
    --json /dev/null --export "gbench=$tmp/c.gbench.json" >/dev/null 2>"$tmp/err"
check_same "$?" 2 "gbench of counts"

# merge --export: the shards joined, then exported
"$bin" merge "$fixtures/shard1.json" "$fixtures/shard2.json" -o "$tmp/m.json" \
    --export "bmf=$tmp/m.bmf.json" 2>"$tmp/err"
check_same "$?" 0 "merge --export"
check_same "$(json_shape "$tmp/m.bmf.json" dict 8)" "dict 8" "merged shards: 4 cells x 2 algorithms"
"$bin" merge "$fixtures/shard1.json" -o "$tmp/m2.json" --export "nope=$tmp/x" 2>"$tmp/err"
check_same "$?" 2 "merge --export with an unknown format"

check_done
