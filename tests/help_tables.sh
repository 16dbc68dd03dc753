# Sourced by the man page and completion tests: the option tables as --help prints them, so
# that what the generated files name is checked against a second reading of the same tables.
#   help_commands BIN       the command words of `qsortbench --help`
#   help_verbs BIN          history's verbs (`qsortbench history --help`)
#   help_tables BIN         one line per option table: its command, then the words that show
#                           its help ("compare compare --machines A,B", "history history add")
#   help_options BIN WORDS  the options a user types of `qsortbench WORDS --help-all` (those
#                           --help leaves out too, not a worker process's "(internal)" ones):
#                           --name, and -x for an alias
help_commands() {
    "$1" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
}
help_verbs() {
    "$1" history --help | sed -n '/^Verbs:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
}
help_tables() {
    for command in $(help_commands "$1"); do
        case $command in
        history) for verb in $(help_verbs "$1"); do echo "history history $verb"; done ;;
        compare) echo "compare compare" && echo "compare compare --machines A,B" ;;
        *) echo "$command $command" ;;
        esac
    done
}
help_options() {
    bin=$1
    shift
    # An option's help starts on its line, or on the next after a long name.
    "$bin" "$@" --help-all | sed -e '/^      --[^ ]* [^ ]* *$/N' -e 's/\n */ /' |
        grep -v '^ *--[^ ]* [^ ]* *(internal)' |
        sed -n 's/^  \(-\([[:alnum:]]\), \|    \)\(--[a-z0-9-]*\).*/\3 -\2/p' |
        sed 's/ -$//' | tr ' ' '\n'
}
