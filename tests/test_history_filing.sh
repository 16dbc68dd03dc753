#!/bin/sh
# How the history files runs:
#  - a run is filed once: the same run again (its run id), in another add, twice in one or in
#    its other format, is exit 2 and nothing is added; one commit has one date;
#  - an interrupted run is marked "incomplete" in list and show, and detect leaves it out of
#    the step fit unless --incomplete is given;
#  - a run filed under HEAD with uncommitted changes (run --history, history add) warns and is
#    marked "dirty";
#  - runs are ordered by their commits' ancestry where git tells it when they are filed:
#    commits of one committer date filed out of order come back in ancestry order.
# Usage: test_history_filing.sh PATH/TO/qsortbench
set -u
bin=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
. "$(dirname "$0")/check.sh"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
    GIT_COMMITTER_EMAIL=t@example.org GIT_CEILING_DIRECTORIES=$tmp

# run_lines: the lines of history list that are runs (a run id first), nothing else it says.
run_lines() { awk '$1 ~ /^[0-9]+$/'; }
runs_in() { "$bin" history list --db "$1" 2>/dev/null | run_lines | wc -l | tr -d ' '; }

M="--nelem 1000 --sizes 4 --patterns random --metric comparisons -q"
"$bin" run $M --csv a.csv --json a.json >/dev/null 2>run.err || fail "run: $(cat run.err)"
"$bin" run $M --csv b.csv --json b.json >/dev/null 2>run.err || fail "run: $(cat run.err)"

# filed once
db="--db h.sqlite"
"$bin" history add a.json $db --commit c1 --date 2026-11-01 --machine box 2>/dev/null || fail "add c1"
check_refused "a.json: a run filed already (run 1 of h.sqlite)" \
    "$bin" history add a.json $db --commit c2 --date 2026-11-02 --machine box
check_refused "b.json: a run filed already" "$bin" history add b.json b.json $db --commit c2 --date 2026-11-02
check_same "$(runs_in h.sqlite)" 1 "runs after the refused adds"
check_refused "commit 'c1' is filed under the date 2026-11-01: 2026-11-05 would give it a second one" \
    "$bin" history add b.json $db --commit c1 --date 2026-11-05
"$bin" history add b.json $db --commit c1 --date 2026-11-01 --machine box 2>/dev/null &&
    ok || fail "a second run of one commit, at its date"
check_refused "b.csv: a run filed already (run 2 of h.sqlite)" \
    "$bin" history add b.csv $db --commit c3 --date 2026-11-03 --machine box

# incomplete runs: marked, and out of the step fit unless asked
db="--db steps.sqlite"
for i in 1 2 3 4 5; do
    another_run a.csv 00000000000000c$i >a$i.csv
    "$bin" history add a$i.csv $db --commit c$i --date 2026-11-0$i --machine box 2>/dev/null || fail "add c$i"
done
# c6: introsort 30% more comparisons, in a run that was interrupted
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "incomplete") c = i }
    NR > 1 { $c = "true" } NR > 1 && $4 == "introsort" { $9 = $9 * 1.3; $12 = (1 + $12 / 100) * 1.3 * 100 - 100 } 1' \
    a.csv | another_run /dev/stdin 00000000000000c6 >slow-incomplete.csv
"$bin" history add slow-incomplete.csv $db --commit c6 --date 2026-11-06 --machine box 2>/dev/null ||
    fail "add the incomplete run"
"$bin" history list $db >out 2>err
grep -q ' c6 .* incomplete ' out && ok || fail "list does not mark the incomplete run: $(cat out)"
check_same "$(grep -c ' incomplete ' out)" 1 "runs marked incomplete"
"$bin" history show $db --cell random/1000/4 --algo introsort >out 2>err
grep -q '^c6 .*(incomplete run)$' out && ok || fail "show does not mark the incomplete run: $(cat out)"
"$bin" history detect $db >out 2>err
check_same "$?" 0 "detect leaves the incomplete run out"
"$bin" history detect $db --incomplete >out 2>err
check_same "$?" 1 "detect --incomplete takes it in: a slower step at the newest commit"

# a dirty checkout
mkdir repo
cd repo || exit 1
git init -q . && echo one >file && git add file && git commit -q -m one || fail "git"
echo two >file
"$bin" run $M --csv r.csv --json r.json --history h.sqlite >out 2>err
check_same "$?" 0 "run --history in a dirty checkout"
grep -q '^qsortbench: warning: the checkout has uncommitted changes: the run is filed under HEAD' err &&
    ok || fail "no warning of the uncommitted changes: $(cat err)"
"$bin" history list --db h.sqlite >out 2>&1
grep -q ' dirty ' out && ok || fail "list does not mark the dirty run: $(cat out)"
git checkout -q file
"$bin" run $M --csv r2.csv --json r2.json --history h.sqlite >out 2>err
grep -q 'uncommitted' err && fail "a clean checkout warned: $(cat err)" || ok
check_same "$(history_dirty=$("$bin" history list --db h.sqlite 2>&1); echo "$history_dirty" | grep -c ' dirty ')" 1 \
    "dirty runs after a clean one"
cd .. || exit 1

# ancestry: three commits of one committer date, filed out of order
mkdir line
cd line || exit 1
git init -q . || fail "git init"
for c in one two three; do
    GIT_COMMITTER_DATE="2026-11-01T12:00:00Z" git commit -q --allow-empty -m $c || fail "commit $c"
    git tag $c
done
n=0
for c in three one two; do
    n=$((n + 1))
    another_run ../b.csv 000000000000000$n >b-$c.csv
    "$bin" history add b-$c.csv --db h.sqlite --commit $c --machine box 2>/dev/null || fail "add $c"
done
"$bin" history list --db h.sqlite >out 2>&1
check_same "$(run_lines <out | awk '{ print $2 }' | tr '\n' ' ')" "one two three " "runs in ancestry order"
"$bin" history show --db h.sqlite --cell random/1000/4 --algo introsort >out 2>&1
check_same "$(sed 1,2d out | awk '{ print $1 }' | tr '\n' ' ')" "one two three " "a series in ancestry order"
cd .. || exit 1
check_done
