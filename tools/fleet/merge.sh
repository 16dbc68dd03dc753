#!/bin/sh
# The final step of a fleet (docs/ci-recipes.md): merge every shard JSON under INDIR (any
# depth: CI artifacts land in one folder per job) into OUT.json and OUT.csv, then draw the
# charts when gnuplot is there.
#   merge.sh QSORTBENCH INDIR OUT
set -eu
bin=$1 indir=$2 out=$3
files=$(find "$indir" -name '*-shard-*-of-*.json' | sort)
[ -n "$files" ] || { echo "merge.sh: no shard files under $indir" >&2; exit 2; }
# shellcheck disable=SC2086 # the names are ours: no blanks
"$bin" merge $files -o "$out.json" --csv "$out.csv"
if command -v gnuplot >/dev/null 2>&1; then
    "$bin" plot "$out.json"
fi
