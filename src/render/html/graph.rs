//! The page's inline SVG graph, laid out by planview when the page is
//! written (no script, no library at view time): one box per module
//! instance (a cluster), the changes inside it in a grid, each coloured by
//! its action; an edge from a change to each change that depends on it.
//! Destructive changes are drawn heavy, the changes they drag along (their
//! blast radius) dashed, and the edges between them red.
//!
//! A plan of more than [`MAX_NODES`] changes is drawn one box per module
//! instead (counts by action, edges summed between modules); more than
//! [`MAX_NODES`] modules are not drawn at all, and the page says so.

use super::esc;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The most nodes a graph draws (changes, or modules when it is collapsed).
pub(crate) const MAX_NODES: usize = 300;

const NODE_W: i64 = 190;
const NODE_H: i64 = 24;
/// Room between columns (for the arrows) and between rows.
const HGAP: i64 = 36;
const VGAP: i64 = 14;
const PAD: i64 = 10;
const TITLE_H: i64 = 22;
const WIDTH: i64 = 1200;
/// Label characters that fit a node (11px monospace).
const LABEL_CHARS: usize = 28;
/// How far an edge's curve leaves the straight line, at most (the drawing
/// has this much room above and below).
const BULGE: i64 = 26;

/// One node: a change, or a module of a collapsed graph.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    /// The cluster it is drawn in.
    pub cluster: usize,
    /// Its short label (shortened from the left to fit), and its full text (the tooltip).
    pub label: String,
    pub title: String,
    /// The id of the element the node links to (`#id`), which the filters read too.
    pub target: String,
    /// The CSS class of its action (`create`, `delete`, ...).
    pub class: &'static str,
    /// Destroys an object (delete, replace).
    pub destroys: bool,
}

/// What the graph draws.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    /// The clusters' titles (module instances, `(root)` for the root module).
    pub clusters: Vec<String>,
    pub nodes: Vec<Node>,
    /// `(from, to)`: `to` depends on `from` (changes when `from` changes).
    pub edges: Vec<(usize, usize)>,
}

/// A cluster's box: `(x, y, width, height)`.
type Rect = (i64, i64, i64, i64);

/// A node's box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place {
    x: i64,
    y: i64,
}

/// Each node's layer: the longest chain of edges that leads to it (a cycle
/// is cut where the relaxation stops, after as many rounds as nodes).
fn depths(g: &Graph) -> Vec<usize> {
    let mut depth = vec![0usize; g.nodes.len()];
    for _ in 0..g.nodes.len() {
        let mut moved = false;
        for &(a, b) in &g.edges {
            if a != b && a < depth.len() && b < depth.len() && depth[b] < depth[a] + 1 && depth[a] < g.nodes.len() {
                depth[b] = depth[a] + 1;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    depth
}

/// Where each cluster and node goes: clusters packed on shelves of
/// [`WIDTH`] (those whose changes come first in the dependency order
/// first), each cluster's nodes in a grid of up to four columns in that
/// order, so most edges run left to right. Returns the clusters' boxes
/// `(x, y, w, h)` by cluster, the nodes' places and the height.
fn layout(g: &Graph) -> (Vec<Rect>, Vec<Place>, i64) {
    let depth = depths(g);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); g.clusters.len()];
    for (i, n) in g.nodes.iter().enumerate() {
        members[n.cluster].push(i);
    }
    for list in &mut members {
        list.sort_by_key(|&i| (depth[i], i));
    }
    let mut order: Vec<usize> = (0..g.clusters.len()).collect();
    order.sort_by_key(|&c| (members[c].iter().map(|&i| depth[i]).min().unwrap_or(0), c));
    let mut boxes = vec![(0, 0, 0, 0); g.clusters.len()];
    let mut places = vec![Place { x: 0, y: 0 }; g.nodes.len()];
    let (mut x, mut y, mut shelf) = (PAD, PAD, 0i64);
    for c in order {
        let list = &members[c];
        let n = list.len().max(1) as i64;
        let cols = n.min(4);
        let rows = (n + cols - 1) / cols;
        let w = cols * (NODE_W + HGAP) - HGAP + 2 * PAD;
        let h = TITLE_H + rows * (NODE_H + VGAP) - VGAP + PAD;
        if x > PAD && x + w > WIDTH {
            x = PAD;
            y += shelf + HGAP;
            shelf = 0;
        }
        for (k, &node) in list.iter().enumerate() {
            let (r, col) = (k as i64 / cols, k as i64 % cols);
            places[node] = Place { x: x + PAD + col * (NODE_W + HGAP), y: y + TITLE_H + r * (NODE_H + VGAP) };
        }
        boxes[c] = (x, y, w, h);
        x += w + HGAP;
        shelf = shelf.max(h);
    }
    (boxes, places, y + shelf + PAD)
}

/// The point where the line from the centre of box `p` towards `(tx, ty)`
/// leaves the box.
fn exit(p: Place, tx: f64, ty: f64) -> (f64, f64) {
    let (cx, cy) = ((p.x + NODE_W / 2) as f64, (p.y + NODE_H / 2) as f64);
    let (dx, dy) = (tx - cx, ty - cy);
    if dx == 0.0 && dy == 0.0 {
        return (cx, cy);
    }
    let sx = if dx == 0.0 { f64::INFINITY } else { (NODE_W / 2) as f64 / dx.abs() };
    let sy = if dy == 0.0 { f64::INFINITY } else { (NODE_H / 2) as f64 / dy.abs() };
    let t = sx.min(sy).min(1.0);
    (cx + dx * t, cy + dy * t)
}

/// `s` cut from the left to `n` characters (the end of an address says most).
fn shorten(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        return s.to_string();
    }
    let tail: String = s.chars().skip(count - (n - 1)).collect();
    format!("…{tail}")
}

