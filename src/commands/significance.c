/*
** The significance options (significance.h).
*/
#include "significance.h"

#include "diag.h"

int qsb_parse_alpha(const char *text, double *alpha)
{
    int status = qsb_parse_double(text, "--alpha", 0.0, 1.0, alpha);
    if (status == QSB_OK && (*alpha <= 0.0 || *alpha >= 1.0))
        return qsb_usage_error("--alpha: '%s' must lie strictly between 0 and 1",
                               qsb_quote(text));
    return status;
}

int qsb_parse_correction(const char *text, qsb_correction *correction)
{
    if (qsb_correction_of(text, correction) != 0)
        return qsb_usage_error("--correction: '%s' is not holm, bh or none", qsb_quote(text));
    return QSB_OK;
}

int qsb_parse_run_level(const char *text, double *pct)
{
    return qsb_parse_double(text, "--run-level", 0.0, 1000.0, pct);
}
