#!/bin/sh
# The history's verbs refuse what they cannot answer, and its readers write nothing:
#  - list, show, detect and report --history leave the database as it was: its bytes and
#    mtime unchanged, no -journal, -wal or -shm file beside it; in a directory the user cannot
#    write they read it all the same (checked when the test does not run as root, whom a
#    directory's mode does not stop);
#  - an unknown --machine is exit 2 in list, show and detect, naming the machines there are;
#  - a history of schema version 0 that holds tables is a damaged file: exit 2, not an error
#    of the migration;
#  - an add that fails leaves no database behind when it made the file (nor the default
#    database's folder), and an existing database as it was.
# Usage: test_history_refusals.sh PATH/TO/qsortbench
set -u
bin=$1
tmp=$(mktemp -d) || exit 1
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
. "$(dirname "$0")/check.sh"


M="--nelem 1000 --sizes 4 --patterns random --metric comparisons -q"
"$bin" run $M --csv a.csv --json a.json >/dev/null 2>run.err || fail "run: $(cat run.err)"
mkdir ro
db="--db ro/h.sqlite"
"$bin" history add a.json $db --commit c1 --date 2026-11-01 --machine box 2>/dev/null || fail "add c1"
another_run a.csv 00000000000000c2 >a2.csv
"$bin" history add a2.csv $db --commit c2 --date 2026-11-02 --machine box 2>/dev/null || fail "add c2"
before=$(cksum <ro/h.sqlite; stat -c %Y ro/h.sqlite)
sleep 1 # a write by a reader would show in the mtime

# the readers
"$bin" history list $db >out 2>err && ok || fail "list: $(cat err)"
"$bin" history show $db --cell random/1000/4 --algo introsort >out 2>err && ok || fail "show: $(cat err)"
"$bin" history detect $db >out 2>err && ok || fail "detect: $(cat err)"
if command -v gnuplot >/dev/null 2>&1; then
    "$bin" report --history ro/h.sqlite -o page.html >out 2>err && ok || fail "report: $(cat err)"
fi
check_same "$(cksum <ro/h.sqlite; stat -c %Y ro/h.sqlite)" "$before" "the database after its readers"
check_same "$(ls ro)" "h.sqlite" "files beside the database after its readers"
if [ "$(id -u)" -ne 0 ]; then
    chmod a-w ro
    "$bin" history list $db >out 2>err && ok || fail "list in a read-only directory: $(cat err)"
    "$bin" history detect $db >out 2>err && ok || fail "detect in a read-only directory: $(cat err)"
    chmod u+w ro
fi

# an unknown machine
check_refused "--machine 'TYPO': no run of that machine in .* (there: box)" "$bin" history list $db --machine TYPO
check_refused "--machine 'TYPO': no run of that machine" "$bin" history show $db --machine TYPO \
    --cell random/1000/4 --algo introsort
check_refused "--machine 'TYPO': no run of that machine" "$bin" history detect $db --machine TYPO
check_refused "--machine 'TYPO': no run of that machine" "$bin" history detect $db --machine TYPO --json -
"$bin" history detect $db --machine box >out 2>err && ok || fail "detect of a known machine: $(cat err)"

# schema version 0 with tables: damaged
python3 - <<'PY' || fail "no damaged database made"
import sqlite3
db = sqlite3.connect("damaged.sqlite")
db.execute("PRAGMA application_id = 1364410952")  # 0x51534248, "QSBH"
db.execute("CREATE TABLE runs(id INTEGER PRIMARY KEY)")
db.commit()
PY
check_refused "damaged.sqlite: a damaged history: its schema version is 0 but it holds tables" \
    "$bin" history list --db damaged.sqlite
check_refused "a damaged history" "$bin" history add a.csv --db damaged.sqlite --commit c1 --date 2026-11-01

# a failed add
check_refused "cannot read 'nosuch.csv'" "$bin" history add nosuch.csv --db new.sqlite --commit c1 --date 2026-11-01
check_same "$(ls | grep -c '^new\.sqlite')" 0 "files of a failed add"
echo "not,a,results,file" >bad.csv
"$bin" history add bad.csv --db new.sqlite --commit c1 --date 2026-11-01 >out 2>err
check_same "$?" 2 "add of a malformed file"
check_same "$(ls | grep -c '^new\.sqlite')" 0 "files of a failed add of a malformed file"
mkdir fresh
(cd fresh && "$bin" history add ../nosuch.csv --commit c1 --date 2026-11-01 >/dev/null 2>&1)
check_same "$(ls fresh)" "" "files of a failed add to the default database"
cp ro/h.sqlite kept.sqlite
before=$(cksum <kept.sqlite)
"$bin" history add nosuch.csv --db kept.sqlite --commit c3 --date 2026-11-03 >out 2>err
check_same "$?" 2 "a failed add to an existing database"
check_same "$(cksum <kept.sqlite 2>&1)" "$before" "an existing database after a failed add"
check_done