/// The nodes an edge from a destroying node reaches (its blast radius),
/// following edges transitively (each node once: cycles end).
fn blast(g: &Graph) -> Vec<bool> {
    let mut out_edges: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &(a, b) in &g.edges {
        out_edges.entry(a).or_default().push(b);
    }
    let mut hit = vec![false; g.nodes.len()];
    let mut todo: Vec<usize> = g.nodes.iter().enumerate().filter(|(_, n)| n.destroys).map(|(i, _)| i).collect();
    while let Some(a) = todo.pop() {
        for &b in out_edges.get(&a).map(Vec::as_slice).unwrap_or(&[]) {
            if !hit[b] {
                hit[b] = true;
                todo.push(b);
            }
        }
    }
    hit
}

/// The graph as inline SVG; `id` makes its marker's id unique on the page.
pub(crate) fn write_svg(w: &mut dyn Write, g: &Graph, id: &str) -> io::Result<()> {
    let (boxes, places, height) = layout(g);
    let width = boxes.iter().map(|b| b.0 + b.2).max().unwrap_or(0) + PAD;
    let hot = blast(g);
    writeln!(
        w,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 {} {width} {}\" width=\"{width}\" role=\"img\" aria-label=\"changes and their dependents\">",
        -BULGE,
        height + 2 * BULGE
    )?;
    writeln!(
        w,
        "<defs><marker id=\"{id}-a\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"context-stroke\"/></marker></defs>"
    )?;
    for (c, &(x, y, bw, bh)) in boxes.iter().enumerate() {
        writeln!(
            w,
            "<g><rect class=\"cl\" x=\"{x}\" y=\"{y}\" width=\"{bw}\" height=\"{bh}\" rx=\"6\"/><text class=\"cl-t\" x=\"{}\" y=\"{}\">{}</text></g>",
            x + PAD,
            y + 15,
            esc(&shorten(&g.clusters[c], ((bw - 2 * PAD) / 7).max(8) as usize))
        )?;
    }
    for &(a, b) in &g.edges {
        if a == b || a >= places.len() || b >= places.len() {
            continue;
        }
        let (pa, pb) = (places[a], places[b]);
        let centre = |p: Place| ((p.x + NODE_W / 2) as f64, (p.y + NODE_H / 2) as f64);
        let (ca, cb) = (centre(pa), centre(pb));
        let (x1, y1) = exit(pa, cb.0, cb.1);
        let (ex, ey) = exit(pb, ca.0, ca.1);
        let (dx, dy) = (ex - x1, ey - y1);
        // A slight curve (at most [`BULGE`] off the straight line) tells
        // edges on one line apart.
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let k = (len * 0.12).min(BULGE as f64) / len;
        let (mx, my) = ((x1 + ex) / 2.0 - dy * k, (y1 + ey) / 2.0 + dx * k);
        let class = if g.nodes[a].destroys || hot[a] { "e hot" } else { "e" };
        writeln!(w, "<path class=\"{class}\" d=\"M{x1:.0},{y1:.0} Q{mx:.0},{my:.0} {ex:.0},{ey:.0}\" marker-end=\"url(#{id}-a)\"/>")?;
    }
    for (i, n) in g.nodes.iter().enumerate() {
        let p = places[i];
        let mut class = format!("n {}", n.class);
        if n.destroys {
            class.push_str(" destroys");
        } else if hot[i] {
            class.push_str(" inblast");
        }
        writeln!(
            w,
            "<a class=\"{class}\" href=\"#{t}\" data-c=\"{t}\"><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{NODE_W}\" height=\"{NODE_H}\" rx=\"4\"/><text x=\"{}\" y=\"{}\">{}</text></a>",
            esc(&n.title),
            p.x,
            p.y,
            p.x + 6,
            p.y + 16,
            esc(&shorten(&n.label, LABEL_CHARS)),
            t = esc(&n.target),
        )?;
    }
    writeln!(w, "</svg>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(cluster: usize, label: &str, destroys: bool) -> Node {
        Node {
            cluster,
            label: label.into(),
            title: label.into(),
            target: format!("t-{label}"),
            class: if destroys { "delete" } else { "update" },
            destroys,
        }
    }

    #[test]
    fn nodes_sit_inside_their_cluster_and_do_not_overlap() {
        let mut g = Graph { clusters: vec!["(root)".into(), "module.a".into()], ..Default::default() };
        for i in 0..9 {
            g.nodes.push(node(i % 2, &format!("n{i}"), false));
        }
        let (boxes, places, height) = layout(&g);
        for (i, p) in places.iter().enumerate() {
            let (x, y, w, h) = boxes[g.nodes[i].cluster];
            assert!(p.x >= x && p.y >= y && p.x + NODE_W <= x + w && p.y + NODE_H <= y + h, "node {i} in its cluster");
            assert!(p.y + NODE_H <= height);
            for (j, q) in places.iter().enumerate().skip(i + 1) {
                let apart = p.x + NODE_W <= q.x || q.x + NODE_W <= p.x || p.y + NODE_H <= q.y || q.y + NODE_H <= p.y;
                assert!(apart, "nodes {i} and {j} overlap");
            }
        }
    }

    #[test]
    fn the_blast_radius_follows_edges_and_cycles_end() {
        let mut g = Graph { clusters: vec!["(root)".into()], ..Default::default() };
        g.nodes = vec![node(0, "db", true), node(0, "app", false), node(0, "dns", false), node(0, "other", false)];
        g.edges = vec![(0, 1), (1, 2), (2, 1)];
        assert_eq!(blast(&g), vec![false, true, true, false]);
        let mut out = Vec::new();
        write_svg(&mut out, &g, "g0").unwrap();
        let svg = String::from_utf8(out).unwrap();
        assert_eq!(svg.matches("class=\"e hot\"").count(), 3);
        assert!(svg.contains("class=\"n delete destroys\""));
        assert_eq!(svg.matches(" inblast\"").count(), 2);
    }

    #[test]
    fn plan_text_in_the_svg_is_escaped() {
        let mut g = Graph { clusters: vec!["module.x[\"</svg><script>\"]".into()], ..Default::default() };
        g.nodes.push(node(0, "a\"><img src=x onerror=alert(1)>", false));
        let mut out = Vec::new();
        write_svg(&mut out, &g, "g0").unwrap();
        let svg = String::from_utf8(out).unwrap();
        assert!(!svg.contains("<script") && !svg.contains("<img") && !svg.contains("\"></svg"));
    }

    #[test]
    fn labels_keep_their_end() {
        assert_eq!(shorten("aws_instance.web", 28), "aws_instance.web");
        let s = shorten("aws_route53_record.a_very_long_name_indeed[\"k\"]", 20);
        assert_eq!(s.chars().count(), 20);
        assert!(s.starts_with('…') && s.ends_with("[\"k\"]"));
    }
}
