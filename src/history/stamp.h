/*
** What a run is filed under in the history: its commit, the commit's date and the branch.
** Options give them; what they leave out comes from git in the given directory (HEAD, its
** committer date, its branch). Without either, the run cannot be filed: one line naming the
** option to give, QSB_EUSAGE.
*/
#ifndef QSB_STAMP_H
#define QSB_STAMP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    char commit[128];
    char date[64];     /* ISO 8601, as given or as git gives it */
    int64_t time;      /* the same moment in seconds since the epoch */
    char branch[256];  /* "" when not known */
    int64_t depth;     /* the commits of its ancestry, itself included (git rev-list --count):
                       ** an ancestor's is always smaller, so it orders a series by ancestry;
                       ** 0 when git does not know the commit */
    bool dirty;        /* filed under HEAD while the checkout had uncommitted changes */
} qsb_stamp_text;

/* commit, date, branch: the options' values or NULL. dir: where git looks (NULL: here).
** Filed under HEAD (commit NULL) with uncommitted changes to tracked files, the stamp is
** dirty, and a warning says so. */
int qsb_stamp_resolve(const char *commit, const char *date, const char *branch,
                      const char *dir, qsb_stamp_text *out);

#endif
