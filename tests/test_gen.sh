#!/bin/sh
# The `gen` command through the binary: the bytes of every pattern, mode and size against
# SHA-256 sums computed by a separate Python 3 transcription of the patterns specification
# (little-endian keys; the sums are fixed here, Python is not needed to run this), -o against
# standard output, and every bad input: exit status 2, nothing on standard output, exactly one
# line "qsortbench: error: ..." on standard error, and no output file touched.
# Usage: test_gen.sh PATH/TO/qsortbench
set -u
bin=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
. "$(dirname "$0")/check.sh"

# Runs "$bin gen ARGS..." with stdout in $tmp/out and stderr in $tmp/err; sets $rc.
run_gen() {
    "$bin" gen "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

sha_of() { sha256sum "$1" | cut -d ' ' -f 1; }

# ---- bytes: 777 elements, pattern mode size seed ('-' = default) sha256 ---------------------
check_bytes() {
    pattern=$1 mode=$2 size=$3 seed=$4 expected=$5
    set -- "$pattern" --nelem 777 --size "$size"
    if [ "$mode" = compat ]; then set -- "$@" --compat glibc-bench-2021; fi
    if [ "$seed" != - ]; then set -- "$@" --seed "$seed"; fi
    run_gen "$@"
    if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ]; then
        fail "gen $*: exit $rc, stderr: $(cat "$tmp/err")"
    elif [ "$(wc -c <"$tmp/out")" -ne $((777 * size)) ]; then
        fail "gen $*: $(wc -c <"$tmp/out") bytes, expected $((777 * size))"
    elif [ "$(sha_of "$tmp/out")" != "$expected" ]; then
        fail "gen $*: bytes differ from the Python transcription"
    else
        ok
    fi
}

while read -r pattern mode size seed sum; do
    check_bytes "$pattern" "$mode" "$size" "$seed" "$sum"
