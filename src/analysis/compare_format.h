/*
** Inside compare only, so that `qsb_` marks compare's API: the pieces of text and JSON that
** the report's writers (compare_write.c) share with the calibration's (compare_calibration.c).
*/
#ifndef QSB_COMPARE_FORMAT_H
#define QSB_COMPARE_FORMAT_H

#include "compare.h"

/* Longer names (a hostile file) are cut to this many characters in a table. */
#define COMPARE_NAME_MAX 32

/* A name from a file or a path from the command line as a table shows it: escaped (diag.h)
** and cut to size - 1 characters, so that no file can move the cursor or recolour the
** terminal. */
const char *compare_shown(char *buf, size_t size, const char *text);

/* A change in percent as the tables show it: "+1.23%", "+inf", "-" when unknown. */
void compare_format_pct(char *buf, size_t len, double v);

/* obj[key] = v, JSON null when v is not finite; nonzero when out of memory. */
struct cJSON;
int compare_json_number(struct cJSON *obj, const char *key, double v);

#endif
