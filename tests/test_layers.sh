#!/bin/sh
# The layers of docs/architecture.md, proved by the compiler: for every layer and every layer
# it may not use, a one-line translation unit that includes a header of the forbidden layer
# must fail to compile with the layer's own include path (the one CMake gives its library),
# and fail for that include: "HEADER: No such file or directory". For every layer it may use
# (and itself), the same unit with that layer's header must compile, so the include path is
# the real one and the allowed arrows hold too.
#
# Usage: test_layers.sh CC PATHS
#   CC     the C compiler of the build
#   PATHS  one line per layer, "NAME DIR|DIR|...": its library's include directories
#          (written by tests/CMakeLists.txt from the targets)

cc=$1
paths=$2
[ -x "$(command -v "$cc")" ] && [ -r "$paths" ] || { echo "usage: $0 CC PATHS" >&2; exit 2; }

# What each layer may use (the table of docs/architecture.md).
may_use() {
    case $1 in
    inputs)     echo "" ;;
    algorithms) echo "inputs" ;;
    stats)      echo "" ;;
    base)       echo "" ;;
    plugins)    echo "algorithms inputs base" ;;
    results)    echo "stats base" ;;
    analysis)   echo "results stats base" ;;
    audit)      echo "plugins algorithms inputs base" ;;
    bench)      echo "results stats plugins algorithms inputs base" ;;
    history)    echo "results stats base" ;;
    commands)   echo "analysis audit bench history results stats plugins algorithms inputs base" ;;
    esac
}

# The headers that stand for a layer: its main header, then others whose include was once
# tried by hand (plan.h, placement.h, run_options.h).
headers_of() {
    case $1 in
    inputs)     echo "rng.h" ;;
    algorithms) echo "registry.h" ;;
    stats)      echo "stats.h" ;;
    base)       echo "diag.h" ;;
    plugins)    echo "plugins.h" ;;
    results)    echo "result.h" ;;
    analysis)   echo "compare.h" ;;
    audit)      echo "audit.h" ;;
    bench)      echo "run.h plan.h placement.h" ;;
    history)    echo "history.h" ;;
    commands)   echo "cli.h run_options.h" ;;
    esac
}

layers="inputs algorithms stats base plugins results analysis audit bench history commands"
dir=$(mktemp -d "${TMPDIR:-/tmp}/qsb-layers.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
failures=0
checks=0

# The -I flags of a layer, from PATHS.
include_flags() {
    line=$(grep "^$1 " "$paths") || { echo "no include path for $1 in $paths" >&2; exit 1; }
    echo "${line#* }" | tr '|' '\n' | while IFS= read -r d; do
        [ -n "$d" ] && printf ' -I%s' "$d"
    done
}

# compile LAYER HEADER: the compiler's status; its messages in $dir/err.
compile() {
    printf '#include "%s"\nint qsb_layer_probe;\n' "$2" >"$dir/probe.c"
    # shellcheck disable=SC2046 # the flags are words
    "$cc" -std=c11 -D_GNU_SOURCE -fsyntax-only $(include_flags "$1") "$dir/probe.c" \
        2>"$dir/err"
}

for layer in $layers; do
    allowed=$(may_use "$layer")
    for other in $layers; do
        for header in $(headers_of "$other"); do
            checks=$((checks + 1))
            case " $layer $allowed " in
            *" $other "*)
                if ! compile "$layer" "$header"; then
                    echo "FAIL: $layer may use $other, but $header does not compile there:"
                    sed 's/^/    /' "$dir/err" | head -5
                    failures=$((failures + 1))
                fi ;;
            *)
                if compile "$layer" "$header"; then
                    echo "FAIL: $layer includes $header ($other) and it compiles"
                    failures=$((failures + 1))
                elif ! grep -Eq "(error: |')$header(: No such file or directory|' file not found)" \
                        "$dir/err"; then
                    echo "FAIL: $layer with $header ($other) fails for another reason:"
                    sed 's/^/    /' "$dir/err" | head -5
                    failures=$((failures + 1))
                fi ;;
            esac
        done
    done
done
echo "$checks layer checks, $failures failed"
[ "$failures" -eq 0 ]
