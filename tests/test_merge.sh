#!/bin/sh
# Shards and fleets through the binary: run --shard K/N and merge.
#  - shards 1..N of a --metric comparisons matrix merged give exactly the unsharded run: the
#    CSV byte for byte but its run id, the JSON apart from the date, command line, run id and
#    load average; the merged run's id is none of the shards';
#  - the shards' cells partition the matrix (each shard non-empty);
#  - merge is order-independent (every permutation of 3 shards, and of 2 machines x 2 shards:
#    byte-identical outputs, JSON and CSV);
#  - a fleet file (two --machine names) reads back: merge of it again is the same file,
#    compare --machines prints a row per cell, plot draws a bar per machine (with gnuplot);
#  - every bad merge is one line on stderr and exit 2: the same shard twice, a duplicate whole
#    run, missing shards (listed), different seeds, different input modes, a CSV shard, a file
#    of another schema version, a different split (N), no -o, bad --shard values;
#  - merge --pool: five timed runs become one result whose every sample's unit is its run,
#    with every sample kept in run order, intervals over the five runs, drift factors 1 and a
#    context that says so; four runs give no interval; runs of another seed or
#    another matrix, another shard, or a single run are one-line errors; runs of one shard
#    pool into that shard.
# Usage: test_merge.sh PATH/TO/qsortbench
set -u
bin=$1
tools=$(cd "$(dirname "$0")/.." && pwd)/tools/fleet
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
. "$(dirname "$0")/check.sh"

M="--nelem 100:1000:3000 --sizes 4,32 --patterns random,sorted,reversed,allequal --metric comparisons -q"
run() { "$bin" run $M "$@" >/dev/null 2>>run.err || fail "run $*"; }

# One error line, exit 2, mentioning $1; the rest are merge's arguments.
bad_merge() {
    want=$1
    shift
    "$bin" merge "$@" >out 2>err
    rc=$?
    lines=$(wc -l <err)
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$want" err &&
        grep -q '^qsortbench: error: ' err && [ ! -s out ]; then
        ok
    else
        fail "merge $*: rc $rc, $lines lines: $(cat err)"
    fi
}

# A results file without what is each run's own: its values of those fields blanked (a
# shard's planned memory is its own cells' inputs).
own_fields() {
    grep -v '"date"\|"command_line"\|"run_id"\|"load_average"\|"memory_peak_bytes"' "$1" |
        sed 's/^\([[:space:]]*"\(wall\|timed\|counted\|warmups\|retaken\|inputs\|copies\|checks\)":\).*/\1 -/'
}

run --json whole.json --csv whole.csv
for k in 1 2 3; do run --shard $k/3 --json s$k.json --csv s$k.csv; done

# The shards partition the matrix: 4 x 2 x 3 cells x 2 algorithms = 48 rows.
total=0
for k in 1 2 3; do
    rows=$(($(wc -l <s$k.csv) - 1))
    [ "$rows" -gt 0 ] && ok || fail "shard $k is empty"
    total=$((total + rows))
    grep -q "\"shard\":	\"$k/3\"" s$k.json && ok || fail "shard $k/3 not recorded"
done
[ "$total" -eq 48 ] && ok || fail "the shards hold $total rows, not 48"
grep -q '"matrix":' s1.json && ok || fail "no matrix record"

# Merged = unsharded, in every order of the inputs.
for order in "s1 s2 s3" "s1 s3 s2" "s2 s1 s3" "s2 s3 s1" "s3 s1 s2" "s3 s2 s1"; do
    set -- $order
    if "$bin" merge $1.json $2.json $3.json -o m.json --csv m.csv 2>err; then ok; else
        fail "merge $order: $(cat err)"; fi
    without_run_id m.csv >m.csv.cut
    without_run_id whole.csv >whole.csv.cut
    cmp -s m.csv.cut whole.csv.cut && ok || fail "merge $order: CSV differs from the unsharded run's"
    # the date, the command, the load average and where the time went are each run's own (the
    # load average moves every 5 s: whole.json and shard 1 may straddle a change)
    own_fields m.json >m.cut
    own_fields whole.json >whole.cut
    cmp -s m.cut whole.cut && ok || fail "merge $order: JSON differs from the unsharded run's"
    if [ -f first.json ]; then
        cmp -s m.json first.json && ok || fail "merge $order: not byte-identical to the first"
    else
        cp m.json first.json
    fi
done
# The merged run has an id of its own: none of its shards', nor the unsharded run's.
run_id_of() { grep -m1 '"run_id"' "$1" | cut -d'"' -f4; }
merged_id=$(run_id_of m.json)
check_eval '[ ${#merged_id} -eq 16 ]'
for f in s1.json s2.json s3.json whole.json; do
    [ "$(run_id_of $f)" != "$merged_id" ] && ok || fail "the merged run has the id of $f"
