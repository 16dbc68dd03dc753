#!/bin/sh
# One shard of a sharded run, the step every job of a fleet runs (docs/ci-recipes.md: the
# GitHub Actions job matrix and the Slurm job array both call this script).
#   shard.sh QSORTBENCH K N MACHINE OUTDIR [run options...]
# writes OUTDIR/MACHINE-shard-K-of-N.json (and .csv). K is 1-based.
set -eu
bin=$1 k=$2 n=$3 machine=$4 outdir=$5
shift 5
mkdir -p "$outdir"
exec "$bin" run "$@" --shard "$k/$n" --machine "$machine" \
    --json "$outdir/$machine-shard-$k-of-$n.json" --csv "$outdir/$machine-shard-$k-of-$n.csv"
