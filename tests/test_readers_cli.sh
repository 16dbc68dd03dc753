#!/bin/sh
# Files the readers refuse, through the binary: every command that reads them stops with exit
# 2, one error line naming the file and nothing on stdout, nothing written:
#  - zero times in a time metric (compare either way round: never "same");
#  - a JSON key given twice in one object;
#  - a fleet whose two machines have one name (compare --machines, export).
# Usage: test_readers_cli.sh PATH/TO/qsortbench FIXTURE_DIR (tests/fixtures/results).
set -u
bin=$1
fixtures=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$(dirname "$0")/check.sh"

# refused WHAT FILE ARGS...: exit 2, one error line naming FILE, empty stdout.
refused() {
    what=$1
    file=$2
    shift 2
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    check_same "$?" 2 "$what: exit status"
    check_same "$(wc -l <"$tmp/err" | tr -d ' ')" 1 "$what: error lines"
    grep -q "^qsortbench: error: .*$file" "$tmp/err" && ok || fail "$what: '$file' not named"
    [ -s "$tmp/out" ] && fail "$what: stdout '$(head -c 200 "$tmp/out")'" || ok
}

refused "zero times as NEW" "zero-times.csv:2: column 'min'" \
    compare "$fixtures/small.csv" "$fixtures/zero-times.csv"
refused "zero times as BASE" "zero-times.csv:2: column 'min'" \
    compare "$fixtures/zero-times.csv" "$fixtures/small.csv"
refused "a repeated key" "repeated-key.json:32: key 'median' given twice" \
    compare "$fixtures/small.json" "$fixtures/repeated-key.json"
refused "one name twice, compared" "fleet-same-names.json: machines\[1\]" \
    compare --machines fixture-host,fixture-host "$fixtures/fleet-same-names.json"
refused "one name twice, exported" "fleet-same-names.json: machines\[1\]" \
    export "$fixtures/fleet-same-names.json" --format bmf -o "$tmp/fleet.bmf.json"
[ -e "$tmp/fleet.bmf.json" ] && fail "an export written" || ok
refused "one name twice, merged" "fleet-same-names.json: machines\[1\]" \
    merge "$fixtures/fleet-same-names.json" -o "$tmp/m.json"
[ -e "$tmp/m.json" ] && fail "a merge written" || ok

check_done
