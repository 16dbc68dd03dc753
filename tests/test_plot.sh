#!/bin/sh
# `qsortbench plot` through the binary, on the fixtures tests/fixtures/plot/small.{csv,json}
# (2 sizes x 2 patterns x 2 counts, msort against introsort, introsort failed on random, 4096
# elements, 4 bytes): the charts beside the file or in -o DIR, valid PNGs of the scripts' sizes
# (signature, IHDR), SVGs with the expected number of bars and points, names with spaces and
# quotes; gnuplot missing (empty PATH) or failing: exit 3, one error line naming gnuplot-nox
# and gnuplot's message, no chart left; usage errors: exit 2; `run --plot` (charts beside the
# CSV; gnuplot missing: exit 3 before the run).
# Usage: test_plot.sh PATH/TO/qsortbench FIXTURE_DIR. Exits 77 (skipped) without gnuplot.
set -u
bin=$1
fixtures=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$(dirname "$0")/check.sh"

# Runs "$bin plot ARGS..." with stdout in $tmp/out and stderr in $tmp/err; sets $rc.
run_plot() {
    "$bin" plot "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# width x height of a PNG, or "not a PNG".
png_size() {
    sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
    ihdr=$(od -An -c -j12 -N4 "$1" | tr -d ' \n')
    if [ "$sig" != 89504e470d0a1a0a ] || [ "$ihdr" != IHDR ]; then
        echo "not a PNG"
        return
    fi
    set -- $(od -An -tu1 -j16 -N8 "$1")
    echo "$(($1 * 16777216 + $2 * 65536 + $3 * 256 + $4))x$(($5 * 16777216 + $6 * 65536 + $7 * 256 + $8))"
}

occurrences() { grep -o "$2" "$1" | wc -l | tr -d ' '; }

# The one error line: prefix, one line, nothing on stdout.
check_error_line() {
    check_same "$(wc -l <"$tmp/err" | tr -d ' ')" 1 "$1: stderr lines"
    check_same "$(grep -c '^qsortbench: error: ' "$tmp/err")" 1 "$1: error prefix"
    check_same "$(wc -c <"$tmp/out" | tr -d ' ')" 0 "$1: stdout"
}

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "gnuplot is not installed (Debian: gnuplot-nox): skipped"
    exit 77
fi

# ---- CSV, default directory: beside the results file, whose name has spaces and quotes ----
mkdir "$tmp/runs"
name="it's a \"run\""
cp "$fixtures/small.csv" "$tmp/runs/$name.csv"
run_plot "$tmp/runs/$name.csv"
check_same "$rc" 0 "csv: exit status"
check_same "$(cat "$tmp/out")" "$tmp/runs/$name-deltas-introsort.png
$tmp/runs/$name-scaling.png
$tmp/runs/$name-comparisons.png" "csv: charts listed"
check_same "$(wc -c <"$tmp/err" | tr -d ' ')" 0 "csv: stderr"
check_same "$(png_size "$tmp/runs/$name-deltas-introsort.png")" 1100x765 "csv: deltas PNG"
check_same "$(png_size "$tmp/runs/$name-scaling.png")" 1035x725 "csv: scaling PNG"
check_same "$(png_size "$tmp/runs/$name-comparisons.png")" 1090x765 "csv: comparisons PNG"
check_same "$(ls "$tmp/runs" | wc -l | tr -d ' ')" 4 "csv: files beside the results (no temporaries)"

# ---- JSON, -o DIR (created), SVG, a title with quotes ----
run_plot "$fixtures/small.json" -o "$tmp/svg out" --format svg --title "Tom's \"test\""
check_same "$rc" 0 "svg: exit status"
check_same "$(ls "$tmp/svg out" | tr '\n' ' ')" \
    "small-comparisons.svg small-deltas-introsort.svg small-scaling.svg " "svg: files"
deltas="$tmp/svg out/small-deltas-introsort.svg"
scaling="$tmp/svg out/small-scaling.svg"
comparisons="$tmp/svg out/small-comparisons.svg"
for svg in "$deltas" "$scaling" "$comparisons"; do
    check_same "$(head -c 5 "$svg")" "<?xml" "svg: XML declaration"
    check_same "$(grep -v '^$' "$svg" | tail -n 1)" "</svg>" "svg: closing tag last"
    check_same "$(occurrences "$svg" '<g ')" "$(occurrences "$svg" '</g>')" "svg: balanced groups"
    check_same "$(grep -c 'plot-fixture (Fixture CPU 3000), glibc 2.36; seed 0x9abc56781234' "$svg")" 1 \
        "svg: machine and seed subtitle"
done
# Bars: 8 cells less the failed one, plus 2 key samples; crosses: the failed cell and its key.
check_same "$(occurrences "$deltas" "fill-opacity = '0.850000'")" 9 "svg: delta bars"
check_same "$(occurrences "$deltas" "href='#gpPt1'")" 2 "svg: failed crosses in deltas"
check_same "$(grep -c "Tom's &quot;test&quot;: introsort against msort\|Tom's \"test\": introsort against msort" "$deltas")" 1 "svg: title"
# Points: 4 panels x 2 algorithms x 2 counts less the failed one, plus 2 key samples.
check_same "$(occurrences "$scaling" "href='#gpPt6'")" 17 "svg: scaling points"
check_same "$(occurrences "$scaling" '<text>L1d</text>')" 2 "svg: L1d marks (32-byte panels only)"
check_same "$(occurrences "$comparisons" "fill-opacity = '0.850000'")" 17 "svg: comparison bars"

