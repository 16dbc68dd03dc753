#!/bin/sh
# `report --history DB`: the trend section of the HTML page, from a history made here of 12
# runs (results CSV files written by this script, added with history add --commit cNN):
#   - introsort's delta in random/1000/4 steps by +10 points from c08 on, sorted/1000/4 stays
#     flat; c05's random row ran at two speeds (a states text);
#   - the page alone (no results file): one section, history; a chart per cell (2); the steps
#     table names the step c07 -> c08 in the delta series and no delta step in sorted; the
#     chart marks it (the step's label in the SVG); c05's states are named in words;
#   - with a results file the section follows the run's (run, results, charts, history);
#   - the page's structure checked by report_page_check.py (no script, nothing outside);
#     the machine's name, "box<&>", escaped in the headings and the charts;
#   - a missing database is exit 2 with one line and no page.
# Exits 77 (skipped) without gnuplot or python3.
# Usage: test_report_history.sh PATH/TO/qsortbench FIXTURE_DIR CHECKER
set -u
bin=$1
fixtures=$2
checker=$3
for tool in gnuplot python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "skipped: $tool is not installed (Debian: gnuplot-nox, python3)"
        exit 77
    fi
done
tmp=$(mktemp -d) || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT INT TERM
. "$(dirname "$0")/check.sh"

# run NN: two cells of msort (baseline) and introsort; introsort's delta in random steps at
# run 8; the jitter is a fixed pattern so the series never has a second step.
python3 - "$tmp" <<'PY'
import sys
out = sys.argv[1]
head = ("pattern,nelem,size,algorithm,baseline,metric,reps,min,median,mean,stddev,delta_pct,"
        "comparisons,verified,cv,median_lo,median_hi,outliers,delta_lo,delta_hi,noisy,failure,"
        "mode,seed,samples,states")
states = "0.62(5)@95.0/+5.10[+4.00,+6.20];0.38(3)@120.0/+30.20[+20.00,+40.00]"
for i in range(1, 13):
    jitter = ((i * 7) % 5 - 2) * 0.2
    rnd = -13.6 + (10.0 if i >= 8 else 0.0) + jitter
    srt = 2.0 - jitter
    rows = [
        "random,1000,4,msort,msort,cycles,3,100,110,110,10,,8700,true,0.09,,,0,,,false,,default,0x1,100;110;120,",
        "random,1000,4,introsort,msort,cycles,3,90,95,95,5,%.2f,9500,true,0.05,,,0,%.2f,%.2f,false,,default,0x1,90;95;100,%s"
        % (rnd, rnd - 1.5, rnd + 1.5, "\"%s\"" % states if i == 5 else ""),
        "sorted,1000,4,msort,msort,cycles,3,50,50,50,0,,999,true,0,,,0,,,false,,default,0x1,50;50;50,",
        "sorted,1000,4,introsort,msort,cycles,3,51,51,51,0,%.2f,1200,true,0,,,0,%.2f,%.2f,false,,default,0x1,51;51;51,"
        % (srt, srt - 1.5, srt + 1.5),
    ]
    with open("%s/run%02d.csv" % (out, i), "w") as f:
        f.write(head + "\n" + "\n".join(rows) + "\n")
PY
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do
    "$bin" history add "$tmp/run$i.csv" --db "$tmp/h.sqlite" --commit "c$i" \
        --date "2026-01-$i" --machine "box<&>" 2>>"$tmp/add.err" || fail "history add run$i: $(cat "$tmp/add.err")"
done

"$bin" report --history "$tmp/h.sqlite" -o "$tmp/page.html" 2>"$tmp/report.err"
check_same "$?" 0 "report --history: $(cat "$tmp/report.err")"
python3 "$checker" dom "$tmp/page.html" sections=history charts=2 svg=2 >"$tmp/dom.txt"
check_same "$?" 0 "the history page's structure: $(cat "$tmp/dom.txt")"

# The steps table: its rows as "cell|algorithm|series|before|after".
sed -n '/<table class="steps">/,/<\/table>/p' "$tmp/page.html" |
    sed -n 's/^<tr><td>\([^<]*\)<\/td><td>[^<]*<\/td><td>\([^<]*\)<\/td><td>\([^<]*\)<\/td><td class="mono">\([^<]*\)<\/td><td class="mono">\([^<]*\)<\/td>.*/\1|\2|\3|\4|\5/p' \
    >"$tmp/steps.txt"
check_eval "grep -qx 'random 1000 &times; 4|introsort|delta|c07|c08' '$tmp/steps.txt'"
check_same "$(grep -c '|delta|' "$tmp/steps.txt")" 1 "delta steps in the table ($(cat "$tmp/steps.txt"))"
step_line=$(sed -n '/<table class="steps">/,/<\/table>/p' "$tmp/page.html" | grep 'c07</td><td class="mono">c08')
case $step_line in
*'+10.'*|*'+9.'*) ok ;;
*) fail "the step's change is not about +10%: $step_line" ;;
esac
# the chart marks the step with its label, in the random cell's chart (the first)
check_same "$(grep -c 'introsort:+1[0-9]\.[0-9]%\|introsort:+9\.[0-9]%' "$tmp/page.html")" 1 "the step's label in a chart"
# c05's states, in words, under the chart
check_eval "grep -q '<p class=\"states\"><code>c05</code> introsort: states 62% +5.1' '$tmp/page.html'"
check_same "$(grep -c '<p class="states">' "$tmp/page.html")" 1 "runs with states named"

# after a run's sections
"$bin" report "$fixtures/run.json" --history "$tmp/h.sqlite" -o "$tmp/both.html" 2>"$tmp/both.err"
check_same "$?" 0 "report RUN --history: $(cat "$tmp/both.err")"
python3 "$checker" dom "$tmp/both.html" sections=run,results,charts,history >"$tmp/dom2.txt"
check_same "$?" 0 "the run's page with a history: $(cat "$tmp/dom2.txt")"

# the machine's name "box<&>" is text in the page, escaped, and in the charts' titles
check_eval "grep -q '<h3>random 1000 &times; 4 on box&lt;&amp;&gt;</h3>' '$tmp/page.html'"
check_eval "! grep -q 'box<&>' '$tmp/page.html'"

# a missing database: one line, exit 2, no page
"$bin" report --history "$tmp/none.sqlite" -o "$tmp/none.html" 2>"$tmp/none.err"
check_same "$?" 2 "a missing database"
check_same "$(wc -l <"$tmp/none.err")" 1 "a missing database's message: $(cat "$tmp/none.err")"
check_eval "[ ! -e '$tmp/none.html' ]"
check_done
