/*
** The names of the command line's options that the layers below the commands give in their
** messages and records ("--budget 90s or more"). The commands' option tables are spelled with
** them too, so that an option renamed there is renamed in every message at once. Each is the
** name as a user types it after "--".
*/
#ifndef QSB_OPTION_NAMES_H
#define QSB_OPTION_NAMES_H

#define QSB_OPT_ALGO "algo"
#define QSB_OPT_BAD "bad"
#define QSB_OPT_BUDGET "budget"
#define QSB_OPT_CELL "cell"
#define QSB_OPT_COMMIT "commit"
#define QSB_OPT_DATE "date"
#define QSB_OPT_GOOD "good"
#define QSB_OPT_HISTORY "history"
#define QSB_OPT_MACHINE "machine"
#define QSB_OPT_MEMORY "memory"
#define QSB_OPT_METRIC "metric"
#define QSB_OPT_NELEM "nelem"
#define QSB_OPT_PIN "pin"
#define QSB_OPT_REPO "repo"
#define QSB_OPT_SIZES "sizes"

#endif
