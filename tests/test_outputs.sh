#!/bin/sh
# Where an output may go (src/base/outfile.h), from the outside, one group per ctest test:
#   links   a symbolic link is written through (its target replaced, the link kept); a link
#           to /dev/null or to standard output is written in place; a directory or a device
#           is refused (exit 2, one line);
#   inputs  no output may be a file the command reads, however spelled (./x, a symbolic or a
#           hard link, $GITHUB_STEP_SUMMARY): exit 2 before a byte is read (run --reference
#           included: a malformed or missing table is not reached), the input intact;
#   fifo    a FIFO that no process reads is refused at once (exit 2, one line, no file made);
#           one that a process reads is written through;
#   stdout  standard output however spelled ('-', /dev/stdout, /proc/self/fd/1, a link to
#           it) is one destination: two outputs on it are refused; /dev/null takes any number;
#           standard error (/dev/stderr) redirected to a file is written in place, after what
#           was said there;
#   plot    the charts of run --plot are outputs too: another output on one is refused
#           before the run; a chart the run will not draw (comparisons of one-element cells)
#           reserves no name; nor may run --history's database be one;
#   history the database of run --history is a file the run writes: an output on it, or it on
#           the --reference table, a plug-in's library or standard output, is refused (exit 2,
#           one line naming both) before the database is created; apart, the run is added.
# The run --history cases run in a git checkout made here, so that the run has a commit to
# be filed under and a refusal is the check's, not the missing commit's.
# Links to /dev/stdout or /proc/self/fd/1 are made in the test's own directory, and stdout is a
# file or a pipe of the test's, so that a tool that replaced a link would replace only those.
# Usage: test_outputs.sh PATH-TO-qsortbench links|inputs|fifo|stdout|plot|history PATH-TO-plugin_example
set -u
bin=$1
group=$2
plugin=$3
. "$(dirname "$0")/check.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/qsb-outputs-XXXXXX") || exit 1
trap 'exec 3<&- 2>/dev/null; rm -rf "$dir"' EXIT
cd "$dir" || exit 1

M="--nelem 1000 --sizes 4 --patterns random --metric comparisons -q"
HEADER="pattern,nelem,size,algorithm,"

# run_tool ARGS...: the tool with stdout in out.txt and stderr in err.txt; rc its status.
run_tool() {
    "$bin" "$@" >out.txt 2>err.txt
    rc=$?
}

# refused WHAT WORDS: the last command exited 2 with one error line holding WORDS.
refused() {
    if [ "$rc" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] &&
        grep -q '^qsortbench: error: ' err.txt && grep -q -- "$2" err.txt; then ok
    else fail "$1: exit $rc, stderr: $(cat err.txt)"; fi
}

succeeded() {
    if [ "$rc" -eq 0 ]; then ok; else fail "$1: exit $rc, stderr: $(cat err.txt)"; fi
}

# in_checkout: the test's directory a git checkout of one commit (run --history's stamp).
in_checkout() {
    export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
        GIT_COMMITTER_EMAIL=t@example.org GIT_CEILING_DIRECTORIES=$dir
    git init -q . && git commit -q --allow-empty -m one || { echo "no git checkout" >&2; exit 1; }
}

