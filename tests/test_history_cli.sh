#!/bin/sh
# `qsortbench history` and `run --history` through the binary:
#  - add files runs under --commit/--date, or under git's HEAD and its date in a checkout;
#    list shows them; show prints a series and its CSV (a line per run, the samples);
#  - detect on exact counts: no step in a flat history; a step between c08 and c09 when the
#    candidate's count changes there (exit 0: the newest commit is c10); a step at the newest
#    commit exits 1, not with --threshold above it; --json holds the issue's fields;
#  - run --history adds the run it made, filed under the checkout's HEAD; outside a checkout
#    it is refused before the run (exit 2, no results file);
#  - bad input is one line and exit 2: no commit, a bad --date, an unknown cell or algorithm
#    (naming those there are), a file that is not a database, a missing database, a bad verb.
# Usage: test_history_cli.sh PATH/TO/qsortbench
set -u
bin=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
. "$(dirname "$0")/check.sh"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
    GIT_COMMITTER_EMAIL=t@example.org GIT_CEILING_DIRECTORIES=$tmp


M="--nelem 1000 --sizes 4 --patterns random,sorted --metric comparisons -q"
"$bin" run $M --csv a.csv --json a.json >/dev/null 2>run.err || fail "run: $(cat run.err)"
# b.csv: introsort's count 10% higher than in a.csv (median and delta), c.csv 30%
awk -F, -v OFS=, -v f=1.10 'NR > 1 && $4 == "introsort" { $9 = $9 * f; $12 = (1 + $12 / 100) * f * 100 - 100 } 1' a.csv >b.csv
awk -F, -v OFS=, -v f=1.30 'NR > 1 && $4 == "introsort" { $9 = $9 * f; $12 = (1 + $12 / 100) * f * 100 - 100 } 1' a.csv >c.csv

db="--db h.sqlite"
for i in 01 02 03 04 05 06 07 08; do
    another_run a.csv 00000000000000$i >a$i.csv
    "$bin" history add a$i.csv $db --commit c$i --date 2026-11-$i --machine box 2>>add.err ||
        fail "add c$i: $(cat add.err)"
done
check_same "$(grep -c 'added' add.err)" 8 "add's lines"
"$bin" history list $db >list.out 2>&1 && ok || fail "list"
check_same "$(grep -c ' box ' list.out)" 8 "runs listed"
"$bin" history detect $db >detect.out 2>&1
check_same "$?" 0 "detect on a flat history"
grep -q '^no steps$' detect.out && ok || fail "a flat history has steps: $(cat detect.out)"
grep -q '^this detect sees a slower step at the newest commit above 5\.0% (median series)$' \
    detect.out && ok || fail "exact counts: detect sees any step beyond 5%: $(cat detect.out)"

another_run b.csv 0000000000000b09 >b09.csv
another_run b.csv 0000000000000b10 >b10.csv
"$bin" history add b09.csv $db --commit c09 --date 2026-11-09 --machine box 2>/dev/null || fail "add c09"
"$bin" history add b10.csv $db --commit c10 --date 2026-11-10T12:00:00+01:00 --machine box 2>/dev/null || fail "add c10"
"$bin" history detect $db --json steps.json >detect.out 2>&1
check_same "$?" 0 "detect with a step before the newest commit"
python3 - steps.json <<'PY' && ok || fail "steps.json: $(cat steps.json)"
import json, sys
d = json.load(open(sys.argv[1]))
steps = [s for s in d["steps"] if s["metric"] == "delta"]
assert len(steps) == 2, steps  # random and sorted, introsort
for s in steps:
    assert set(["machine", "pattern", "nelem", "size", "algorithm", "metric", "before", "after",
                "change_pct", "lo", "hi"]) <= set(s), s
    assert s["algorithm"] == "introsort" and s["machine"] == "box", s
    assert s["before"] == "c08" and s["after"] == "c09", s
    assert 9.9 < s["change_pct"] < 10.1 and s["lo"] <= s["change_pct"] <= s["hi"], s
    assert not s["fails"]
assert not [s for s in d["steps"] if s["algorithm"] == "msort"], d
assert 5 < d["detectable_pct"] < 5.01, d  # exact counts: any step beyond the threshold
PY

another_run c.csv 0000000000000c11 >c11.csv
"$bin" history add c11.csv $db --commit c11 --date 2026-11-11 --machine box 2>/dev/null || fail "add c11"
"$bin" history detect $db >detect.out 2>detect.err
check_same "$?" 1 "detect with a slower step at the newest commit"
grep -q 'SLOWER at the newest commit' detect.out && ok || fail "no mark: $(cat detect.out)"
check_same "$(grep -c '^qsortbench: error: history detect: 2 steps slower than 5%' detect.err)" 1 \
    "exit 1 says why: $(cat detect.err)"
"$bin" history detect $db --threshold 25 >/dev/null 2>&1
check_same "$?" 0 "detect --threshold 25 (the step is +18%)"
"$bin" history detect $db --machine other >detect.out 2>&1
check_same "$?" 2 "detect of a machine the history has not"

"$bin" history show $db --cell random/1000/4 --algo introsort --csv s.csv >show.out 2>&1 &&
    ok || fail "show: $(cat show.out)"
