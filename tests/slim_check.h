/*
** For the tests of slim rows (result.h): results read in full and read slim hold the same.
*/
#ifndef QSB_SLIM_CHECK_H
#define QSB_SLIM_CHECK_H

#include <stdbool.h>

#include "result.h"

/* CHECKs that slim (read with qsb_read_compare_results) holds full's cells, and in each row
** the same algorithm, samples, units, median, comparisons, verification, failure and states;
** `what` names the pair in messages. */
void check_same_rows(const char *what, const qsb_results *full, const qsb_results *slim);

/* The same value to the bit, or both NAN: what a slim reading must give. */
bool same_double(double a, double b);

#endif