starts_csv() { head -c ${#HEADER} "$1" 2>/dev/null | grep -q "^$HEADER"; }
no_temporary_files() { [ -z "$(find "$dir" -name '*.tmp-*')" ]; }

case $group in
links)
    # a link to a regular file: the target gets the results, the link stays a link
    echo old >target.csv
    ln -s target.csv link.csv
    run_tool $M --csv link.csv --json r.json
    succeeded "--csv LINK"
    check "the link is still a link" test -L link.csv
    check "the link's target holds the CSV" starts_csv target.csv
    # the target in another directory: its temporary file goes beside it
    mkdir elsewhere
    echo old >elsewhere/far.csv
    ln -s elsewhere/far.csv far-link.csv
    run_tool $M --csv far-link.csv --json r.json
    succeeded "--csv LINK into another directory"
    check "that link is still a link" test -L far-link.csv
    check "its target holds the CSV" starts_csv elsewhere/far.csv
    # a dangling link: its target is created
    ln -s created.csv dangling.csv
    run_tool $M --csv dangling.csv --json r.json
    succeeded "--csv DANGLING-LINK"
    check "the dangling link is still a link" test -L dangling.csv
    check "its target was created with the CSV" starts_csv created.csv
    # a link to /dev/null: written in place, nothing replaced
    ln -s /dev/null null-link
    run_tool $M --csv null-link --json r.json
    succeeded "--csv LINK-TO-/dev/null"
    check "the link to /dev/null is still a link" test -L null-link
    check "/dev/null is still a device" test -c /dev/null
    # a link to standard output (`ln -s /proc/self/fd/1 out`): written in place
    ln -s /proc/self/fd/1 out
    "$bin" $M --csv out --json r.json >t.txt 2>err.txt
    rc=$?
    succeeded "--csv LINK-TO-/proc/self/fd/1 > t.txt"
    check "the link to fd 1 is still a link" test -L out
    check "standard output's file holds the CSV" starts_csv t.txt
    ln -s /dev/stdout so
    "$bin" $M --csv so --json r.json >t2.txt 2>err.txt
    rc=$?
    succeeded "--csv LINK-TO-/dev/stdout > t2.txt"
    check "the link to /dev/stdout is still a link" test -L so
    check "standard output's file holds that CSV" starts_csv t2.txt
    check "no temporary file left" no_temporary_files
    # what cannot take a file: refused, one line, nothing made
    mkdir adir
    run_tool $M --csv adir --json r2.json
    refused "--csv DIRECTORY" "'adir' is a directory: an output is a regular file"
    run_tool $M --csv /dev/zero --json r2.json
    refused "--csv /dev/zero" "'/dev/zero' is a character device"
    ln -s /dev/zero zero-link
    run_tool $M --csv zero-link --json r2.json
    refused "--csv LINK-TO-/dev/zero" "is a character device"
    check "nothing was written for a refused output" test ! -e r2.json
    check "the device is still a device" test -c /dev/zero
    ln -s loop2 loop1
    ln -s loop1 loop2
    run_tool $M --csv loop1 --json r2.json
    refused "--csv LOOP-OF-LINKS" "cannot create 'loop1'"
    ;;

inputs)
    "$bin" $M --csv A.csv --json A.json 2>err.txt && "$bin" $M --seed 7 --json B.json \
        --csv /dev/null 2>err.txt && cp A.json C.json || { cat err.txt; exit 1; }
    cksum A.json A.csv B.json C.json >sums
    # refused_intact WORDS ARGS...: refused naming WORDS, and no input changed
    refused_intact() {
        words=$1
        shift
        run_tool "$@"
        refused "$*" "$words"
        cksum A.json A.csv B.json C.json | cmp -s - sums || fail "$*: an input changed"
    }
    refused_intact "--json 'A.json' is BASE 'A.json': no output may be a file the command reads" \
        compare A.json B.json --json A.json
    refused_intact "--markdown './B.json' is NEW 'B.json'" compare A.json B.json --markdown ./B.json
    ln A.json hard.json
    refused_intact "--markdown 'hard.json' is BASE 'A.json'" compare A.json B.json --markdown hard.json
    ln -s B.json soft.json
    refused_intact "--json 'soft.json' is NEW 'B.json'" compare A.json B.json --json soft.json
    GITHUB_STEP_SUMMARY=A.json
    export GITHUB_STEP_SUMMARY
    refused_intact "\$GITHUB_STEP_SUMMARY 'A.json' is BASE 'A.json'" compare A.json B.json
    refused_intact "--markdown and \$GITHUB_STEP_SUMMARY name the same file" \
        compare B.json C.json --markdown A.json
    unset GITHUB_STEP_SUMMARY
    refused_intact "--json 'B.json' is RUN2 'B.json'" compare --calibration A.json B.json --json B.json
    refused_intact "-o 'A.json' is RESULTS 'A.json'" export A.json --format bmf -o A.json
    refused_intact "-o 'A.json' is the input 'A.json'" merge A.json C.json -o A.json
    refused_intact "--json 'C.json' is the input 'C.json'" merge A.json C.json --csv m.csv --json C.json
    refused_intact "--export 'A.csv' is the input 'A.csv'" merge A.csv C.json -o m.json --export bmf=A.csv
    refused_intact "-o 'A.json' is the operand 'A.json'" report A.json -o A.json
    # before reading: an input that cannot be read is not reached
    refused_intact "is the input 'missing.json'" merge A.json missing.json -o missing.json
    refused_intact "-o 'gone.json' is RESULTS 'gone.json'" export gone.json --format bmf -o gone.json
    refused_intact "is NEW 'missing.json'" compare A.json missing.json --json missing.json
    check "nothing was created" test ! -e missing.json -a ! -e gone.json -a ! -e m.json -a ! -e m.csv
    # run reads its --reference table
    printf 'pattern,nelem,size,delta_pct,master_msort,patches_introsort\nRANDOM,1000,4,1.5,1,2\n' >ref.csv
    run_tool $M --reference ref.csv --csv r.csv --json r.json
    succeeded "run --reference FILE"
    cp ref.csv ref.keep
    run_tool $M --reference ref.csv --csv ./ref.csv --json r.json
    refused "run --reference FILE --csv FILE" "--csv './ref.csv' is --reference 'ref.csv'"
    check "the reference table is intact" cmp -s ref.csv ref.keep
    # refused before the table is read: a malformed or missing one is not reached
    printf 'pattern,nelem\n"unclosed\n' >badref.csv
    cp badref.csv badref.keep
    run_tool $M --reference badref.csv --csv r.csv --json badref.csv
    refused "run --reference MALFORMED --json IT" "--json 'badref.csv' is --reference 'badref.csv'"
    check "the malformed table is intact" cmp -s badref.csv badref.keep
    run_tool $M --reference noref.csv --csv ./noref.csv --json r.json
    refused "run --reference MISSING --csv IT" "--csv './noref.csv' is --reference 'noref.csv'"
    check "no file was made for the missing table" test ! -e noref.csv
    run_tool $M --reference badref.csv --csv r.csv --json r.json
    refused "run --reference MALFORMED" "--reference: badref.csv:1:"
    # run and audit read a plug-in's library
    cp "$plugin" plug.so
    cp plug.so plug.keep
    run_tool $M --algos msort,p=./plug.so:plain_introsort --csv plug.so --json r.json
    refused "run --algos PLUG-IN --csv ITS-LIBRARY" "--csv 'plug.so' is the plug-in './plug.so'"
    run_tool audit --quick --algos p=plug.so:plain_introsort --json ./plug.so
    refused "audit --algos PLUG-IN --json ITS-LIBRARY" "--json './plug.so' is the plug-in './plug.so'"
    check "the plug-in's library is intact" cmp -s plug.so plug.keep
    # two inputs may be one file; reading is not writing
    run_tool compare A.json A.json --json verdicts.json
    succeeded "compare A A"
    ;;

