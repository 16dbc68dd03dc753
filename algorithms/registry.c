/*
** The algorithm registry (see registry.h): the one table of every built-in sort. Rows are
** kept sorted by name (strcmp order), which makes `list` predictable and duplicates adjacent;
** test_registry checks that the order is strict, hence the names unique.
**
** Declared properties describe the normal path. The merge sorts are marked FALLBACK because
** without scratch memory they run an in-place sort that is not stable (and, for msort, is
** quadratic in the worst case). `system` is whatever the host's libc does, so it declares
** nothing: QSB_PROP_UNKNOWN, and `audit` measures it. bsd-mergesort threads its run list
** through pairs of elements, so, like libbsd's, it sorts nothing smaller than half a pointer.
*/
#include "registry.h"

#include <string.h>

#include "sorts.h"

const qsb_algorithm qsb_algorithms[] = {
    {"bsd", "Bentley-McIlroy quicksort: ninther pivot, 3-way partition, insertion sort below 7",
     qsb_bsd, 0, "FreeBSD lib/libc/stdlib/qsort.c, commit 0dcfecbf47 of 2025", 0},
    {"bsd-heapsort", "libbsd heapsort(3): Knuth's heapsort with Floyd's sift, one-element buffer",
     qsb_bsd_heapsort, QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST,
     "libbsd 0.11.7 src/heapsort.c, from 4.4BSD, as Debian 12 ships it", 0},
    {"bsd-mergesort", "libbsd mergesort(3): McIlroy's natural merge sort, galloping merges",
     qsb_bsd_mergesort, QSB_PROP_STABLE | QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST,
     "libbsd 0.11.7 src/merge.c, from 4.4BSD, as Debian 12 ships it", sizeof(void *) / 2},
    /* Random pivots: quadratic only by bad luck, or against an adversary, as `audit` shows. */
    {"dietlibc", "3-way quicksort, pivots from dietlibc's rand() reset to a fresh process's seed",
     qsb_dietlibc, 0, "dietlibc 0.34 lib/qsort.c, CVS of 2016-06-06, as Debian 12 ships it", 0},
    {"heapsort", "binary-heap sort, in place (glibc 2.39's malloc-failure fallback)",
     qsb_heapsort, QSB_PROP_NLOGN_WORST, "glibc 2.39 stdlib/qsort.c heapsort_r", 0},
    /* glibc promised an O(n log n) worst case for it, but as committed the depth is spent
    ** only on pushes, so McIlroy's adversary drives it quadratic (`audit`): not declared. */
    {"introsort", "introsort qsort as committed: quicksort, buggy heapsort at depth 2 log2 n",
     qsb_introsort, 0,
     "glibc commit of 2023-10-31 (introsort qsort, reverted Jan 2024)", 0},
    /* The cover letter's own code; as quadratic as the commit under the adversary. */
    {"introsort-2021", "introsort of the 2021 patches: quicksort, bottom-up heapsort at depth",
     qsb_introsort_2021, 0,
     "glibc 2021 v3 series \"Use introsort for qsort\" (stdlib/qsort.c of 2021)", 0},
    {"introsort-final", "introsort with its Nov-Dec 2023 fixes: real heapsort, bounded scans",
     qsb_introsort_final, QSB_PROP_NLOGN_WORST, "glibc master 2023-12-04", 0},
    /* Combsort's last passes are bubble sort: no n log n bound is known, none is declared. */
    {"klibc", "combsort: gaps shrunk by 10/13 (rule of 11), byte-by-byte memswap",
     qsb_klibc, 0, "klibc 2.0.12 usr/klibc/qsort.c, as Debian 12 ships it", 0},
    {"llvm", "LLVM libc's qsort: Hoare quicksort, sampled pivot, equal-key split, heapsort bound",
     qsb_llvm, QSB_PROP_NLOGN_WORST,
     "LLVM libc 22.1.8 libc/src/stdlib/quick_sort.h (the 2024 rewrite)", 0},
    {"msort", "merge sort, indirect above 32 bytes, quicksort without memory (qsort <= 2.38)",
     qsb_msort, QSB_PROP_STABLE | QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST | QSB_PROP_FALLBACK,
     "glibc 2.36 stdlib/msort.c (unchanged 1992-2.38)", 0},
    {"msort-2.39", "merge sort as since glibc 2.39: heapsort without memory, fewer word copies",
     qsb_msort_239,
     QSB_PROP_STABLE | QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST | QSB_PROP_FALLBACK,
     "glibc 2.39 stdlib/qsort.c; the same calls in 2.40-2.42 and master of 2026-01-20", 0},
    {"musl", "smoothsort over Leonardo heaps, in place, about n comparisons when sorted",
     qsb_musl, QSB_PROP_NLOGN_WORST, "musl 1.2.3 src/stdlib/qsort.c", 0},
    {"newlib", "Bentley-McIlroy quicksort with swap_cnt, 8-level explicit stack (newlib)",
     qsb_newlib, 0, "newlib 3.3.0 newlib/libc/search/qsort.c, as Debian 12 ships it", 0},
    /* malloc only in its heapsort, which only inputs that exhaust the depth reach. */
    {"openbsd", "Bentley-McIlroy introsort: heapsort(3) at depth 2 (log2 n + 1), OpenBSD's",
     qsb_openbsd, QSB_PROP_ALLOCATES | QSB_PROP_NLOGN_WORST,
     "OpenBSD lib/libc/stdlib/qsort.c rev. 1.18 of 2017-05-30", 0},
    {"quicksort", "median-of-three quicksort + sentinel insertion sort (msort's fallback)",
     qsb_quicksort, 0, "glibc 2.36 stdlib/qsort.c _quicksort", 0},
    {"stackmerge", "stable merge sort, no malloc: branchless 2-chain merges, 2 KiB stack buffer",
     qsb_stackmerge, QSB_PROP_STABLE | QSB_PROP_NLOGN_WORST,
     "quadsort parity merges (Hennink 2021), merge-path splits, Dudzinski-Dydek 1981 in place", 0},
    {"system", "this machine's libc qsort_r, untouched", qsb_system_qsort, QSB_PROP_UNKNOWN,
     "host libc", 0},
};

const size_t qsb_algorithm_count = sizeof qsb_algorithms / sizeof qsb_algorithms[0];

const qsb_algorithm *qsb_algorithm_find(const char *name)
{
    for (size_t i = 0; i < qsb_algorithm_count; i++)
        if (strcmp(qsb_algorithms[i].name, name) == 0)
            return &qsb_algorithms[i];
    return NULL;
}
