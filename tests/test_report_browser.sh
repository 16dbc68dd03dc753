#!/bin/sh
# The HTML report as a browser shows it: pages written by `qsortbench report` from the fixtures
# of tests/fixtures/report, rendered by Debian's chromium headless:
#   - a run with an earlier run, a fleet file and an audit file: the sections in order, the
#     chart, table row and verdict counts of the dumped DOM; no script, no event handler, no
#     reference outside the page; no console message (a blocked load would print one);
#   - the fleet file (fleet-hostile.json) has algorithm and machine names holding <script>,
#     quotes, <img onerror> and <style>: they are shown as text, no element is made of them;
#   - no network request started by the page: chromium's net log, with a proxy on a closed
#     local port, lists none; the same check on a control page that loads an image from
#     http://127.0.0.1:9 finds that request (so the check can fail);
#   - a screenshot of a fixed size that is not blank.
# Three chromium runs, one after the other (in parallel they took longer on a loaded
# machine). Exits 77 (skipped), saying why, without chromium, gnuplot or
# python3 (the DOM, net log and PNG checks: report_page_check.py).
# Usage: test_report_browser.sh PATH/TO/qsortbench FIXTURE_DIR CHECKER
set -u
bin=$1
fixtures=$2
checker=$3
chromium=${QSB_CHROMIUM:-chromium}
for tool in "$chromium" gnuplot python3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "skipped: $tool is not installed (Debian: chromium, gnuplot-nox, python3)"
        exit 77
    fi
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$(dirname "$0")/check.sh"

# chromium NAME URL ARGS...: headless, its own profile, every request through a proxy on a
# closed port, console messages on stderr ($tmp/NAME.err), the net log in $tmp/NAME.net.
browse() {
    name=$1
    url=$2
    shift 2
    sandbox=
    [ "$(id -u)" = 0 ] && sandbox=--no-sandbox # chromium refuses root without it
    timeout 60 "$chromium" --headless $sandbox --disable-gpu --no-first-run \
        --user-data-dir="$tmp/profile-$name" --disable-background-networking \
        --disable-component-update --disable-sync --proxy-server=127.0.0.1:9 \
        --enable-logging=stderr --log-level=0 --log-net-log="$tmp/$name.net" "$@" "$url" \
        >"$tmp/$name.out" 2>"$tmp/$name.err"
}

"$bin" report "$fixtures/run.json" "$fixtures/merged.json" "$fixtures/fleet-hostile.json" \
    "$fixtures/audit.json" -o "$tmp/page.html" 2>"$tmp/report.err"
check_same "$?" 0 "report of a run, an earlier run, a fleet and an audit"
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>control</title></head><body><img src="http://127.0.0.1:9/probe.png" alt=""></body></html>\n' >"$tmp/control.html"

browse page "file://$tmp/page.html" --dump-dom
browse shot "file://$tmp/page.html" --window-size=1024,1400 --screenshot="$tmp/shot.png"
browse control "file://$tmp/control.html" --dump-dom

# the page's structure
python3 "$checker" dom "$tmp/page.out" sections=run,results,charts,compare,fleet,audit \
    charts=6 svg=6 cell_rows=12 verdict_rows=8 audit_rows=3 >"$tmp/dom.txt"
check_same "$?" 0 "page structure: $(cat "$tmp/dom.txt")"
grep -c 'CONSOLE' "$tmp/page.err" "$tmp/shot.err" | grep -v ':0$' >"$tmp/console.txt"
check_same "$(cat "$tmp/console.txt")" "" "console messages"

# no request from the page; the control page's request is seen
python3 "$checker" netlog "$tmp/page.net" >"$tmp/requests.txt"
check_same "$?:$(cat "$tmp/requests.txt")" "0:" "requests of the page"
python3 "$checker" netlog "$tmp/shot.net" >"$tmp/requests.txt"
check_same "$?:$(cat "$tmp/requests.txt")" "0:" "requests of the page, screenshot"
python3 "$checker" netlog "$tmp/control.net" >"$tmp/requests.txt"
check_same "$(cat "$tmp/requests.txt")" "http://127.0.0.1:9/probe.png" "the control page's request"

# hostile names are text
python3 "$checker" hostile "$tmp/page.out" '<script>alert("x")</script>'"'q" \
    'evil"host<img src=x onerror=alert(1)>' '<style>body{display:none}</style>&amp;' \
    >"$tmp/hostile.txt"
check_same "$?" 0 "hostile names: $(cat "$tmp/hostile.txt")"

# a screenshot that is not blank
python3 "$checker" png "$tmp/shot.png" 1024 1400 >"$tmp/png.txt" 2>&1
check_same "$?" 0 "screenshot: $(cat "$tmp/png.txt")"

check_done