done
# -o OUT.csv writes CSV; a whole run merges as itself.
"$bin" merge whole.json -o w.csv 2>err && cmp -s w.csv whole.csv && ok || fail "-o w.csv"

# Two machines (differently configured runs here: their names), two shards each.
for k in 1 2; do
    run --machine alpha --shard $k/2 --json a$k.json --csv /dev/null
    run --machine beta --shard $k/2 --json b$k.json --csv /dev/null
done
"$bin" merge a1.json a2.json b1.json b2.json -o f1.json --csv f1.csv 2>err || fail "fleet: $(cat err)"
"$bin" merge b2.json a2.json b1.json a1.json -o f2.json --csv f2.csv 2>err || fail "fleet: $(cat err)"
cmp -s f1.json f2.json && ok || fail "fleet JSON depends on the order"
cmp -s f1.csv f2.csv && ok || fail "fleet CSV depends on the order"
grep -q '"schema_version":	2' f1.json && ok || fail "fleet file is not schema_version 2"
head -1 f1.csv | grep -q ',machine$' && ok || fail "fleet CSV has no machine column"
# A fleet file merges again as itself (JSON and CSV in).
"$bin" merge f1.json -o f3.json 2>err && cmp -s f1.json f3.json && ok || fail "re-merge: $(cat err)"
"$bin" merge f1.csv -o f4.csv 2>err && cmp -s f1.csv f4.csv && ok || fail "re-merge CSV: $(cat err)"
# Exactly the counts of each machine's shards (same matrix, seed: same counts).
"$bin" compare --machines alpha,beta f1.json >cmp.out 2>err && ok || fail "compare --machines: $(cat err)"
[ "$(($(wc -l <cmp.out) - 2))" -eq 24 ] && ok ||
    fail "compare --machines: $(cat cmp.out)"
"$bin" compare --machines alpha,gamma f1.json >/dev/null 2>err
[ $? -eq 2 ] && grep -q "no machine 'gamma'" err && ok || fail "unknown machine: $(cat err)"
"$bin" compare f1.json whole.json >/dev/null 2>err
[ $? -eq 2 ] && grep -q "fleet file of 2 machines" err && ok || fail "compare of a fleet: $(cat err)"
if command -v gnuplot >/dev/null 2>&1; then
    "$bin" plot f1.json -o charts >plot.out 2>err && ok || fail "plot fleet: $(cat err)"
    grep -q 'charts/f1-deltas-introsort.png' plot.out && ok || fail "no fleet deltas chart"
    grep -q 'charts/f1-comparisons.png' plot.out && ok || fail "no fleet comparisons chart"
fi

# The GitHub Actions recipe's steps (docs/ci-recipes.md): shards x runner kinds, each job's
# artifact in its own folder, then the final job's merge (charts skipped without gnuplot).
for runner in ubuntu-22.04 ubuntu-24.04; do
    for k in 1 2; do
        sh "$tools/shard.sh" "$bin" $k 2 "$runner" "artifacts/qsb-$runner-$k" $M >/dev/null 2>>run.err ||
            fail "shard.sh $runner $k"
    done
done
sh "$tools/merge.sh" "$bin" artifacts fleet >merge.out 2>err || fail "merge.sh: $(cat err)"
grep -q '"machine":	"ubuntu-24.04"' fleet.json && ok || fail "merge.sh: no ubuntu-24.04 machine"
"$bin" compare --machines ubuntu-22.04,ubuntu-24.04 fleet.json >/dev/null 2>err && ok ||
    fail "compare --machines on the recipe's file: $(cat err)"

# Every bad merge: one line, exit 2.
bad_merge "duplicate cells: shard 1/3 is in both" s1.json s1.json s2.json s3.json -o x.json
bad_merge "duplicate cells: shard 1/1" whole.json whole.json -o x.json
bad_merge "2 missing shard(s): 1/3, 3/3" s2.json -o x.json
bad_merge "1 missing shard(s): 2/3" s3.json s1.json -o x.json
run --seed 7 --shard 2/3 --json seed7.json --csv /dev/null
bad_merge "different seeds within one matrix" s1.json seed7.json s3.json -o x.json
run --compat glibc-bench-2021 --shard 2/3 --json compat.json --csv /dev/null
bad_merge "different input modes within one matrix" s1.json compat.json s3.json -o x.json
bad_merge "a CSV input must be a whole run" s1.csv s2.json s3.json -o x.json
bad_merge "no matrix record" whole.csv whole.csv -o x.json
run --shard 1/2 --json half.json --csv /dev/null
bad_merge "the shards of one matrix share N" s1.json half.json s3.json -o x.json
sed 's/"schema_version":	1/"schema_version":	3/' s2.json >v3.json
bad_merge "field 'schema_version'" s1.json v3.json s3.json -o x.json
bad_merge "merge needs -o OUT" s1.json s2.json s3.json
bad_merge "merge needs results files" -o x.json
bad_merge "cannot read" s1.json missing.json -o x.json
[ ! -e x.json ] && ok || fail "a failed merge left x.json"
for bad in 0/3 4/3 3 a/b 1/0 1/5000 1/25; do
    "$bin" run $M --shard $bad --json x.json --csv /dev/null >/dev/null 2>err
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && ok || fail "--shard $bad: rc $rc $(cat err)"
done

