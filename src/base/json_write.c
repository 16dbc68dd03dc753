/*
** Writing a cJSON document (see json_write.h).
*/
#include "json_write.h"

#include <cjson/cJSON.h>

#include "diag.h"

int qsb_json_print(FILE *out, cJSON *root, const char *what)
{
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return qsb_out_of_memory(what);
    fputs(text, out);
    fputc('\n', out);
    cJSON_free(text);
    return QSB_OK;
}

int qsb_json_abandon(cJSON *root, const char *what)
{
    cJSON_Delete(root);
    return qsb_out_of_memory(what);
}
