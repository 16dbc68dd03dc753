#!/bin/sh
# `qsortbench list` through the real binary: every registry entry on its own line with its
# declared properties; `system` (the host's libc) shows them as unknown, measured by audit,
# never as a claim; the patterns follow. tests/test_list.sh QSORTBENCH
set -u
BIN=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
. "$(dirname "$0")/check.sh"

"$BIN" list >"$out" 2>&1
check "exit 0" [ $? -eq 0 ]
check "system: unknown" sh -c "grep -q '^  system  *\[properties unknown: measured by audit\]' '$out'"
check "system: no claim" sh -c "! grep '^  system ' '$out' | grep -q 'unstable\|quadratic\|in-place\|allocates'"
check "musl: in place, n log n" sh -c "grep -q '^  musl  *\[unstable in-place  nlogn ' '$out'"
check "llvm: in place, n log n" sh -c "grep -q '^  llvm  *\[unstable in-place  nlogn ' '$out'"
check "bsd: in place, quadratic" sh -c "grep -q '^  bsd  *\[unstable in-place  quadratic' '$out'"
check "msort: stable" sh -c "grep -q '^  msort  *\[stable   allocates nlogn     fallback\]' '$out'"
check "bsd-mergesort: stable" sh -c "grep -q '^  bsd-mergesort  *\[stable   allocates nlogn  ' '$out'"
check "dietlibc: says its rand() restarts" sh -c "grep '^  dietlibc ' '$out' | grep -q 'rand().*fresh process'"
for name in bsd bsd-heapsort bsd-mergesort dietlibc heapsort introsort introsort-2021 introsort-final klibc llvm msort msort-2.39 musl newlib openbsd quicksort system; do
    check "$name listed" sh -c "grep -q '^  $name ' '$out'"
done
check "patterns" grep -q "^Patterns:" "$out"
check_done