fifo)
    mkfifo o.fifo
    # no process reads it: refused at once (a guard of 20 s against a hang: exit 124)
    timeout 20 "$bin" $M --csv o.fifo --json r.json >out.txt 2>err.txt
    rc=$?
    refused "--csv FIFO-WITHOUT-READER" "--csv: 'o.fifo' is a FIFO that no process reads"
    check "the FIFO is still a FIFO" test -p o.fifo
    check "no other output was made" test ! -e r.json
    ln -s o.fifo fifo-link
    timeout 20 "$bin" $M --json fifo-link --csv r.csv >out.txt 2>err.txt
    rc=$?
    refused "--json LINK-TO-FIFO-WITHOUT-READER" "'fifo-link' is a FIFO that no process reads"
    check "no CSV was made either" test ! -e r.csv
    # this shell reads it (a CSV of two rows fits in the pipe's buffer): written through
    exec 3<>o.fifo
    timeout 20 "$bin" $M --csv o.fifo --json r.json >out.txt 2>err.txt
    rc=$?
    succeeded "--csv FIFO-BEING-READ"
    : >from-fifo.csv
    [ "$rc" -eq 0 ] && timeout 10 head -n 3 <&3 >from-fifo.csv # a guard against a short write
    exec 3<&-
    check "the CSV came through the FIFO" starts_csv from-fifo.csv
    check "three lines of CSV" test "$(wc -l <from-fifo.csv)" -eq 3
    check "the FIFO is still a FIFO after writing" test -p o.fifo
    ;;