done <<'TABLE'
sorted default 1 - 86e5691f9ca45e1fecf22b47901fd684f4f3bd931cdb01a84de88ca2dfe53d59
sorted default 2 - efef9aa75950f327e842cdb34ed1dc8fe4b61b55c990446a2eddb83d3f12a7ed
sorted default 3 - 11d68e4e220bf106634d08e2474e75b69ace6c39bc5310e112e8a0c725369304
sorted default 4 - 973a51314aa8fe04fbb7d963ec4b328e680b09bba1d296a12fa041c849eac65e
sorted default 8 - 645e1e46b1b6be9f70b35720ccc576f0ceb5a8cff85c67b252623dfb9ea4cda3
sorted default 12 - 611a9cc3e125ac6889b3998fb651b614de195127e63c2f3d6b1756a772b782a9
sorted default 32 - 2f0e406682581e4ccd2f6a64e50c2bae09b6c4a211af0424e9272d977b93d227
mostlysorted default 1 - 6ae0829a6ba760b2fdfaaabfb12386a4b18ca92c40edf5cd2065c1526759c3df
mostlysorted default 2 - 41cdb6648a955086f6706439b3ff9509369a86a49c8d0441f264b6fb5c381547
mostlysorted default 3 - 40ebb63cacc58147b04f351b3e109276a0a40e4a23320e7fc6dd5369df1ed33c
mostlysorted default 4 - f95181fb89322045aea368b8ddc06ca29dfe586d5d0654aa733f06e75beafc2a
mostlysorted default 8 - a2af84f1f5085088499b1f843f729f2aacf722d8108378b41341f03358bbf968
mostlysorted default 12 - 35d8f41ec27480e2d6fd623fa873c6cc352a485c0463938b5b23b20d158ec669
mostlysorted default 32 - 8fb0e8b63df550318d20f8914419deb83ab8714ee5878b2d52826da3a043a27e
random default 1 - c18eadcc9943164dc915b0e86bca79be27cf11fd84b9c4bad1ab8c21a5e3018b
random default 2 - d17a60a39aedb6dd4f0f50d85b720e7055325d8b2c45ee08b0257e8b99f30506
random default 3 - 30eeeddfff37471f235102aae970e147d1acb4fe3701267fa0fbee555a707875
random default 4 - 8257e46f45faba19645357ef68ea93dafbada850f28f85dee1ebf36f16ff1bc6
random default 8 - 00b1c24111a052637f806726d9f77ddca2f5d8259c87c3c3c2e776b249ffccf1
random default 12 - e8c19feafccb0b3d62dd422614096d2b9976388bb0f2d1fb66ecf0db015fc9b6
random default 32 - ef207ee8e6ee615348d03f05778bcd32ea8f101a70b88d15a102d0bf72ea4c70
repeated default 1 - 9a5726bcf463257a96855c1a99fb3eeb400057359c9a6f673fbb1b691f7a08ea
repeated default 2 - 5fda7fc7709329b7d93be01649e04c73c501b5785d937d15e985e89ad55116d6
repeated default 3 - bffd4bf3731df0c625dd85c60c4db68b0ed00ddb18047df64ae9a1fe796ef0a5
repeated default 4 - c69471f94062d0f6beaad6f11b8964629536dfaeab7a50233178247e187cf58d
repeated default 8 - 1c1996165cdc399ee7650c66547e53409010909dd776f8e31d74574571975e2a
repeated default 12 - 82b79c8ce268d2be1a32e19204facded6e28fd44e70864371a8c4329ebed4bb7
repeated default 32 - 64c171652e83a7070c1566d0a6e3e49017b7fc9e42a574552c947c4efeb99fd7
bitonic default 1 - 823f9eb2c23c85727be7e08166defa295d369adc1f525c8864f32fde052a6cc0
bitonic default 2 - 6d3c0e106e9f69cb77cf1a4e72df2b01bee19fdb5cbb72773116fc26f2f07550
bitonic default 3 - 167207abe34223d2db201d20ab34337d141aa9147d191ce7ef92dd79d45b5570
bitonic default 4 - 4629537837855fe81230533650ebbc2bb2cfc81423b6eea8a9887f831ca1cf84
bitonic default 8 - 34d2e644d4008fbbbb3365717a6eec285cd6f05708d0977ab80c8e7ddc816e21
bitonic default 12 - d253bceb1aa37eea392c3a45c45080e8ad95141bb22a379b4c0baad61c629fcb
bitonic default 32 - d3eda18524211c02c8f369c6f5fd4f0dbe9b203d8b31dd7e387d16440d54bffd
reversed default 1 - 942947588f73471eac7c053ceb1d14e47150efc7af60ae0cc8b9930a3cb40089
reversed default 2 - bfdd24539a0031e714881e16cbe6f76373bb358332dc730b850ae5817260fd0e
reversed default 3 - bfd23f80c1a6cd708ad7c94e76e74c1e25051fe3299403faef22e392c1fe2d80
reversed default 4 - 9a1d74bfaab7088e7bd5e5afd8660fa0a29f381953544a4c2e652823c4c0d1bc
reversed default 8 - 53e73a7b3eb6f2c4047b1809c1b664e402f6b95a6f364bb1b0b3b294061757cd
reversed default 12 - 00cfd411cbc42bd0d27273886b7c1ffc58dab55dca9d58a39e302d7dc032c061
reversed default 32 - aaf679c6a83e673117cacf03b9c30b794cb701600942951bfa7d8494046d9ef7
allequal default 1 - f6719f561c200be79ce40dad7ca94eb8a4a44c949348a823c54ed3095e02fbe2
allequal default 2 - 23f660d6f63bf5447c1a4fbe0ce383f7ea916c030b2ddfb1b10d7b01cd3e7240
allequal default 3 - bd273f08077fdc292fcf07ac3c571e67b51cbabf0d11b2997963b0575324a0ee
allequal default 4 - 477fe78c84fe865607dc24007157da6de9d46dec940210c61ecc235ebe75846f
allequal default 8 - 3acab0298adf59e4d7f72767d688fac3c1cb5d2578e101d64d3375c03e4e245b
allequal default 12 - ee2184d1721c6cbae48191cd79c563bbcccb508d306202e0f6d895e752b0858b
allequal default 32 - 0792824981087b1a901788782e0ed0d01198787b8256900add5712c6ecaeacf9
sorted compat 1 - 86e5691f9ca45e1fecf22b47901fd684f4f3bd931cdb01a84de88ca2dfe53d59
sorted compat 2 - efef9aa75950f327e842cdb34ed1dc8fe4b61b55c990446a2eddb83d3f12a7ed
sorted compat 3 - 9e7dc9310c0164f1d8ae6a5978a8f5c47970eb2d7234fbb41a60b411aa2817e9
sorted compat 4 - 973a51314aa8fe04fbb7d963ec4b328e680b09bba1d296a12fa041c849eac65e
sorted compat 8 - 645e1e46b1b6be9f70b35720ccc576f0ceb5a8cff85c67b252623dfb9ea4cda3
sorted compat 12 - 00ba78b6cbbcf0064d7dd50ddf79cf8525bf7f812858caf327ea1c85e4845cf7
sorted compat 32 - 786bcfc1ea37a2a4636760d3ba3afa3244472265bfe63ec2a7a8cbfed4f4d83b
mostlysorted compat 1 - 346f858ab7489400f8b07ec85a7ce239f112e5cf7d77a0c8496fd623b9ed2534
mostlysorted compat 2 - 00a1980e74d2e4d4c4cd8ec939ac61a6370fb6276dbfd72022ac5aa1fb95a553
mostlysorted compat 3 - 22cbeaf00124d0a2c409545147cbf5347692b4ec60911fbcde2e4565b7d5b4a8
mostlysorted compat 4 - 5e136029c8c5810c31d9063ad73313564b149d89d5c57bad8d32e085ab726942
mostlysorted compat 8 - f6ebc4b680fd1a6ecde038a706b8e07186b87521ab6d132da5952b6672357c0c
mostlysorted compat 12 - b2a941404794f5e164cfb1582fba5076b83d8edb8455912d540ebfbb0894c59f
mostlysorted compat 32 - 9149a9ea51aa88c60d490aa53f96f052aefd599dee81a557357eb90ad833809c
random compat 1 - c18eadcc9943164dc915b0e86bca79be27cf11fd84b9c4bad1ab8c21a5e3018b
random compat 2 - d17a60a39aedb6dd4f0f50d85b720e7055325d8b2c45ee08b0257e8b99f30506
random compat 3 - 30eeeddfff37471f235102aae970e147d1acb4fe3701267fa0fbee555a707875
random compat 4 - 8257e46f45faba19645357ef68ea93dafbada850f28f85dee1ebf36f16ff1bc6
random compat 8 - 00b1c24111a052637f806726d9f77ddca2f5d8259c87c3c3c2e776b249ffccf1
random compat 12 - e8c19feafccb0b3d62dd422614096d2b9976388bb0f2d1fb66ecf0db015fc9b6
random compat 32 - ef207ee8e6ee615348d03f05778bcd32ea8f101a70b88d15a102d0bf72ea4c70
repeated compat 1 - cc4b2cd51e2ddd67ebaaf02d337c8a4418ad12efc8b0afc3f6afb1002c06e541
repeated compat 2 - dc7a5af56133978069878130eef4e23007b4def788954173e7c7a6e0fa5b82a4
repeated compat 3 - 3a192afbb259e0544238f62e3994eefad54ff009ffdbc703fe3976a5def5ec83
repeated compat 4 - 9333694976011650dd8506eecf981cdc8307d076a5fd99b6ee9dc445ec1315f5
repeated compat 8 - f7fe4706a9bc6f8613cb3e80c5b1998174c46d9c76798e08e9a9481115a643c2
repeated compat 12 - 9b79bf2d148cfbf31070d35896d38f9cff62b73ee30a413f07ee89c8125e01da
repeated compat 32 - f5d1c6ae2ec3ae941cb9dbc73e73200c98bcfbcf567ce2b708aabf8dc1804912
bitonic compat 1 - 823f9eb2c23c85727be7e08166defa295d369adc1f525c8864f32fde052a6cc0
bitonic compat 2 - 6d3c0e106e9f69cb77cf1a4e72df2b01bee19fdb5cbb72773116fc26f2f07550
bitonic compat 3 - 03871ae2d81b2ed75da9159f504a62aa7875e1788a0c9550801c73ab403033c7
bitonic compat 4 - 4629537837855fe81230533650ebbc2bb2cfc81423b6eea8a9887f831ca1cf84
bitonic compat 8 - 34d2e644d4008fbbbb3365717a6eec285cd6f05708d0977ab80c8e7ddc816e21
bitonic compat 12 - 32bcebd99d71cca8a020a274e82199615fad940c71754d99258f8a335bf20d2e
bitonic compat 32 - 6676e2eb0180b7c53c8a4cf76953b4efe214d7c82f705955a84b03dc93ce3b88
reversed compat 1 - 942947588f73471eac7c053ceb1d14e47150efc7af60ae0cc8b9930a3cb40089
reversed compat 2 - bfdd24539a0031e714881e16cbe6f76373bb358332dc730b850ae5817260fd0e
reversed compat 3 - 63b5226ee7f1e04c7103daf4e99d90df4e11dea876558901c2e43c26b228c37a
reversed compat 4 - 9a1d74bfaab7088e7bd5e5afd8660fa0a29f381953544a4c2e652823c4c0d1bc
reversed compat 8 - 53e73a7b3eb6f2c4047b1809c1b664e402f6b95a6f364bb1b0b3b294061757cd
reversed compat 12 - 2470b390ac8d0d98527109fb50eac6685e9223ef025a0607943b0ce245b2685f
reversed compat 32 - f9e2e889e53da7d7fdafec1228fd465ec82807ac3cde76e42f7daa1f0210e22b
allequal compat 1 - f6719f561c200be79ce40dad7ca94eb8a4a44c949348a823c54ed3095e02fbe2
allequal compat 2 - 23f660d6f63bf5447c1a4fbe0ce383f7ea916c030b2ddfb1b10d7b01cd3e7240
allequal compat 3 - bd273f08077fdc292fcf07ac3c571e67b51cbabf0d11b2997963b0575324a0ee
allequal compat 4 - 477fe78c84fe865607dc24007157da6de9d46dec940210c61ecc235ebe75846f
allequal compat 8 - 3acab0298adf59e4d7f72767d688fac3c1cb5d2578e101d64d3375c03e4e245b
allequal compat 12 - ee2184d1721c6cbae48191cd79c563bbcccb508d306202e0f6d895e752b0858b
allequal compat 32 - 0792824981087b1a901788782e0ed0d01198787b8256900add5712c6ecaeacf9
TABLE

