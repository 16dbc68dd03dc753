#!/bin/sh
# tools/glibc-qsort-plugin end to end: glibc 2.36's qsort, built from Debian's glibc-source
# tarball at build time, run as a plug-in beside the registry's msort with --metric
# comparisons: every cell counts the same calls (so both sort alike, call for call), and the
# qsort-signature export works through the adapter too.
#   tests/test_glibc_plugin.sh QSORTBENCH PLUGIN.so   (an empty PLUGIN: skipped, exit 77)
set -u
BIN=$1
PLUGIN=$2
if [ -z "$PLUGIN" ]; then
    echo "SKIPPED: no glibc source tarball at configure time (apt-get install glibc-source)"
    exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/check.sh"

"$BIN" run --algos "msort,glibc-2.36=$PLUGIN:glibc_qsort_r,qsort-2.36=$PLUGIN:glibc_qsort:qsort" \
    --metric comparisons --nelem 1000:4097 --sizes 1,4,8,12,32,64 --patterns all \
    --csv "$dir/r.csv" -q >"$dir/out" 2>"$dir/err"
check "run exits 0" [ $? -eq 0 ]
# CSV: pattern,nelem,size,algorithm,...,comparisons (by name); the plug-ins' counts per cell
# must equal msort's.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
         { key = $1 "/" $2 "/" $3; c[key, $4] = $(at["comparisons"]); keys[key] = 1 }
         END { n = 0; bad = 0
               for (k in keys) { n++
                   if (c[k, "glibc-2.36"] != c[k, "msort"] || c[k, "qsort-2.36"] != c[k, "msort"]) {
                       bad++; print "differs: " k " msort=" c[k, "msort"] " glibc=" c[k, "glibc-2.36"] " qsort=" c[k, "qsort-2.36"] } }
               print n " cells"; exit bad != 0 || n == 0 }' "$dir/r.csv" >"$dir/cells"
check "plug-in counts equal msort's" [ $? -eq 0 ]
cat "$dir/cells"
check "all cells present" grep -q "^84 cells$" "$dir/cells"
check_done