stdout)
    # pipe_tool ARGS...: the tool with stdout a pipe (to out.txt through cat)
    pipe_tool() {
        { "$bin" "$@" 2>err.txt; echo $? >rc.txt; } | cat >out.txt
        rc=$(cat rc.txt)
    }
    pipe_tool $M --csv /dev/stdout --json -
    refused "--csv /dev/stdout --json -" "--csv and --json both write to standard output ('/dev/stdout' and '-')"
    check "nothing reached standard output" test ! -s out.txt
    pipe_tool $M --csv - --json /proc/self/fd/1
    refused "--csv - --json /proc/self/fd/1" "both write to standard output"
    ln -s /dev/stdout so
    pipe_tool $M --csv r.csv --json so --export bmf=-
    refused "--json LINK-TO-/dev/stdout --export bmf=-" "--json and --export both write to standard output"
    "$bin" $M --csv r.csv --json /proc/self/fd/1 --export bmf=- >file.txt 2>err.txt
    rc=$?
    refused "--json /proc/self/fd/1 --export bmf=- > FILE" "both write to standard output"
    check "no file was made" test ! -e r.csv
    # one of them is fine, whatever its spelling; /dev/null takes any number
    "$bin" $M --csv /proc/self/fd/1 --json r.json >x.csv 2>err.txt
    rc=$?
    succeeded "--csv /proc/self/fd/1 > FILE"
    check "standard output's file holds the CSV" starts_csv x.csv
    pipe_tool $M --csv - --json /dev/null --export bmf=/dev/null
    succeeded "--csv - --json /dev/null --export bmf=/dev/null"
    check "the CSV reached the pipe" starts_csv out.txt
    # standard error's file is written in place after what was said there, never replaced
    for mode in "--metric comparisons" "--reps 3"; do
        { echo "said before" >&2; "$bin" --nelem 1000 --sizes 4 --patterns random $mode \
            --csv /dev/stderr --json r.json >out.txt; echo $? >rc.txt; } 2>stderr.txt
        rc=$(cat rc.txt)
        succeeded "--csv /dev/stderr 2> FILE ($mode)"
        check "what was said before is still first ($mode)" \
            test "$(head -n 1 stderr.txt)" = "said before"
        check "the CSV follows it in that file ($mode)" grep -q "^$HEADER" stderr.txt
        check "nothing on standard output ($mode)" test ! -s out.txt
    done
    check "no temporary file left beside it" no_temporary_files
    "$bin" $M --csv /dev/stderr --json /dev/stderr 2>err.txt
    rc=$?
    refused "--csv /dev/stderr --json /dev/stderr" "--csv and --json name the same file"
    ;;

