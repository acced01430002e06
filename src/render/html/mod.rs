//! The HTML page's parts that know nothing of plans: the escaper (one for
//! text, attribute values and SVG text alike), the style, the one inline
//! script and the Content-Security-Policy that lets only that script run
//! (by its SHA-256), and the SVG graph's layout ([`graph`]).

pub(crate) mod graph;
pub(crate) mod review;

use sha2::{Digest, Sha256};

/// Text from the plan (or planview's own) made safe for HTML text, attribute
/// values (quoted) and SVG text alike: terminal controls made visible first,
/// as `show` prints them, then `& < > " '` escaped.
pub(crate) fn esc(s: &str) -> String {
    let s = crate::sanitize::line(s);
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page's Content-Security-Policy: nothing may be fetched, framed or
/// submitted; the inline style applies, and the one script whose hash this
/// is runs (no other script, no inline event handler, no `javascript:` URL).
pub(crate) fn csp() -> String {
    let hash = base64(&Sha256::digest(SCRIPT.as_bytes()));
    format!(
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-{hash}'; img-src 'none'; connect-src 'none'; \
         base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
}

/// Standard base64 with padding (RFC 4648), as CSP hashes are written.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The page's style: light and dark from `prefers-color-scheme`, a print
/// layout (every change open, no controls), and the flex `order` that puts
/// the summary, filters, graph and module tree (written after the changes,
/// once the changes were counted) above them.
pub(crate) const STYLE: &str = "
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --muted: #59636e; --line: #d1d9e0; --box: #f6f8fa;
  --create: #1a7f37; --update: #9a6700; --delete: #cf222e; --replace: #8250df; --read: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --box: #161b22;
  --create: #3fb950; --update: #d29922; --delete: #f85149; --replace: #a371f7; --read: #58a6ff; } }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 1.5em auto; max-width: 76em;
  padding: 0 1em; display: flex; flex-direction: column; }
[hidden] { display: none !important; }
.plan { display: flex; flex-direction: column; }
.head { order: 1; } .filters { order: -1; } .graph { order: 2; } .tree { order: 3; } .changes { order: 4; } .after { order: 5; }
h1 { font-size: 1.3em; overflow-wrap: anywhere; } h2 { font-size: 1.1em; border-bottom: 1px solid var(--line); }
.meta, .note { color: var(--muted); } .planline { font-size: 1.1em; font-weight: 600; }
.errored, .fail { color: var(--delete); font-weight: 600; } .pass { color: var(--create); font-weight: 600; }
pre { background: var(--box); padding: .6em .8em; overflow-x: auto; margin: .3em 0 1em; }
code, pre { font: 13px/1.4 ui-monospace, monospace; overflow-wrap: anywhere; }
details { margin: .2em 0; } details details { margin-left: 1.2em; } summary { cursor: pointer; }
.change { content-visibility: auto; contain-intrinsic-size: auto 14em; }
ul { margin: .2em 0 .4em; padding-left: 1.6em; }
.create, .add { color: var(--create); } .update { color: var(--update); } .delete, .remove { color: var(--delete); }
.replace { color: var(--replace); } .read { color: var(--read); } .muted { color: var(--muted); }
.blast, .deps { border-left: 3px solid var(--delete); padding-left: .6em; margin: -.6em 0 1em; }
.deps { border-left-color: var(--line); }
.filters { position: sticky; top: 0; z-index: 1; background: var(--bg); border-bottom: 1px solid var(--line); padding: .4em 0;
  display: flex; flex-wrap: wrap; gap: .4em 1em; align-items: center; }
html:not(.js) .filters { display: none; }
.filters label { white-space: nowrap; } .filters input[type=search] { min-width: 16em; }
.graph .draw { overflow: auto; max-height: 90vh; border: 1px solid var(--line); background: var(--box); }
.graph svg { display: block; max-width: none; height: auto; }
.graph .cl { fill: var(--bg); stroke: var(--line); } .graph text { font: 11px ui-monospace, monospace; fill: var(--fg); }
.graph .cl-t { fill: var(--muted); }
.graph .n rect { fill: var(--bg); stroke-width: 1.5; }
.graph .n.create rect { stroke: var(--create); } .graph .n.update rect { stroke: var(--update); }
.graph .n.delete rect { stroke: var(--delete); } .graph .n.replace rect { stroke: var(--replace); }
.graph .n.read rect { stroke: var(--read); } .graph .n.muted rect { stroke: var(--muted); }
.graph .n.destroys rect { stroke-width: 3.5; fill: color-mix(in srgb, var(--delete) 14%, var(--bg)); }
.graph .n.inblast rect { stroke-dasharray: 4 2; fill: color-mix(in srgb, var(--delete) 7%, var(--bg)); }
.graph .e { stroke: var(--muted); fill: none; stroke-width: 1; opacity: .7; }
.graph .e.hot { stroke: var(--delete); stroke-width: 1.6; opacity: .9; }
.graph .dim { opacity: .15; }
@media print { .filters { display: none; } summary { list-style: none; } .change { content-visibility: visible; }
  .graph .draw { max-height: none; overflow: visible; } .graph svg { max-width: 100%; }
  details::details-content { content-visibility: visible; display: block; } body { max-width: none; } }
";

/// The page's one script. Filters (action, type, module) and the search box
/// hide the changes that do not match and dim their graph nodes; the state
/// lives in the URL fragment (`#action=delete,replace&type=T&module=M&q=text`),
/// read on load and on every change of it, written back by the controls.
/// Only planview's own elements and `data-` attributes are read; plan text is
/// only ever compared, never parsed as markup (no `innerHTML`).
pub(crate) const SCRIPT: &str = r##"(function () {
"use strict";
var doc = document, root = doc.documentElement;
root.classList.add("js");
var changes = Array.prototype.slice.call(doc.querySelectorAll(".change"));
var nodes = Array.prototype.slice.call(doc.querySelectorAll(".graph .n[data-c]"));
var boxes = Array.prototype.slice.call(doc.querySelectorAll(".filters input[name=action]"));
var typeSel = doc.querySelector(".filters select[name=type]");
var moduleSel = doc.querySelector(".filters select[name=module]");
var search = doc.querySelector(".filters input[name=q]");
var status = doc.querySelector(".filters .shown");
var texts = null;
// What is hidden (changes) and dimmed (graph nodes) now: all shown at first.
var hidden = changes.map(function () { return false; });
var dimmed = nodes.map(function () { return false; });
var byId = {};
changes.forEach(function (c, i) { byId[c.id] = i; });
function read() {
  var st = { action: [], type: "", module: "", q: "" };
  var h = location.hash.slice(1);
  if (h.indexOf("=") < 0) { return null; }
  h.split("&").forEach(function (kv) {
    var i = kv.indexOf("="); if (i < 0) { return; }
    var k = kv.slice(0, i), v = "";
    try { v = decodeURIComponent(kv.slice(i + 1).replace(/\+/g, " ")); } catch (e) { return; }
    if (k === "action") { st.action = v.split(",").filter(function (a) { return a !== ""; }); }
    else if (k === "type" || k === "module" || k === "q") { st[k] = v; }
  });
  return st;
}
function write(st) {
  var parts = [];
  if (st.action.length) { parts.push("action=" + st.action.map(encodeURIComponent).join(",")); }
  ["type", "module", "q"].forEach(function (k) { if (st[k]) { parts.push(k + "=" + encodeURIComponent(st[k])); } });
  history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname + location.search);
}
function controls() {
  return {
    action: boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }),
    type: typeSel ? typeSel.value : "", module: moduleSel ? moduleSel.value : "",
    q: search ? search.value : ""
  };
}
function show(st) {
  boxes.forEach(function (b) { b.checked = st.action.indexOf(b.value) >= 0; });
  if (typeSel) { typeSel.value = st.type; }
  if (moduleSel) { moduleSel.value = st.module; }
  if (search) { search.value = st.q; }
}
function apply(st) {
  var q = st.q.toLowerCase(), shown = 0, all = !st.action.length && !st.type && !st.module && !q;
  if (q && !texts) { texts = changes.map(function (c) { return c.textContent.toLowerCase(); }); }
  changes.forEach(function (c, i) {
    var ok = all;
    if (!all) {
      var d = c.dataset, m = d.module || "";
      ok = (!st.action.length || st.action.indexOf(d.action) >= 0) &&
        (!st.type || d.type === st.type) &&
        (!st.module || m === st.module || m.indexOf(st.module + ".") === 0) &&
        (!q || texts[i].indexOf(q) >= 0);
    }
    // Only what changes is written: a write invalidates the change's style.
    if (hidden[i] === ok) { hidden[i] = !ok; c.hidden = !ok; }
    if (ok) { shown += 1; }
  });
  nodes.forEach(function (n, k) {
    var i = byId[n.getAttribute("data-c")], dim = i !== undefined && hidden[i];
    if (dimmed[k] !== dim) { dimmed[k] = dim; n.classList.toggle("dim", dim); }
  });
  if (status) { status.textContent = shown + " of " + changes.length + " changes shown"; }
  root.setAttribute("data-shown", String(shown));
}
function fromHash() {
  var st = read();
  if (st) { show(st); apply(st); }
}
function fromControls() { var st = controls(); write(st); apply(st); }
boxes.forEach(function (b) { b.addEventListener("change", fromControls); });
[typeSel, moduleSel].forEach(function (s) { if (s) { s.addEventListener("change", fromControls); } });
if (search) { search.addEventListener("input", fromControls); }
window.addEventListener("hashchange", fromHash);
window.addEventListener("beforeprint", function () {
  Array.prototype.forEach.call(doc.querySelectorAll("details"), function (d) { d.open = true; });
});
var st = read();
if (st) { show(st); apply(st); } else { apply(controls()); }
})();
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_html_special_character_is_escaped() {
        assert_eq!(esc(r#"<img src=x onerror="a('b')">&"#), "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;");
        assert!(!esc("a\u{1b}[31mb").contains('\u{1b}'), "terminal controls are made visible too");
    }

    #[test]
    fn base64_is_rfc_4648() {
        for (raw, want) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        {
            assert_eq!(base64(raw.as_bytes()), want);
        }
    }

    #[test]
    fn the_policy_lets_only_the_pages_own_script_run() {
        let p = csp();
        assert!(p.starts_with("default-src 'none';"));
        let hash = base64(&Sha256::digest(SCRIPT.as_bytes()));
        assert_eq!(hash.len(), 44);
        assert!(p.contains(&format!("script-src 'sha256-{hash}';")));
        assert!(!p.contains("unsafe-eval") && !p.contains("script-src 'unsafe-inline'"));
    }
}
