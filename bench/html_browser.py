#!/usr/bin/env python3
"""The HTML page's responsiveness in headless Chromium (issue 30).

    python3 bench/html_browser.py PAGE.html [ROUNDS]

Loads a copy of PAGE.html (written by `planview show --format html`) ROUNDS times
(default 3) in headless Chromium and prints, min / median / max over the rounds,
in milliseconds:

- parsed: navigation start to the document parsed (`domInteractive`);
- ready: to `DOMContentLoaded` ended (the page's script has run: filters work);
- script: the page's own script (read the changes, apply the fragment's state);
- layout: the first full style and layout, forced in the `load` handler;
- filter / unfilter: tick one action box (the one that shows fewest changes)
  and untick it, each with the style and layout it causes (forced, so the
  figure is the time until the browser could paint the result);
- search / unsearch: type one change's address into the search box (the first
  search also lowers every change's text once) and clear it, likewise;
- scroll: jump to the end of the page and lay it out;
- wall: the whole Chromium run (start, load, the above, the DOM dump), seconds.

The copy differs from the page only by two `performance.mark` calls around the
page's script and one measuring script after it; its Content-Security-Policy
meta tag is dropped so that those may run (the policy costs nothing measurable).
Paint is not included: headless Chromium's `--dump-dom` ends after `load`, so
only work that can be forced synchronously is timed.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MEASURE = r"""<script>
(function () {
"use strict";
window.addEventListener("load", function () {
  var doc = document, r = {};
  var nav = performance.getEntriesByType("navigation")[0];
  r.parsed = nav.domInteractive;
  r.ready = nav.domContentLoadedEventEnd;
  performance.measure("pv-script", "pv-script-start", "pv-script-end");
  r.script = performance.getEntriesByName("pv-script")[0].duration;
  function t(name, f) {
    var a = performance.now();
    f();
    void doc.documentElement.offsetHeight;
    doc.elementFromPoint(20, 20);
    r[name] = performance.now() - a;
  }
  t("layout", function () {});
  var changes = doc.querySelectorAll(".change");
  r.changes = changes.length;
  var boxes = Array.prototype.slice.call(doc.querySelectorAll(".filters input[name=action]"));
  var count = function (b) { return doc.querySelectorAll('.change[data-action="' + b.value + '"]').length; };
  boxes.sort(function (a, b) { return count(a) - count(b); });
  var box = boxes[0], search = doc.querySelector(".filters input[name=q]");
  var fire = function (el, type) { el.dispatchEvent(new Event(type)); };
  if (box) {
    t("filter", function () { box.checked = true; fire(box, "change"); });
    r.shown_filtered = Number(doc.documentElement.getAttribute("data-shown"));
    t("unfilter", function () { box.checked = false; fire(box, "change"); });
  }
  if (search && changes.length) {
    var mid = changes[Math.floor(changes.length / 2)].querySelector("summary code").textContent;
    t("search", function () { search.value = mid; fire(search, "input"); });
    r.shown_searched = Number(doc.documentElement.getAttribute("data-shown"));
    t("unsearch", function () { search.value = ""; fire(search, "input"); });
  }
  t("scroll", function () { window.scrollTo(0, doc.documentElement.scrollHeight); });
  var out = doc.createElement("pre");
  out.id = "pv-bench";
  out.textContent = JSON.stringify(r);
  doc.body.appendChild(out);
});
})();
</script>"""

KEYS = ["parsed", "ready", "script", "layout", "filter", "unfilter", "search", "unsearch", "scroll"]


def chromium():
    for name in [os.environ.get("PLANVIEW_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"]:
        if name and shutil.which(name):
            return shutil.which(name)
    sys.exit("bench: chromium not found (apt-get install chromium, or set PLANVIEW_CHROMIUM)")


def measured_copy(page, out):
    text = open(page, encoding="utf-8").read()
    text, n = re.subn(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">\n?', "", text, count=1)
    assert n == 1, "the page has its policy tag"
    i = text.rindex("<script>")
    j = text.index("</script>", i) + len("</script>")
    script = text[i:j]
    wrapped = ('<script>performance.mark("pv-script-start")</script>' + script +
               '<script>performance.mark("pv-script-end")</script>' + MEASURE)
    open(out, "w", encoding="utf-8").write(text[:i] + wrapped + text[j:])


def one(browser, copy, profile):
    shutil.rmtree(profile, ignore_errors=True)
    start = time.monotonic()
    out = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000", f"--user-data-dir={profile}", "--dump-dom", "file://" + copy],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=900, check=True)
    wall = time.monotonic() - start
    m = re.search(rb'<pre id="pv-bench">(.*?)</pre>', out.stdout)
    if not m:
        sys.exit(f"bench: no figures in the DOM of {copy} (the load handler did not finish)")
    r = json.loads(m.group(1).decode().replace("&quot;", '"'))
    r["wall"] = wall
    return r


def stats(values, fmt):
    v = sorted(values)
    return f"{fmt(v[0])} / {fmt(statistics.median_low(v))} / {fmt(v[-1])}"


def main():
    page = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    browser = chromium()
    work = tempfile.mkdtemp(prefix="planview-html-browser-")
    copy = os.path.join(work, "page.html")
    measured_copy(page, copy)
    runs = [one(browser, copy, os.path.join(work, "profile")) for _ in range(rounds)]
    shutil.rmtree(work, ignore_errors=True)
    first = runs[0]
    print(f"{os.path.basename(page)}: {os.path.getsize(page)} bytes, {first['changes']} changes, "
          f"{rounds} rounds; filter shows {first.get('shown_filtered')}, search shows {first.get('shown_searched')}")
    print("| step | ms (min / median / max) |")
    print("|---|---|")
    for k in KEYS:
        if k in first:
            print(f"| {k} | {stats([r[k] for r in runs], lambda x: f'{x:.0f}')} |")
    print(f"| wall (s) | {stats([r['wall'] for r in runs], lambda x: f'{x:.1f}')} |")


if __name__ == "__main__":
    main()
