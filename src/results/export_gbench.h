/*
** Results in Google Benchmark's JSON format (`--export gbench=FILE`, export.h), for the tools that
** read it: google/benchmark's compare.py, github-action-benchmark (tool 'googlecpp') and
** Bencher (adapter 'cpp_google').
**
** Name scheme: ALGORITHM/PATTERN/NELEM/SIZE with the pattern in capitals, e.g.
** "introsort/RANDOM/786432/4": the family (the part before the first '/') is the algorithm,
** as BM_name/args is in Google Benchmark, so filters and charts group by algorithm.
** Rows, as Google Benchmark writes them under --benchmark_repetitions: per (cell, algorithm)
** one "iteration" row per timed round (repetition_index = the round, iterations 1: one sort),
** then the aggregates "<name>_mean", "<name>_median", "<name>_stddev" (run_type "aggregate",
** aggregate_name, aggregate_unit "time"). real_time is the sort's time in ns (cycles / the
** context's tsc_hz); cpu_time carries the same value, as no CPU time is measured. Rows whose
** sort failed verification, or that have no samples, are left out.
** The context block: date, host_name, executable, num_cpus, mhz_per_cpu, cpu_scaling_enabled,
** caches (from this machine's sysfs, as the export runs where the run ran), load_avg,
** library_build_type, plus qsortbench_* keys (version, metric, seed, baseline).
*/
#ifndef QSB_EXPORT_GBENCH_H
#define QSB_EXPORT_GBENCH_H

#include <stdio.h>

#include "result.h"

/* Can results of this metric be exported (a time: cycles or ns)? Reports a usage error
** naming the option and returns QSB_EUSAGE when not; run calls it before any work. */
int qsb_export_gbench_check(const char *metric);

/* Writes r. Returns QSB_OK, QSB_EUSAGE (a metric without time, cycles without tsc_hz), or
** QSB_ESYSTEM when out of memory; write errors stay in fp's error flag (outfile.h). */
int qsb_export_gbench(FILE *fp, const qsb_results *r);

#endif