# Pattern names are case-insensitive; the seed takes decimal or hex for the same value.
check_bytes RANDOM default 5 12345 c6d17e149eac436262427efd865a795e7bbbcc0999211cd0e5d2413559569353
check_bytes RePeAtEd compat 12 281474976710655 795da484d3f16e21d8a0221d3eed84dfd850f1a41a56cee40e3308cd75f761fd
check_bytes MOSTLYSORTED default 40 0x0 626819ea251ffb2c758726aa331bc4d8d62a66574e4d098c65b3f1b45f774623
check_bytes repeated default 64 0xffffffffffff 7ba910fd36a2291139148803401bc6b8d6c423955fbc3e7589fbdf2941edf4a5

# ---- -o: the same bytes, written atomically, nothing on stdout ------------------------------
run_gen mostlysorted --nelem 5000 --size 12 --compat glibc-bench-2021
cp "$tmp/out" "$tmp/expected"
mkdir "$tmp/dir"
run_gen mostlysorted --nelem 5000 --size 12 --compat glibc-bench-2021 -o "$tmp/dir/input.bin"
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] &&
    cmp -s "$tmp/expected" "$tmp/dir/input.bin" &&
    [ "$(ls "$tmp/dir")" = input.bin ]; then ok; else fail "-o FILE differs from stdout"; fi
