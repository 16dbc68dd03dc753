/*
** The bash completion (generate.h): one function, _qsortbench, written from the commands'
** table, their option tables, the algorithm registry, the pattern table and the export
** formats. It completes the command word, history's verb, the options of the command (or
** verb) being typed, an option's value where the tables know the values (comma lists
** element by element), and file names for a FILE or DIR and for operands.
*/
#include "generate.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "export.h"
#include "patterns.h"
#include "registry.h"
#include "rng.h"

/* The values of an option that no table of their own lists, by command ("" for any) and
** option name. */
static const struct {
    const char *command;
    const char *option;
    const char *words;
} fixed_values[] = {
    {"", "metric", "cycles ns comparisons"},
    {"", "placement", "far near"},
    {"", "correction", "holm bh none"},
    {"", "compat", QSB_COMPAT_2021_NAME},
    {"", "nelem", "auto"},
    {"", "jobs", "auto"},
    {"plot", "format", "png svg"},
    {NULL, NULL, NULL},
};

static const char *fixed_words(const char *command, const char *option)
{
    for (size_t i = 0; fixed_values[i].option; i++)
        if ((!fixed_values[i].command[0] || strcmp(fixed_values[i].command, command) == 0) &&
            strcmp(fixed_values[i].option, option) == 0)
            return fixed_values[i].words;
    return NULL;
}

static int is_file_argument(const char *arg)
{
    return strcmp(arg, "FILE") == 0 || strcmp(arg, "OUT") == 0 || strcmp(arg, "PAGE") == 0;
}

/* The shell variables of the tables' values: algorithms, patterns, export formats. */
static void put_value_lists(FILE *out)
{
    fputs("_qsortbench_algorithms='", out);
    for (size_t i = 0; i < qsb_algorithm_count; i++)
        fprintf(out, "%s%s", i ? " " : "", qsb_algorithms[i].name);
    fputs("'\n_qsortbench_patterns='all", out);
    for (size_t i = 0; i < qsb_pattern_count; i++)
        fprintf(out, " %s", qsb_patterns[i].name);
    fputs("'\n_qsortbench_formats='", out);
    for (const qsb_export_format *f = qsb_export_formats; f->name; f++)
        fprintf(out, "%s%s", f == qsb_export_formats ? "" : " ", f->name);
    fputs("'\n", out);
}

/* The helpers the function calls: words, a comma list's last element, file names. */
static void put_helpers(FILE *out)
{
    fputs("# _qsortbench_words WORDS: the words that begin like the word being completed.\n"
          "_qsortbench_words()\n{\n"
          "    mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\")\n}\n\n"
          "# _qsortbench_list WORDS: the last element of a comma list, after the others.\n"
          "_qsortbench_list()\n{\n"
          "    local last=${cur##*,}\n"
          "    mapfile -t COMPREPLY < <(compgen -P \"${cur%\"$last\"}\" -W \"$1\" -- \"$last\")\n"
          "    compopt -o nospace 2>/dev/null\n}\n\n"
          "# _qsortbench_files [-d]: file names (directories only with -d).\n"
          "_qsortbench_files()\n{\n"
          "    mapfile -t COMPREPLY < <(compgen \"${1:--f}\" -- \"$cur\")\n"
          "    compopt -o filenames 2>/dev/null\n}\n\n", out);
}

/* The completion key of a table: "compare", or "history/add" for a verb. */
static void put_key(FILE *out, const qsb_command *c, const qsb_command_spec *spec)
{
    const char *verb = qsb_spec_verb(spec);
    if (verb)
        fprintf(out, "%s/%s", c->name, verb);
    else
        fputs(c->name, out);
}

/* One case arm for an option that takes a value: what completes its value. */
static void put_value_case(FILE *out, const qsb_command *c, const qsb_command_spec *spec,
                           const qsb_option *o)
{
    fputs("    ", out);
    put_key(out, c, spec);
    fprintf(out, ":--%s", o->name);
    if (o->short_name) {
        fputs(" | ", out);
        put_key(out, c, spec);
        fprintf(out, ":-%c", o->short_name);
    }
    fputs(")\n        ", out);
    const char *words = fixed_words(c->name, o->name);
    if (strcmp(o->name, "algos") == 0)
        fputs("_qsortbench_list \"$_qsortbench_algorithms\"", out);
    else if (strcmp(o->name, "algo") == 0)
        fputs("_qsortbench_words \"$_qsortbench_algorithms\"", out);
    else if (strcmp(o->name, "patterns") == 0)
        fputs("_qsortbench_list \"$_qsortbench_patterns\"", out);
    else if (strcmp(o->name, "export") == 0) /* FORMAT=FILE: the format, then the file */
        fputs("if [[ $cur == *=* ]]; then cur=${cur#*=}; _qsortbench_files; else "
              "_qsortbench_words \"${_qsortbench_formats// /= }=\"; "
              "compopt -o nospace 2>/dev/null; fi", out);
    else if (strcmp(c->name, "export") == 0 && strcmp(o->name, "format") == 0)
        fputs("_qsortbench_words \"$_qsortbench_formats\"", out);
    else if (words)
        fprintf(out, "_qsortbench_words '%s'", words);
    else if (strcmp(o->arg, "DIR") == 0)
        fputs("_qsortbench_files -d", out);
    else if (is_file_argument(o->arg))
        fputs("_qsortbench_files", out);
    else
        fputs("COMPREPLY=()", out); /* a number, a name, a revision: nothing to offer */
    fputs("\n        return ;;\n", out);
}