check_same "$(($(wc -l <s.csv) - 1))" 11 "show --csv lines"
check_same "$(sed -n 2p s.csv | cut -d, -f1)" c01 "show --csv's first commit"
grep -q '^c11 ' show.out && ok || fail "show's table: $(cat show.out)"
check_refused "there: random/1000/4, sorted/1000/4" "$bin" history show $db --cell random/999/4 --algo introsort
check_refused "there: introsort, msort" "$bin" history show $db --cell random/1000/4 --algo heapsort
check_refused "PATTERN/NELEM/SIZE" "$bin" history show $db --cell random --algo introsort
check_refused "needs --cell" "$bin" history show $db

# bad input
check_refused "not in a git checkout" "$bin" history add a.csv $db
check_refused "--date" "$bin" history add a.csv $db --commit x --date 2026-13-01
check_refused "no history database" "$bin" history list --db missing.sqlite
head -c 5000 /dev/urandom >noise.sqlite
check_refused "not a readable history database" "$bin" history list --db noise.sqlite
check_refused "unknown verb 'frob'" "$bin" history frob
check_refused "needs a verb" "$bin" history
check_refused "no commit" "$bin" run $M --csv r.csv --json r.json --history h.sqlite
[ ! -e r.csv ] && ok || fail "a refused run --history wrote its results"

# run --history in a checkout: filed under HEAD
mkdir repo && cd repo && git init -q && echo x >f && git add f && git commit -qm one && cd .. ||
    fail "git repository"
head=$(git -C repo rev-parse HEAD)
(cd repo && "$bin" run $M --csv ../r.csv --json ../r.json --history ../h.sqlite >/dev/null 2>../run.err) ||
    fail "run --history: $(cat run.err)"
grep -q "history: run 12 added" run.err && ok || fail "run --history's line: $(cat run.err)"
"$bin" history list $db >list.out
grep -q "^ *12  $(echo "$head" | cut -c1-12) " list.out && ok || fail "the run's commit: $(cat list.out)"

# every option of every verb's table has its place in the arguments (one handler serves the
# verbs by the options' names): given alone, each ends as a usage error (2), not a system one
# history gate: a run filed already is never judged against itself; a machine the history
# does not hold is named with those it holds; a run of a machine with runs is judged (exact
# counts have no interval), the JSON alone on stdout with --json -
"$bin" history add a.json $db --commit c20 --date 2026-11-20 --machine box2 2>/dev/null ||
    fail "add a.json"
"$bin" history gate a.json $db --machine box2 >gate.out 2>gate.err
check_same "$?" 2 "gate of a run filed already"
grep -q "filed in the history already" gate.err && ok || fail "gate's refusal: $(cat gate.err)"
another_run c.csv 0000000000000c12 >new.csv # a run not filed
"$bin" history gate new.csv $db --machine nobody >gate.out 2>gate.err
check_same "$?" 2 "gate against an unknown machine"
grep -q "nobody.*box" gate.err && ok ||
    fail "gate's machines: $(cat gate.err)"
"$bin" history gate new.csv $db --machine box --json - >gate.json 2>gate.err
check_same "$?" 0 "gate of exact counts"
python3 - gate.json <<'PY' && ok || fail "gate.json: $(cat gate.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["threshold_pct"] == 5 and d["regressions"] == 0 and len(d["rows"]) == 4, d
for r in d["rows"]:
    assert r["judged"] in ("delta", "median") and r["verdict"] == "no interval", r
PY
grep -q "run level" gate.err && ok || fail "gate's table on stderr with --json -: $(cat gate.err)"
# compare --history takes NEW's machine's level from the history: unknown here, and said
"$bin" compare a.json r.json --history h.sqlite >cmp.out 2>cmp.err
check_same "$?" 0 "compare --history"
grep -q "has fewer than 5 runs of a row: its run level is unknown" cmp.err && ok ||
    fail "compare --history's level: $(cat cmp.err)"
# ... and compare --calibration RUN1's, of the deltas
"$bin" compare --calibration a.json r.json --history h.sqlite >cal.out 2>cal.err
check_same "$?" 0 "compare --calibration --history"
grep -q "has fewer than 5 runs of a row: its run level is unknown" cal.err && ok ||
    fail "compare --calibration --history's level: $(cat cal.err)"
# exact counts have no interval: every machine's level is unknown, never 0, in list and info
"$bin" history list $db >list.out 2>&1
grep -q "^box (comparisons): run level unknown (11 runs; 5 needed)$" list.out && ok ||
    fail "list's run level: $(cat list.out)"
"$bin" info --history h.sqlite >info.out 2>&1
grep -q "^box (comparisons): run level unknown" info.out && ok || fail "info --history: $(cat info.out)"

for verb in add list show detect bisect gate; do
    for opt in $("$bin" history $verb --help | sed -n 's/^ *--\([a-z-]*\) .*/\1/p'); do
        value=x
        [ "$opt" = threshold ] && value=5
        "$bin" history $verb --$opt $value --db "$tmp/none/h.sqlite" >opt.out 2>opt.err
        rc=$?
        [ "$rc" -eq 2 ] && ! grep -q "has no place" opt.err && ok ||
            fail "history $verb --$opt: rc $rc, $(cat opt.err)"
    done
done
check_done