# ---- gnuplot missing: an empty PATH directory ----
mkdir "$tmp/empty" "$tmp/none"
PATH="$tmp/empty" "$bin" plot "$fixtures/small.csv" -o "$tmp/none" >"$tmp/out" 2>"$tmp/err"
rc=$?
check_same "$rc" 3 "no gnuplot: exit status"
check_error_line "no gnuplot"
check_same "$(grep -c 'gnuplot.*No such file or directory.*gnuplot-nox' "$tmp/err")" 1 \
    "no gnuplot: message names the package"
check_same "$(ls "$tmp/none" | wc -l | tr -d ' ')" 0 "no gnuplot: no chart"

# ---- gnuplot failing half-way (the scaling chart), after writing part of its output ----
mkdir "$tmp/fake"
cat >"$tmp/fake/gnuplot" <<'EOF'
#!/bin/sh
case "$4" in
*scaling*) echo partial >"$5"; echo '"scaling.gp" line 7: fake failure' >&2; exit 1 ;;
esac
echo chart >"$5"
EOF
chmod +x "$tmp/fake/gnuplot"
PATH="$tmp/fake:$PATH" "$bin" plot "$fixtures/small.csv" -o "$tmp/none" >"$tmp/out" 2>"$tmp/err"
rc=$?
check_same "$rc" 3 "gnuplot failing: exit status"
check_error_line "gnuplot failing"
check_same "$(grep -c 'scaling.gp" line 7: fake failure.*gnuplot-nox' "$tmp/err")" 1 \
    "gnuplot failing: its message and the package"
check_same "$(ls "$tmp/none" | wc -l | tr -d ' ')" 0 "gnuplot failing: no chart, whole or partial"

# ---- usage errors: exit 2, one line, nothing written ----
run_plot
check_same "$rc" 2 "no operand"
check_error_line "no operand"
run_plot "$fixtures/small.csv" --format jpg -o "$tmp/none"
check_same "$rc" 2 "bad format"
check_error_line "bad format"
run_plot "$fixtures/small.csv" "$fixtures/small.json" -o "$tmp/none"
check_same "$rc" 2 "two operands"
check_error_line "two operands"
run_plot "$tmp/missing.csv" -o "$tmp/none"
check_same "$rc" 2 "missing results file"
check_error_line "missing results file"
run_plot "$fixtures/small.csv" -o "$tmp/runs/$name.csv/sub"
check_same "$rc" 2 "-o under a file"
check_error_line "-o under a file"
check_same "$(ls "$tmp/none" | wc -l | tr -d ' ')" 0 "usage errors: no chart"

# ---- run --plot: the charts beside the CSV; without gnuplot it fails before the run ----
mkdir "$tmp/run"
"$bin" run --nelem 100:1000 --sizes 4 --patterns sorted,random --metric comparisons --quiet \
    --csv "$tmp/run/r.csv" --json "$tmp/run/r.json" --plot >"$tmp/out" 2>"$tmp/err"
check_same "$?" 0 "run --plot: exit status"
check_same "$(ls "$tmp/run" | tr '\n' ' ')" \
    "r-comparisons.png r-deltas-introsort.png r-scaling.png r.csv r.json " "run --plot: files"
check_same "$(grep -c "^$tmp/run/r-.*\.png$" "$tmp/out")" 3 "run --plot: charts listed after the table"
mkdir "$tmp/run2"
PATH="$tmp/empty" "$bin" run --nelem 100 --sizes 4 --patterns sorted --metric comparisons \
    --quiet --csv "$tmp/run2/r.csv" --json "$tmp/run2/r.json" --plot >"$tmp/out" 2>"$tmp/err"
check_same "$?" 3 "run --plot without gnuplot: exit status"
check_error_line "run --plot without gnuplot"
check_same "$(ls "$tmp/run2" | wc -l | tr -d ' ')" 0 "run --plot without gnuplot: nothing run or written"

run_plot --help
check_same "$rc" 0 "--help"
check_same "$(grep -c -- '--format FMT' "$tmp/out")" 1 "--help lists --format"

check_done
