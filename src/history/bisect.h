/*
** Bisection of a git range of a sort's source for the first revision that made it slower
** (`history bisect`). Each revision looked at is checked out in a temporary git worktree and
** built there by the user's command, with OUT naming the plug-in to make; it is then measured
** in one run of this tool against the good revision's plug-in (`run --algos
** good=GOOD.so:SYM,candidate=REV.so:SYM --fail-above PCT`, the in-run gate's paired test) and
** is slower when the gate fails. A binary search over the range (good excluded, bad
** included) needs ceil(log2(range)) + 1 runs at most: the bad revision first, to confirm there
** is a slowdown to find. A revision whose build fails, or whose sort fails verification, is
** skipped (as `git bisect skip`) and a neighbour measured instead. Every run is added to the
** history when a database is given, filed under the revision it measured.
*/
#ifndef QSB_BISECT_H
#define QSB_BISECT_H

#include <stddef.h>

/* The words of a run's command line that each run is given: the command, and its options
** that name the candidates, the gate, the results files and no progress line. They are the
** command's, spelled by run's option table, which history does not know. */
enum { QSB_BISECT_RUN, QSB_BISECT_ALGOS, QSB_BISECT_GATE, QSB_BISECT_JSON, QSB_BISECT_CSV,
       QSB_BISECT_QUIET, QSB_BISECT_WORDS };

typedef struct {
    const char *repo;          /* the git repository of the sort's source */
    const char *good, *bad;    /* revisions: good not slower, bad slower */
    const char *build;         /* a shell command run in the checked-out tree, OUT set */
    const char *symbol;        /* the sort's symbol in the plug-in (qsort_r's signature) */
    double threshold_pct;      /* slower: the gate fails at this percentage */
    char *const *run_options;  /* more options of the runs (the matrix, --reps, ...) */
    size_t n_run_options;
    const char *history_path;  /* the runs are added here; NULL: not kept */
    const char *self;          /* this tool's executable, which runs the measurements */
    char run_words[QSB_BISECT_WORDS][32]; /* "run", "--algos", ...: as above */
} qsb_bisect_config;

/* Returns QSB_OK with the first slower revision named on stdout; QSB_FINDING when the bad
** revision is not slower than the good one (nothing to bisect); QSB_EUSAGE for revisions git
** does not know, good not an ancestor of bad, a good revision that does not build, or a run
** refused; QSB_ESYSTEM for I/O. Each step of the search is one line on stdout. */
int qsb_bisect(const qsb_bisect_config *cfg);

#endif
