/*
** A run's commit, date and branch (stamp.h), from the options and from git.
*/
#include "stamp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "child.h"
#include "diag.h"
#include "option_names.h"

static int digits(const char **p, int n, int *out)
{
    *out = 0;
    for (int i = 0; i < n; i++, (*p)++) {
        if (!isdigit((unsigned char)**p))
            return -1;
        *out = *out * 10 + (**p - '0');
    }
    return 0;
}

static int expect(const char **p, char c)
{
    return **p == c ? ((*p)++, 0) : -1;
}

static int parse_zone(const char *p, int *offset_s)
{
    *offset_s = 0;
    if (*p == '\0' || strcmp(p, "Z") == 0)
        return 0;
    int sign = *p == '+' ? 1 : *p == '-' ? -1 : 0;
    int hh, mm;
    p++;
    if (!sign || digits(&p, 2, &hh) != 0)
        return -1;
    if (*p == ':')
        p++;
    if (digits(&p, 2, &mm) != 0 || *p != '\0' || hh > 23 || mm > 59)
        return -1;
    *offset_s = sign * (hh * 3600 + mm * 60);
    return 0;
}

/* An ISO 8601 date: YYYY-MM-DD, optionally followed by THH:MM or THH:MM:SS (a space for the
** T too) and Z or +HH:MM / -HH:MM (none: UTC). 0, or -1 when text is not one. */
static int parse_iso_date(const char *text, int64_t *time)
{
    const char *p = text;
    int y, mo, d, h = 0, mi = 0, s = 0, offset;
    if (digits(&p, 4, &y) || expect(&p, '-') || digits(&p, 2, &mo) || expect(&p, '-') ||
        digits(&p, 2, &d))
        return -1;
    if (*p == 'T' || *p == ' ') {
        p++;
        if (digits(&p, 2, &h) || expect(&p, ':') || digits(&p, 2, &mi))
            return -1;
        if (*p == ':' && (p++, digits(&p, 2, &s)))
            return -1;
    }
    if (parse_zone(p, &offset) != 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
        mi > 59 || s > 60)
        return -1;
    struct tm tm = {.tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = h,
                    .tm_min = mi, .tm_sec = s};
    time_t t = timegm(&tm);
    if (t == (time_t)-1 || tm.tm_mday != d) /* timegm normalises 2026-02-31 to March */
        return -1;
    *time = (int64_t)t - offset;
    return 0;
}

static int git(const char *dir, char *out, size_t len, const char *a1, const char *a2,
               const char *a3, const char *a4)
{
    const char *argv[] = {"git", a1, a2, a3, a4, NULL};
    return qsb_child_run(argv, dir, NULL, out, len, QSB_CHILD_QUIET) == 0 && out[0] ? 0 : -1;
}

/* The commit's place in the ancestry (stamp.h), 0 when git does not know it, or knows only
** part of it (a shallow clone counts from its cut: its commits would come first). */
static int64_t ancestry_depth(const char *dir, const char *commit)
{
    char rev[160], count[32], shallow[8];
    if (git(dir, shallow, sizeof shallow, "rev-parse", "--is-shallow-repository", NULL,
            NULL) != 0 || strcmp(shallow, "false") != 0)
        return 0;
    snprintf(rev, sizeof rev, "%s^{commit}", commit);
    if (git(dir, count, sizeof count, "rev-list", "--count", rev, NULL) != 0)
        return 0;
    char *end;
    long long depth = strtoll(count, &end, 10);
    return *end == '\0' && depth > 0 ? (int64_t)depth : 0;
}

/* Uncommitted changes to the checkout's tracked files (untracked ones, such as the results
** being written, do not change what was built). */
static bool checkout_dirty(const char *dir)
{
    char changes[2];
    return git(dir, changes, sizeof changes, "status", "--porcelain", "--untracked-files=no",
               NULL) == 0;
}

int qsb_stamp_resolve(const char *commit, const char *date, const char *branch,
                      const char *dir, qsb_stamp_text *out)
{
    memset(out, 0, sizeof *out);
    if (commit) {
        snprintf(out->commit, sizeof out->commit, "%s", commit);
    } else if (git(dir, out->commit, sizeof out->commit, "rev-parse", "--verify", "-q",
                   "HEAD^{commit}") != 0) {
        return qsb_usage_error("no commit to file the run under: not in a git checkout "
                               "(run there, or give history add --" QSB_OPT_COMMIT " REV --"
                               QSB_OPT_DATE " ISO)");
    }
    if (date) {
        snprintf(out->date, sizeof out->date, "%s", date);
    } else {
        char rev[160];
        snprintf(rev, sizeof rev, "%s^{commit}", out->commit);
        if (git(dir, out->date, sizeof out->date, "log", "-1", "--format=%cI", rev) != 0)
            return qsb_usage_error("no date for commit '%s' (git does not know it): give "
                                   "--" QSB_OPT_DATE " ISO", qsb_quote(out->commit));
    }
    if (parse_iso_date(out->date, &out->time) != 0)
        return qsb_usage_error("--" QSB_OPT_DATE ": '%s' is not an ISO 8601 date "
                               "(YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM])", qsb_quote(out->date));
    if (branch)
        snprintf(out->branch, sizeof out->branch, "%s", branch);
    else if (!commit && (git(dir, out->branch, sizeof out->branch, "rev-parse",
                             "--abbrev-ref", "HEAD", NULL) != 0 ||
                         strcmp(out->branch, "HEAD") == 0))
        out->branch[0] = '\0'; /* no branch, or a detached HEAD */
    out->depth = ancestry_depth(dir, out->commit);
    if (!commit && (out->dirty = checkout_dirty(dir)))
        qsb_warning("the checkout has uncommitted changes: the run is filed under HEAD %.12s "
                    "marked dirty (commit them to file it cleanly)",
                    out->commit);
    return QSB_OK;
}