plot)
    if ! command -v gnuplot >/dev/null 2>&1; then
        echo "no gnuplot here: run --plot is not tested"
        exit 77
    fi
    run_tool $M --plot --csv s6.csv --json s6.json --export bmf=s6-scaling.png
    refused "--plot --export bmf=CHART" "--export and --plot name the same file 's6-scaling.png'"
    run_tool $M --plot --csv s6.csv --json s6.json --report ./s6-deltas-introsort.png
    refused "--plot --report CHART" "--report and --plot name the same file"
    run_tool $M --plot --csv - --json s6.json --export bmf=s6-comparisons.png
    refused "--plot (beside the JSON) --export bmf=CHART" "--export and --plot name the same file"
    run_tool $M --plot --csv - --json /dev/null
    refused "--plot without a results file" "--plot draws the charts beside the results file"
    check "no file was made before the run" test ! -e s6.csv -a ! -e s6.json -a ! -e s6-scaling.png
    run_tool $M --plot --csv s6.csv --json s6.json --export bmf=s6.bmf.json
    succeeded "--plot with outputs apart from the charts"
    check "the chart beside the CSV" test -s s6-scaling.png
    check "the export is JSON, not a chart" grep -q '^{' s6.bmf.json
    # a chart named by a symbolic link is written through it, as every output is
    mkdir charts
    echo old >charts/kept.png
    ln -s charts/kept.png s7-scaling.png
    run_tool $M --plot --csv s7.csv --json s7.json
    succeeded "--plot with a chart's name a link"
    check "the chart's link is still a link" test -L s7-scaling.png
    check "the link's target is the chart" test "$(head -c 4 charts/kept.png | tail -c 3)" = PNG
    # a chart's name taken by what is no file: refused before the run
    mkfifo s8-scaling.png
    run_tool $M --plot --csv s8.csv --json s8.json
    refused "--plot with a chart's name a FIFO" "--plot: the chart 's8-scaling.png' is not a regular file"
    check "no results file was made" test ! -e s8.csv -a ! -e s8.json
    # only the charts it will draw are reserved: none of comparisons for one-element cells
    one="--nelem 1 --sizes 4 --patterns random --metric comparisons -q"
    run_tool $one --plot --csv s9.csv --json s9.json --export bmf=s9-comparisons.png
    succeeded "--plot --nelem 1 --export bmf=THE-COMPARISONS-CHART-NOT-DRAWN"
    check "the export is JSON, not a chart" grep -q '^{' s9-comparisons.png
    check "the charts it draws" test -s s9-scaling.png -a -s s9-deltas-introsort.png
    run_tool --nelem 1:1000 --sizes 4 --patterns random --metric comparisons -q --plot \
        --csv s11.csv --json s11.json --export bmf=s11-comparisons.png
    refused "--plot --nelem 1:1000 --export bmf=THE-COMPARISONS-CHART" \
        "--export and --plot name the same file 's11-comparisons.png'"
    # run --history's database on a chart: refused before the database is created
    in_checkout
    run_tool $M --plot --csv s12.csv --json s12.json --history s12-scaling.png
    refused "--plot --history CHART" "--history and --plot name the same file 's12-scaling.png'"
    check "no database was made on the chart" test ! -e s12-scaling.png
    check "no results file was made" test ! -e s12.csv -a ! -e s12.json
    ;;

history)
    in_checkout
    # made_nothing NAME...: none of the files exists
    made_nothing() { for f in "$@"; do [ ! -e "$f" ] || return 1; done; }
    run_tool $M --csv h.db --json r.json --history h.db
    refused "run --csv FILE --history FILE" "--csv and --history name the same file 'h.db'"
    check "no database and no results were made" made_nothing h.db r.json
    run_tool $M --csv r.csv --json ./h2.db --history h2.db
    refused "run --json ./FILE --history FILE" "--json and --history name the same file 'h2.db'"
    check "nothing was made for it" made_nothing h2.db r.csv
    printf 'pattern,nelem,size,delta_pct,master_msort,patches_introsort\nRANDOM,1000,4,1.5,1,2\n' >ref.csv
    cp ref.csv ref.keep
    run_tool $M --reference ref.csv --csv r.csv --json r.json --history ./ref.csv
    refused "run --reference FILE --history FILE" "--history './ref.csv' is --reference 'ref.csv'"
    check "the reference table is intact" cmp -s ref.csv ref.keep
    cp "$plugin" plug.so
    cp plug.so plug.keep
    run_tool $M --algos msort,p=./plug.so:plain_introsort --csv r.csv --json r.json \
        --history plug.so
    refused "run --algos PLUG-IN --history ITS-LIBRARY" "--history 'plug.so' is the plug-in './plug.so'"
    check "the plug-in's library is intact" cmp -s plug.so plug.keep
    run_tool $M --csv r.csv --json - --history /dev/stdout
    refused "run --json - --history /dev/stdout" "--json and --history both write to standard output"
    check "no results were made" made_nothing r.csv r.json
    # apart from every other file: the run is written and added
    run_tool $M --csv r.csv --json r.json --history h3.db
    succeeded "run --history FILE apart"
    check "the results were written" starts_csv r.csv
    check "the run was added" grep -q "history: run 1 added" err.txt
    ;;

*)
    echo "unknown group '$group'" >&2
    exit 2
    ;;
esac
check_done
