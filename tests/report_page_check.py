#!/usr/bin/env python3
"""Checks of the HTML report as headless chromium rendered it (test_report_browser.sh).

  report_page_check.py dom DUMPED_DOM EXPECTATIONS  the page's structure: "name=count" pairs
      (sections, charts, svg, cell_rows, verdict_rows, audit_rows); no script element, no
      event handler attribute, no reference outside the page
  report_page_check.py hostile DUMPED_DOM TEXT...   each TEXT is in the page as text, and no
      script, img or iframe element, no event handler, one style element (the page's)
  report_page_check.py netlog NET_LOG               prints every request the page started
      (initiator not the browser itself, a URL not file:, data: or about:), one a line
  report_page_check.py png SCREENSHOT W H           a PNG of W x H pixels, not blank: at least
      16 colours, at least 2% of the pixels not the background's colour
Prints what is wrong and exits 1; exits 0 when all is as expected.
"""
import json
import struct
import sys
import zlib
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = {}
        self.sections = []
        self.handlers = []
        self.outside = []
        self.text = []
        self.rows = {}
        self.table = []  # classes of the open tables
        self.in_tbody = 0

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        a = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append((tag, name))
            if name in ("href", "src", "xlink:href", "action") and value and not value.startswith("#"):
                self.outside.append((tag, value))
        if tag == "section" and "id" in a:
            self.sections.append(a["id"])
        if tag == "figure" and a.get("class") == "chart":
            self.tags["chart"] = self.tags.get("chart", 0) + 1
        if tag == "table":
            self.table.append(a.get("class", ""))
        if tag == "tbody":
            self.in_tbody += 1
        if tag == "tr" and self.in_tbody and self.table:
            kind = self.table[-1]
            self.rows[kind] = self.rows.get(kind, 0) + 1

    def handle_endtag(self, tag):
        if tag == "table" and self.table:
            self.table.pop()
        if tag == "tbody":
            self.in_tbody -= 1

    def handle_data(self, data):
        self.text.append(data)


def parse(path):
    p = Page()
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    return p


def check_dom(path, expectations):
    p = parse(path)
    got = {
        "sections": ",".join(p.sections),
        "charts": str(p.tags.get("chart", 0)),
        "svg": str(p.tags.get("svg", 0)),
        "cell_rows": str(p.rows.get("cells", 0)),
        "verdict_rows": str(p.rows.get("verdicts", 0)),
        "audit_rows": str(p.rows.get("audit", 0)),
    }
    wrong = []
    for e in expectations:
        name, want = e.split("=", 1)
        if got.get(name) != want:
            wrong.append(f"{name}: {got.get(name)!r}, expected {want!r}")
    if p.tags.get("script"):
        wrong.append("a script element")
    if p.handlers:
        wrong.append(f"event handlers {p.handlers[:3]}")
    if p.outside:
        wrong.append(f"references outside the page {p.outside[:3]}")
    return wrong


def check_hostile(path, texts):
    p = parse(path)
    text = "".join(p.text)
    wrong = [f"text {t!r} not shown as text" for t in texts if t not in text]
    for tag in ("script", "img", "iframe"):
        if p.tags.get(tag):
            wrong.append(f"{p.tags[tag]} {tag} element(s)")
    if p.tags.get("style") != 1:
        wrong.append(f"{p.tags.get('style')} style elements, expected the page's one")
    if p.handlers:
        wrong.append(f"event handlers {p.handlers[:3]}")
    return wrong


def page_requests(path):
    with open(path) as f:
        log = json.load(f)
    types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    found = []
    for e in log.get("events", []):
        if types.get(e.get("type")) != "URL_REQUEST_START_JOB":
            continue
        params = e.get("params", {})
        url = params.get("url", "")
        # "not an origin": the browser's own requests (updates, accounts), not the page's
        if params.get("initiator") == "not an origin":
            continue
        if not url or url.split(":", 1)[0] in ("file", "data", "about", "chrome"):
            continue
        found.append(url)
    return found


def png_pixels(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4, 0: 1, 4: 2}.get(colour)
    if depth != 8 or not channels or interlace:
        raise ValueError(f"unexpected PNG layout depth {depth} colour {colour}")
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def check_png(path, want_w, want_h):
    w, h, ch, rows = png_pixels(path)
    wrong = []
    if (w, h) != (want_w, want_h):
        wrong.append(f"{w}x{h} pixels, expected {want_w}x{want_h}")
    counts = {}
    for row in rows[::4]:  # every fourth row is plenty
        for x in range(0, len(row), ch):
            px = row[x:x + ch]
            counts[px] = counts.get(px, 0) + 1
    total = sum(counts.values())
    background = max(counts.values())
    if len(counts) < 16:
        wrong.append(f"{len(counts)} colours: blank")
    if total - background < 0.02 * total:
        wrong.append(f"{100 * (total - background) / total:.2f}% of the pixels drawn: blank")
    return wrong


def main(argv):
    what = argv[1]
    if what == "dom":
        wrong = check_dom(argv[2], argv[3:])
    elif what == "hostile":
        wrong = check_hostile(argv[2], argv[3:])
    elif what == "netlog":
        for url in page_requests(argv[2]):
            print(url)
        return 0
    elif what == "png":
        wrong = check_png(argv[2], int(argv[3]), int(argv[4]))
    else:
        print(f"unknown check {what}")
        return 2
    for w in wrong:
        print(w)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