/* The options of every table of the key: compare's own and compare --machines' together. */
static void put_options_case(FILE *out, const qsb_command *c, const qsb_command_spec *first)
{
    fputs("    ", out);
    put_key(out, c, first);
    fputs(") options='", out);
    const char *verb = qsb_spec_verb(first);
    bool more = false;
    for (const qsb_command_spec *const *s = c->specs; *s; s++) {
        const char *v = qsb_spec_verb(*s);
        if ((v == NULL) != (verb == NULL) || (v && strcmp(v, verb) != 0))
            continue;
        for (const qsb_option *o = (*s)->options; o && o->name; o++) {
            if (!o->name[0]) { /* QSB_MORE_OPTIONS: the mark of those --help leaves out */
                more = true;
                continue;
            }
            if (o->short_name)
                fprintf(out, "-%c ", o->short_name);
            fprintf(out, "--%s ", o->name);
        }
    }
    fputs(more ? "-h --help --help-all' ;;\n" : "-h --help' ;;\n", out);
}

/* Is s the first table of its key among c's tables (so its options' case is written once)? */
static int first_of_key(const qsb_command *c, const qsb_command_spec *const *s)
{
    return s == c->specs || qsb_spec_verb(*s) != NULL;
}

static void put_function(FILE *out, const qsb_tool *tool)
{
    fputs("_qsortbench()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
          "    local key=run options\n"
          "    COMPREPLY=()\n"
          "    if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then\n"
          "        _qsortbench_words '", out);
    for (const qsb_command *const *at = tool->commands, *c = *at; c; c = *++at)
        fprintf(out, "%s%s", at == tool->commands ? "" : " ", c->name);
    fputs("'\n        return\n    fi\n"
          "    # The command word (none: run), and history's verb.\n"
          "    [[ ${COMP_WORDS[1]} != -* ]] && key=${COMP_WORDS[1]}\n"
          "    if [[ $key == history ]]; then\n"
          "        if ((COMP_CWORD == 2)); then\n"
          "            _qsortbench_words '", out);
    for (const qsb_command *const *at = tool->commands, *c = *at; c; c = *++at)
        for (const qsb_command_spec *const *s = c->specs; *s; s++)
            if (strcmp(c->name, "history") == 0 && qsb_spec_verb(*s))
                fprintf(out, "%s%s", s == c->specs ? "" : " ", qsb_spec_verb(*s));
    fputs("'\n            return\n        fi\n"
          "        key=history/${COMP_WORDS[2]}\n    fi\n\n"
          "    # The value of the option before the word.\n"
          "    case $key:$prev in\n", out);
    for (const qsb_command *const *at = tool->commands, *c = *at; c; c = *++at)
        for (const qsb_command_spec *const *s = c->specs; *s; s++)
            for (const qsb_option *o = (*s)->options; o && o->name; o++)
                if (o->arg)
                    put_value_case(out, c, *s, o);
    fputs("    esac\n\n"
          "    if [[ $cur == -* ]]; then\n"
          "        case $key in\n", out);
    for (const qsb_command *const *at = tool->commands, *c = *at; c; c = *++at)
        for (const qsb_command_spec *const *s = c->specs; *s; s++)
            if (first_of_key(c, s))
                put_options_case(out, c, *s);
    fputs("    *) return ;;\n"
          "        esac\n"
          "        ((COMP_CWORD == 1)) && options+=' -V --version'\n"
          "        _qsortbench_words \"$options\"\n"
          "    elif [[ $key == gen ]]; then\n"
          "        _qsortbench_words \"${_qsortbench_patterns#all }\"\n"
          "    else\n"
          "        _qsortbench_files\n"
          "    fi\n"
          "}\n"
          "complete -F _qsortbench qsortbench\n", out);
}

void qsb_write_bash_completion(const qsb_tool *tool, FILE *out)
{
    fputs("# bash completion of qsortbench(1). Generated by `qsortbench --generate bash` from\n"
          "# the commands' option tables, the algorithm registry and the pattern table.\n\n",
          out);
    put_value_lists(out);
    fputc('\n', out);
    put_helpers(out);
    put_function(out, tool);
}
