#!/bin/sh
# `history bisect` on a git repository made here: 16 commits of a sort's source (the suite's
# example plug-in, tests/plugin_example.c, around the registry's introsort), the 11th adding
# an extra pass (the sorted array sorted again: many more comparisons), the 12th a build
# error that the 13th fixes. Measured by exact comparison counts (--metric comparisons), so
# the outcome does not depend on the machine:
#  - bisect --good c01 --bad c16 names c11, in at most ceil(log2 15) + 1 = 5 runs, each step
#    printed; a revision whose build fails is skipped, never measured;
#  - the runs are in the history, filed under their revisions, series `candidate`;
#  - --good c01 --bad c10 (no slowdown in it) exits 1; an unknown revision and --good after
#    --bad exit 2 with one line, a --good that does not build exit 2 with the build's
#    messages and then one line; no worktree is left behind.
# Usage: test_history_bisect.sh PATH/TO/qsortbench CC SOURCE_DIR
set -u
bin=$1
cc=$2
src=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
. "$src/tests/check.sh"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
    GIT_COMMITTER_EMAIL=t@example.org GIT_CEILING_DIRECTORIES=$tmp

mkdir repo && cd repo || exit 1
git init -q || exit 1
cp "$src/tests/plugin_example.c" "$src/algorithms/introsort.c" "$src"/algorithms/*.h \
    "$src/inputs/comparator.h" . || exit 1
# sort.c: the sort under test, bisect_sort; PASSES sorts it runs (the 11th commit: 2)
write_sort() {
    cat >sort.c <<C
#include "plugin_example.c"
EXPORT void bisect_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg);
void bisect_sort(void *base, size_t n, size_t size, qsb_compare cmp, void *arg)
{
    for (int pass = 0; pass < $1; pass++) /* revision $2 */
        plain_introsort(base, n, size, cmp, arg);
}
$3
C
}
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16; do
    passes=1
    [ "$i" -ge 11 ] && passes=2
    broken=
    [ "$i" = 12 ] && broken="this does not compile;"
    write_sort $passes $i "$broken"
    git add -A && git commit -qm "c$i" --date "2026-11-${i}T12:00:00Z" && git tag "c$i" || fail "commit c$i"
done
cd .. || exit 1

build='"$CC" -O2 -shared -fPIC -I. -o "$OUT" sort.c introsort.c'
export CC="$cc"
R="--nelem 1000 --sizes 4 --patterns random,sorted --metric comparisons"
"$bin" history bisect --repo repo --good c01 --bad c16 --build "$build" --symbol bisect_sort \
    --db h.sqlite -- $R >out 2>err
check_same "$?" 0 "bisect c01..c16"
c11=$(git -C repo rev-parse c11)
grep -q "^bisect: first slower revision: $c11 " out && ok || fail "not c11: $(cat out) $(cat err)"
runs=$(grep -c ' run [0-9]* of at most 5: ' out)
[ "$runs" -ge 2 ] && [ "$runs" -le 5 ] && ok || fail "$runs runs: $(cat out)"
grep -q "^bisect: $(git -C repo rev-parse c16 | cut -c1-12)  run 1 of at most 5: .*: slower$" out &&
    ok || fail "the bad revision is not measured first: $(cat out)"
# the search over c02..c16, midpoints first, comes to c12 (which fails to build): skipped
grep -q "^bisect: $(git -C repo rev-parse c12 | cut -c1-12)  skipped: the build failed$" out &&
    ok || fail "c12 not skipped: $(cat out)"
"$bin" history list --db h.sqlite >list.out 2>&1 || fail "history list"
check_same "$(grep -cE '^ *[0-9]+  ' list.out)" "$runs" "runs in the history"
grep -q "^ *[0-9]*  $(echo "$c11" | cut -c1-12) " list.out && ok || fail "c11's run: $(cat list.out)"
"$bin" history show --db h.sqlite --cell random/1000/4 --algo candidate >/dev/null 2>&1 &&
    ok || fail "no candidate series"

"$bin" history bisect --repo repo --good c01 --bad c10 --build "$build" --symbol bisect_sort \
    --db h.sqlite -- $R >out 2>err
check_same "$?" 1 "bisect of a range without a slowdown"
check_same "$(grep -c '^qsortbench: error: .*nothing to bisect' err)" 1 "the finding's one error line"

bad() {
    want=$1
    shift
    "$@" >out 2>err
    rc=$?
    lines=$(wc -l <err)
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$want" err; then ok; else
        fail "$*: rc $rc: $(cat err)"; fi
}
bad "not a revision" "$bin" history bisect --repo repo --good nosuch --bad c16 --build "$build" \
    --symbol bisect_sort --db h.sqlite -- $R
mkdir plain
bad "not a git repository" "$bin" history bisect --repo plain --good c01 --bad c16 --build "$build" \
    --symbol bisect_sort --db new.sqlite -- $R
[ ! -e new.sqlite ] && ok || fail "a failed bisection left the history it created"
[ -s h.sqlite ] && ok || fail "a failed bisection removed a history it did not create"
bad "not an ancestor" "$bin" history bisect --repo repo --good c16 --bad c02 --build "$build" \
    --symbol bisect_sort --db h.sqlite -- $R
# the build's own messages come first on stderr, then the one error line
"$bin" history bisect --repo repo --good c12 --bad c16 --build "$build" --symbol bisect_sort \
    --db h.sqlite -- $R >out 2>err
check_same "$?" 2 "bisect from a --good that does not build"
tail -n 1 err | grep -q '^qsortbench: error: history bisect: --good .c12. does not build' &&
    ok || fail "$(cat err)"
bad "needs --repo" "$bin" history bisect --good c01 --bad c16
[ -z "$(git -C repo worktree list | sed 1d)" ] && ok || fail "worktrees left: $(git -C repo worktree list)"
check_done