# merge --pool: timed runs (tiny cells, a few rounds each: what is checked is the pooling)
T="--nelem 200 --sizes 4 --patterns random,sorted --algos msort,introsort --reps 3 -q"
for k in 1 2 3 4 5; do
    "$bin" run $T --json p$k.json --csv p$k.csv >/dev/null 2>>run.err || fail "timed run $k"
done
"$bin" merge --pool p1.json p2.json p3.json p4.json p5.json -o pooled.json --csv pooled.csv \
    2>err && ok || fail "merge --pool: $(cat err)"
# column NAME of CSV row ROW (1 = the first after the header)
col() { awk -F, -v name="$1" -v row="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
                                           NR == row + 1 { print $c }' "$3"; }
rows=$(($(wc -l <pooled.csv) - 1))
[ "$rows" -eq 4 ] && ok || fail "pooled rows: $rows"
for r in $(seq 1 "$rows"); do
    want_samples="" want_units=""
    for k in 1 2 3 4 5; do
        s=$(col samples "$r" p$k.csv)
        want_samples="$want_samples${want_samples:+;}$s"
        u=$(echo "$s" | tr ';' '\n' | sed "s/.*/$((k - 1))/" | paste -sd';')
        want_units="$want_units${want_units:+;}$u"
    done
    [ "$(col samples "$r" pooled.csv)" = "$want_samples" ] && ok || fail "row $r: samples"
    [ "$(col units "$r" pooled.csv)" = "$want_units" ] && ok || fail "row $r: unit = run"
    [ -n "$(col median_lo "$r" pooled.csv)" ] && ok || fail "row $r: no interval of 5 runs"
    [ -z "$(col median_lo "$r" p1.csv)" ] || [ "$(col median_lo "$r" p1.csv)" != \
        "$(col median_lo "$r" pooled.csv)" ] && ok || fail "row $r: interval not recomputed"
done
[ -n "$(col delta_lo 2 pooled.csv)" ] && ok || fail "no delta interval"
grep -q '"drift_ratios":	1,' pooled.json && grep -q '"drift_medians":	1,' pooled.json &&
    grep -q '"repetitions":	"pooled: 5 runs, each one unit' pooled.json &&
    ok || fail "pooled context: $(grep 'drift\|repetitions' pooled.json)"
# Where the time went: the pool's is the sum of its runs'.
walls() { sed -n 's/^[[:space:]]*"wall":[[:space:]]*\([0-9.e+-]*\),*$/\1/p' "$@"; }
pooled_wall=$(walls pooled.json)
walls p1.json p2.json p3.json p4.json p5.json | awk -v pooled="$pooled_wall" \
    '{ s += $1; n++ } END { d = s - pooled; exit !(n == 5 && pooled > 0 && d * d < 1e-18 * s * s) }' &&
    ok || fail "pooled time_s.wall ($pooled_wall) is not the sum of the runs'"
"$bin" merge --pool p1.json p2.json p3.json p4.json --csv four.csv 2>err && ok || fail "4 runs"
[ -z "$(col median_lo 1 four.csv)" ] && [ -z "$(col delta_lo 2 four.csv)" ] &&
    ok || fail "four runs must give no interval"
"$bin" run $T --seed 9 --json seed9.json --csv /dev/null >/dev/null 2>>run.err || fail "seed 9 run"
bad_merge "is not a run of the same command" --pool p1.json seed9.json -o x.json
bad_merge "is not a run of the same command" --pool p1.json whole.json -o x.json
bad_merge "another shard" --pool s1.json s2.json -o x.json
run --shard 1/3 --json s1again.json
"$bin" merge --pool s1.json s1again.json --json s11.json 2>err &&
    grep -q '"shard":	"1/3"' s11.json &&
    ok || fail "runs of one shard pool into that shard: $(grep shard s11.json)"
bad_merge "needs two runs or more" --pool p1.json -o x.json
# A run given twice would count as two agreeing runs: refused, both arguments named, whether
# the same file (however spelled) or the same run in another file (a copy: its run id; a copy
# under another id: its samples).
bad_merge "merge --pool: p1.json and ./p1.json are the same run" --pool p1.json p2.json \
    ./p1.json p3.json p4.json -o x.json
another_run p2.csv 00000000000000ff >again.csv
bad_merge "p2.csv and again.csv are the same run: identical samples" --pool p1.csv p2.csv \
    p3.csv again.csv -o x.json

check_done