run_gen sorted --nelem 3 --size 4 --output "$tmp/dir/input.bin"
if [ "$rc" -eq 0 ] && [ "$(wc -c <"$tmp/dir/input.bin")" -eq 12 ] &&
    [ "$(ls "$tmp/dir")" = input.bin ]; then ok; else fail "--output did not replace the file"; fi

# ---- zero elements: an empty input -----------------------------------------------------------
run_gen random --nelem 0 --size 8
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then ok; else fail "--nelem 0"; fi

# ---- --help: on stdout, exit 0, lists the patterns ------------------------------------------
"$bin" gen --help >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^Usage: qsortbench gen' "$tmp/out" &&
    grep -q '^  mostlysorted ' "$tmp/out"; then ok; else fail "gen --help"; fi

# ---- bad input: exit 2, stdout empty, one error line, the -o file untouched ------------------
printf 'keep me\n' >"$tmp/keep"
files_named_keep() { set -- "$tmp"/keep*; echo $#; } # a left-over temporary would show
check_refused() {
    run_gen -o "$tmp/keep" "$@"
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" -ne 2 ]; then
        fail "gen $*: exit $rc, expected 2"
    elif [ -s "$tmp/out" ]; then
        fail "gen $*: wrote to stdout"
    elif [ "$lines" -ne 1 ] || ! grep -q '^qsortbench: error: ' "$tmp/err"; then
        fail "gen $*: stderr is not one error line: $(cat "$tmp/err")"
    elif [ "$(cat "$tmp/keep")" != "keep me" ] || [ "$(files_named_keep)" -ne 1 ]; then
        fail "gen $*: the output file was touched"
    else
        ok
    fi
}
check_refused bogus --nelem 10 --size 4
check_refused sort --nelem 10 --size 4
check_refused sorted --nelem 12x --size 4
check_refused sorted --nelem -1 --size 4
check_refused sorted --nelem '' --size 4
check_refused sorted --nelem 99999999999999999999 --size 4
check_refused sorted --nelem 10 --size 0
check_refused sorted --nelem 10 --size 4x
check_refused sorted --nelem 10
check_refused sorted --size 4
check_refused --nelem 10 --size 4
check_refused sorted random --nelem 10 --size 4
check_refused sorted --nelem 10 --size 4 --seed 0x1000000000000
check_refused sorted --nelem 10 --size 4 --seed 281474976710656
check_refused sorted --nelem 10 --size 4 --seed -1
check_refused sorted --nelem 10 --size 4 --seed 0xg
check_refused sorted --nelem 10 --size 4 --bogus
check_refused sorted --nelem 10 --size 4 -x
check_refused sorted --nelem 10 --size 4 --compat glibc-bench-2020
check_refused sorted --nelem 4294967296 --size 4294967296
check_refused sorted --nelem 18446744073709551615 --size 2
check_refused sorted --nelem 1000000000000 --size 1000000
check_refused sorted --size 4 --nelem
run_gen sorted --nelem 10 --size 4 -o "$tmp/no/such/dir/x"
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/no" ]; then ok
else fail "-o into a missing directory: exit $rc"; fi

# ---- a write error is a system error: exit 3, one line ---------------------------------------
if [ -w /dev/full ]; then
    "$bin" gen random --nelem 1000000 --size 4 >/dev/full 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
        grep -q '^qsortbench: error: cannot write' "$tmp/err"; then ok
    else fail "write to /dev/full: exit $rc"; fi
fi

# ---- -o onto a FIFO that a process reads writes through it and leaves it a FIFO (a temporary
# file renamed over it would replace it); onto one that no process reads it is refused at once
# (opening it would wait for a reader) -------------------------------------------------------
mkfifo "$tmp/fifo"
exec 3<>"$tmp/fifo" # this shell reads it: 400 bytes fit in the pipe's buffer
run_gen random --nelem 100 --size 4 -o "$tmp/fifo"
: >"$tmp/from-fifo"
[ "$rc" -eq 0 ] && timeout 10 head -c 400 <&3 >"$tmp/from-fifo" # a guard against a short write
exec 3<&-
if [ "$rc" -eq 0 ] && [ -p "$tmp/fifo" ] && [ "$(wc -c <"$tmp/from-fifo")" -eq 400 ]; then ok
else fail "gen -o FIFO: exit $rc, $(wc -c <"$tmp/from-fifo") bytes, still a FIFO: $([ -p "$tmp/fifo" ] && echo yes || echo no)"; fi
run_gen random --nelem 100 --size 4 -o "$tmp/fifo"
if [ "$rc" -eq 2 ] && [ -p "$tmp/fifo" ] && grep -q "is a FIFO that no process reads" "$tmp/err"; then ok
else fail "gen -o FIFO without a reader: exit $rc"; fi

# ---- a terminal on stdout is refused (only where a pseudo-terminal can be had) ---------------
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
    for output in "" "-o -"; do
        script -qec "'$bin' gen random --nelem 10 --size 4 $output" /dev/null >"$tmp/tty" 2>&1
        rc=$?
        if [ "$rc" -eq 2 ] && grep -q 'qsortbench: error: ' "$tmp/tty"; then ok
        else fail "binary data to a terminal ($output): exit $rc"; fi
    done
else
    echo "no pseudo-terminal here: the terminal check is skipped"
fi

check_done
