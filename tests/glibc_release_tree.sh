#!/bin/sh
# glibc_release_tree.sh TARBALL DIR: extracts stdlib/qsort.c and stdlib/msort.c of a glibc
# 2.36 source tarball into DIR (in the build directory; never into the source tree) as the
# 2.36 release had them, for the glibc oracle tests.
#
# Debian's 2.36 tree is a snapshot of the release/2.36 branch, which carries the January 2024
# fix for the Qualys finding: _quicksort's insertion sort stops at the array's start
# ("tmp_ptr != base_ptr && ..."). The release relied on the sentinel instead and compared with
# it once more per insertion that reached it; `quicksort` follows the release (the counts of
# tests/reference/comparisons.csv were measured on it), so that one condition is taken out
# again here. Nothing else changes: msort.c and the partitioning are the tarball's.
set -eu
tarball=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"
tar -xf "$tarball" -C "$dir" --strip-components=1 --wildcards --no-anchored \
    'stdlib/qsort.c' 'stdlib/msort.c'
qsort=$dir/stdlib/qsort.c
if grep -q 'while (tmp_ptr != base_ptr$' "$qsort"; then
    sed -i -e '/while (tmp_ptr != base_ptr$/{N;s/tmp_ptr != base_ptr\n[[:space:]]*&& //}' "$qsort"
    grep -q 'while (tmp_ptr != base_ptr' "$qsort" && { echo "$0: could not revert the bound" >&2; exit 1; }
    echo "glibc oracle: the tarball's 2024 insertion-sort bound reverted (2.36 release code)"
fi
