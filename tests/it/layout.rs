//! The house's shape, checked: the import graph of `src/` (a top-level module
//! or folder is one room) has no cycle and at most 8 layers (a module's layer
//! is one above the highest it imports), no source file holds more than 900
//! lines of code, and CONTRIBUTING.md's layout names every top-level module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to (`None` for the crate root files).
fn room(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(src()).unwrap();
    let mut parts = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned());
    let first = parts.next()?;
    if rel.components().count() > 1 {
        return Some(first);
    }
    let name = first.trim_end_matches(".rs").to_string();
    (name != "lib" && name != "main").then_some(name)
}

/// `text` without `#[cfg(test)] mod x { … }` blocks and `//` comments.
fn product_code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let is_inline_mod = {
            let t = trimmed.strip_prefix("pub(crate) ").unwrap_or(trimmed);
            t.starts_with("mod ") && t.find('{').is_some_and(|b| t.find(';').is_none_or(|s| b < s))
        };
        if !is_inline_mod {
            rest = after;
            continue;
        }
        let open = after.find('{').unwrap();
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

fn ident_at(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The crate-level names a file's product code reaches through `crate::`.
fn imports(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut item) = (0usize, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.insert(ident_at(item.trim()).to_string());
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            out.insert(ident_at(item.trim()).to_string());
        } else {
            out.insert(ident_at(rest).to_string());
        }
    }
    out.remove("");
    out.remove("self");
    out
}

fn lines_of_code(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//")).count()
}

struct Graph {
    edges: BTreeMap<String, BTreeSet<String>>,
}

impl Graph {
    fn of_src() -> (Graph, Vec<(PathBuf, usize)>) {
        let mut files = Vec::new();
        rust_files(&src(), &mut files);
        let rooms: BTreeSet<String> = files.iter().filter_map(|f| room(f)).collect();
        assert!(rooms.len() > 10 && rooms.contains("read") && rooms.contains("run"), "{rooms:?}");
        let mut edges: BTreeMap<String, BTreeSet<String>> = rooms.iter().map(|r| (r.clone(), BTreeSet::new())).collect();
        let mut sizes = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            sizes.push((file.clone(), lines_of_code(&text)));
            // Unit tests (`#[cfg(test)] mod tests;` in a sibling tests.rs) are no product import.
            let is_tests = file.file_name().is_some_and(|n| n == "tests.rs");
            let Some(from) = room(file).filter(|_| !is_tests) else { continue };
            for name in imports(&product_code(&text)) {
                // A name that is no module is an item of the crate root.
                let to = if rooms.contains(&name) { name } else { "(crate root)".to_string() };
                if to != from {
                    edges.get_mut(&from).unwrap().insert(to);
                }
            }
        }
        edges.entry("(crate root)".to_string()).or_default();
        (Graph { edges }, sizes)
    }

    /// Modules on a cycle, each cycle once.
    fn cycles(&self) -> Vec<Vec<String>> {
        // Tarjan's strongly connected components.
        struct T<'g> {
            g: &'g Graph,
            index: BTreeMap<&'g str, usize>,
            low: BTreeMap<&'g str, usize>,
            stack: Vec<&'g str>,
            next: usize,
            out: Vec<Vec<String>>,
        }
        fn visit<'g>(t: &mut T<'g>, v: &'g str) {
            t.index.insert(v, t.next);
            t.low.insert(v, t.next);
            t.next += 1;
            t.stack.push(v);
            for w in &t.g.edges[v] {
                let w = w.as_str();
                if !t.index.contains_key(w) {
                    visit(t, w);
                    let lw = t.low[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if t.stack.contains(&w) {
                    let iw = t.index[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if t.low[v] == t.index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = t.stack.pop().unwrap();
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    t.out.push(comp);
                }
            }
        }
        let mut t = T { g: self, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), next: 0, out: Vec::new() };
        for v in self.edges.keys() {
            if !t.index.contains_key(v.as_str()) {
                visit(&mut t, v);
            }
        }
        t.out
    }

    /// Each module's layer (0 for a module importing none), on an acyclic graph.
    fn layers(&self) -> BTreeMap<String, usize> {
        fn layer(g: &Graph, v: &str, memo: &mut BTreeMap<String, usize>) -> usize {
            if let Some(&l) = memo.get(v) {
                return l;
            }
            let l = g.edges[v].iter().map(|w| layer(g, w, memo) + 1).max().unwrap_or(0);
            memo.insert(v.to_string(), l);
            l
        }
        let mut memo = BTreeMap::new();
        for v in self.edges.keys() {
            layer(self, v, &mut memo);
        }
        memo
    }
}

#[test]
fn the_import_graph_has_no_cycle_and_at_most_eight_layers() {
    let (graph, _) = Graph::of_src();
    let cycles = graph.cycles();
    assert!(cycles.is_empty(), "import cycles: {cycles:?}\n{:#?}", graph.edges);
    let layers = graph.layers();
    let depth = layers.values().max().copied().unwrap_or(0) + 1;
    assert!(depth <= 8, "{depth} layers: {layers:?}");
    let root_users: Vec<_> = graph.edges.iter().filter(|(_, to)| to.contains("(crate root)")).map(|(m, _)| m).collect();
    assert!(root_users.is_empty(), "modules importing the crate root's items: {root_users:?}");
}

#[test]
fn no_source_file_holds_more_than_900_lines_of_code() {
    let (_, sizes) = Graph::of_src();
    let big: Vec<_> = sizes.iter().filter(|(_, n)| *n > 900).collect();
    assert!(big.is_empty(), "{big:?}");
}

#[test]
fn contributing_names_every_top_level_module() {
    let contributing = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("CONTRIBUTING.md")).unwrap();
    let (graph, _) = Graph::of_src();
    let missing: Vec<_> = graph
        .edges
        .keys()
        .filter(|m| m.as_str() != "(crate root)")
        .filter(|m| !contributing.contains(&format!("src/{m}.rs")) && !contributing.contains(&format!("src/{m}/")))
        .collect();
    assert!(missing.is_empty(), "CONTRIBUTING.md's layout does not name: {missing:?}");
}

#[test]
fn the_graph_reader_sees_imports_and_skips_tests() {
    let code = product_code(
        "use crate::{a::X, b::{c, d}, e};\nfn f() { crate::g::h(); } // crate::comment\n#[cfg(test)]\nmod tests {\n use crate::t;\n}\n",
    );
    let got = imports(&code);
    assert_eq!(got, ["a", "b", "e", "g"].iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
    assert_eq!(lines_of_code("a\n\n  // c\nb\n"), 2);
}
