#!/bin/sh
# The GitHub Action's shell part, tools/github-action, run as the action's steps run it: the
# inputs as INPUT_* variables, $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT files, the built
# binary as QSORTBENCH. Exact comparison counts only (--metric comparisons), never timings:
#   - the in-run gate: msort,introsort at --fail-above 1 fails (introsort counts more), the
#     example plug-in's plain_introsort against introsort passes; exports and the report;
#   - compare against a base run, and history detect on a database in a git checkout;
#   - bad inputs and a bad run are errors (2), never a pass;
# and action.yml holds the fields GitHub reads (tests/check_action.py), including a broken
# copy that must fail.
#   tests/test_action.sh QSORTBENCH LIBPLUGIN_EXAMPLE.so SOURCE_DIR
set -u
BIN=$1
PLUGIN=$2
SRC=$3
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $PLUGIN in /*) ;; *) PLUGIN=$PWD/$PLUGIN ;; esac
case $SRC in /*) ;; *) SRC=$PWD/$SRC ;; esac
. "$(dirname "$0")/check.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
MATRIX="--nelem 1000 --sizes 4 --patterns random --reps 3 --metric comparisons"

# step DIR VAR=VALUE...: the action's run step in DIR with those inputs; its status in $st.
step() {
    dir=$1
    shift
    mkdir -p "$dir"
    (cd "$dir" && env -i PATH="$PATH" HOME="$work" QSORTBENCH="$BIN" \
        GITHUB_STEP_SUMMARY="$dir/summary.md" GITHUB_OUTPUT="$dir/output.txt" \
        INPUT_MATRIX="$MATRIX" INPUT_REPORT=false "$@" \
        "$SRC/tools/github-action" run >"$dir/log" 2>&1)
    st=$?
}

# The in-run gate failing, with the exports and the report.
step "$work/slower" INPUT_ALGOS=msort,introsort INPUT_FAIL_ABOVE=1 \
    INPUT_EXPORTS=bmf,github-action-benchmark INPUT_REPORT=true
check_same "$st" 1 "fail-above: a slower candidate fails the step"
check "summary: the run's table" grep -q 'introsort=11540' "$work/slower/summary.md"
check "summary: the gate failed" grep -qx '| run --fail-above 1 | FAILED |' "$work/slower/summary.md"
check "output: status" grep -qx 'status=1' "$work/slower/output.txt"
check "output: results" grep -qx 'results=qsortbench-results/results.json' "$work/slower/output.txt"
for file in results.json results.csv bmf.json github-action-benchmark.json; do
    check "$file written" [ -s "$work/slower/qsortbench-results/$file" ]
done
if command -v gnuplot >/dev/null; then
    check "report written" [ -s "$work/slower/qsortbench-results/report.html" ]
fi

# The in-run gate passing: the example plug-in's plain introsort against introsort.
step "$work/same" INPUT_ALGOS="introsort,$PLUGIN:plain_introsort" INPUT_FAIL_ABOVE=1
check_same "$st" 0 "fail-above: an equal candidate passes"
check "summary: the gate passed" grep -qx '| run --fail-above 1 | passed |' "$work/same/summary.md"

# compare against a base run (the same counts: no regression), and its Markdown.
base=$work/same/qsortbench-results/results.json
step "$work/compare" INPUT_ALGOS="introsort,$PLUGIN:plain_introsort" INPUT_COMPARE="$base"
check_same "$st" 0 "compare against an equal base passes"
check "compare's Markdown" [ -s "$work/compare/qsortbench-results/compare.md" ]
check "compare's verdicts" [ -s "$work/compare/qsortbench-results/verdicts.json" ]
check "summary: compare passed" grep -q "^| compare against .* | passed |$" "$work/compare/summary.md"

# history: the run filed under the checkout's HEAD, then detect.
mkdir -p "$work/checkout"
(cd "$work/checkout" && git init -q && git -c user.name=ci -c user.email=ci@example.org \
    commit -q --allow-empty -m base) || fail "git checkout"
step "$work/checkout" INPUT_ALGOS=msort,introsort INPUT_HISTORY=history.sqlite
check_same "$st" 0 "history: one run, no step"
check "history: database written" [ -s "$work/checkout/history.sqlite" ]
check "summary: detect passed" grep -q '^| history detect on history.sqlite | passed |$' \
    "$work/checkout/summary.md"

# Errors are errors.
step "$work/bad-algo" INPUT_ALGOS=msort,no-such-sort
check_same "$st" 2 "an unknown algorithm: exit 2"
check "summary: the error" grep -q '^| run | error (exit 2) |$' "$work/bad-algo/summary.md"
step "$work/bad-normalize" INPUT_NORMALIZE=maybe
check_same "$st" 2 "normalize neither true nor false: exit 2"
step "$work/no-base" INPUT_COMPARE="$work/missing.json"
check_same "$st" 2 "a missing base file: exit 2"
step "$work/bad-export" INPUT_ALGOS=msort,introsort INPUT_EXPORTS=gbench
check_same "$st" 2 "an export that cannot carry counts: exit 2"
(cd "$work" && env -i PATH="$PATH" INPUT_INSTALL=somewhere "$SRC/tools/github-action" install \
    >/dev/null 2>&1)
check_same "$?" 2 "install from neither the tree nor a .deb: exit 2"

# action.yml: valid, and a copy with a run step without shell and an undeclared input fails.
if python3 -c 'import yaml' 2>/dev/null; then
    check "action.yml" python3 "$SRC/tests/check_action.py" "$SRC/action.yml"
    mkdir -p "$work/broken"
    ln -s "$SRC/tools" "$work/broken/tools"
    sed -e '/^      shell: bash$/d' -e 's/inputs\.budget/inputs.bugdet/' "$SRC/action.yml" \
        >"$work/broken/action.yml"
    python3 "$SRC/tests/check_action.py" "$work/broken/action.yml" >"$work/broken/faults"
    check_same "$?" 1 "a broken action.yml fails the check"
    check "no shell named" grep -q 'needs shell' "$work/broken/faults"
    check "the undeclared input named" grep -q 'names no declared input' "$work/broken/faults"
else
    echo "PyYAML missing (Debian python3-yaml): action.yml not checked"
fi
check_done
