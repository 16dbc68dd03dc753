#!/bin/sh
# libc_oracle_object.sh LIBC SOURCE OUTPUT.o: one libc's qsort as a relocatable object for the
# libc oracle tests (test_libc_oracle.c), its entry renamed <libc>_qsort so that it never
# interposes the host's qsort, and its helpers renamed alike.
#
#   klibc     SOURCE is klibc's static library (Debian's libklibc-dev): the members qsort.o
#             and memswap.o, as compiled by Debian (nothing is rebuilt)
#   dietlibc  SOURCE is dietlibc's static library (dietlibc-dev): qsort.o with the rand.o and
#             rand_r.o its pivots come from, as compiled (not position independent: the test
#             that links it is built -no-pie)
#   newlib    SOURCE is newlib's source tarball (newlib-source): newlib/libc/search/qsort.c
#             compiled here with CC at -O2 (newlib ships no object for the host)
# CC, LD and OBJCOPY are honoured.
set -eu
if [ $# -ne 3 ]; then
    echo "usage: $0 klibc|dietlibc|newlib SOURCE OUTPUT.o" >&2
    exit 2
fi
libc=$1 source=$2 output=$3
case $source in /*) ;; *) source=$PWD/$source ;; esac # the extraction runs elsewhere
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Renames each listed global symbol to <libc>_<symbol> in $work/joined.o, written to $output.
rename() {
    args=
    for symbol in "$@"; do
        args="$args --redefine-sym $symbol=${libc}_$symbol"
    done
    # shellcheck disable=SC2086 # one word per option
    ${OBJCOPY:-objcopy} $args "$work/joined.o" "$output"
}
case $libc in
klibc)
    (cd "$work" && ar x "$source" qsort.o memswap.o)
    ${LD:-ld} -r -o "$work/joined.o" "$work/qsort.o" "$work/memswap.o"
    rename qsort memswap
    ;;
dietlibc)
    (cd "$work" && ar x "$source" qsort.o rand.o rand_r.o)
    ${LD:-ld} -r -o "$work/joined.o" "$work/qsort.o" "$work/rand.o" "$work/rand_r.o"
    rename qsort rand srand random srandom rand_r
    ;;
newlib)
    member=$(tar -tJf "$source" | grep '/newlib/libc/search/qsort\.c$')
    tar -xJf "$source" -C "$work" "$member"
    : >"$work/_ansi.h" # newlib's own configuration header; qsort.c needs nothing from it
    ${CC:-cc} -O2 -std=gnu11 -w -I"$work" -D'__unused=__attribute__((__unused__))' \
        -Dqsort=newlib_qsort -c -o "$work/joined.o" "$work/$member"
    cp "$work/joined.o" "$output"
    ;;
*)
    echo "$0: unknown libc '$libc'" >&2
    exit 2
    ;;
esac
