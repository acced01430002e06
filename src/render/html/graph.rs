//! The page's inline SVG graph, laid out by planview when the page is
//! written (no script, no library at view time): a layered layout of the
//! dependency order, modules as boxed clusters.
//!
//! - **Layers**: each node's layer is the longest chain of edges that leads
//!   to it (cycles are cut at their back edge, found by a depth-first walk),
//!   so every other edge runs left to right, from a change to the changes
//!   that depend on it. Each layer is a column.
//! - **Clusters**: one box per module instance, spanning the columns of its
//!   changes; within a column a cluster's changes stack (wrapping into
//!   sub-columns past a square-ish block), ordered by where the changes
//!   they depend on sit (one barycentre sweep, fewer crossings). Clusters
//!   whose columns do not overlap share a lane; lanes stack downwards.
//! - Nodes are coloured by action; destructive changes are drawn heavy, the
//!   changes they drag along (their blast radius) dashed, and the edges
//!   between them red.
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
/// Room between two columns of one layer, between layers (for the arrows),
/// between rows and between lanes of clusters.
const SUBGAP: i64 = 16;
const LAYER_GAP: i64 = 64;
const VGAP: i64 = 14;
const LANE_GAP: i64 = 28;
const PAD: i64 = 10;
const TITLE_H: i64 = 22;
/// A column of one cluster's layer holds at least this many rows before it
/// wraps into another column.
const MIN_ROWS: usize = 8;
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

/// Each node's outgoing edges (in range, no self-loops, each once).
fn out_edges(g: &Graph) -> Vec<Vec<usize>> {
    let n = g.nodes.len();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &g.edges {
        if a != b && a < n && b < n {
            out[a].push(b);
        }
    }
    for list in &mut out {
        list.sort_unstable();
        list.dedup();
    }
    out
}

/// Each node's layer: the longest chain of edges that leads to it, over
/// the edges left when each cycle is cut at its back edge (an edge to a
/// node still on the depth-first walk's stack). Every edge kept runs from
/// a lower layer to a higher one.
fn layers(g: &Graph) -> Vec<usize> {
    let n = g.nodes.len();
    let out = out_edges(g);
    // 0: not seen, 1: on the stack, 2: done.
    let mut state = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    let mut kept: Vec<Vec<usize>> = vec![Vec::new(); n];
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        state[start] = 1;
        let mut stack = vec![(start, 0usize)];
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&w) = out[v].get(*next) {
                *next += 1;
                match state[w] {
                    0 => {
                        kept[v].push(w);
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    2 => kept[v].push(w),
                    _ => {} // a back edge: cut
                }
            } else {
                state[v] = 2;
                post.push(v);
                stack.pop();
            }
        }
    }
    let mut layer = vec![0usize; n];
    for &v in post.iter().rev() {
        for &w in &kept[v] {
            layer[w] = layer[w].max(layer[v] + 1);
        }
    }
    layer
}

/// Rows and columns for `k` nodes of one cluster in one layer: one column
/// up to [`MIN_ROWS`], then a block about as tall as it is wide.
fn block(k: usize) -> (usize, usize) {
    if k == 0 {
        return (0, 0);
    }
    let rows = ((6 * k) as f64).sqrt().ceil() as usize;
    let rows = rows.max(MIN_ROWS).min(k);
    (rows, k.div_ceil(rows))
}

/// The layout: each cluster's box (by cluster), each node's place, each
/// node's layer, the drawing's width and height.
struct Layout {
    boxes: Vec<Rect>,
    places: Vec<Place>,
    layer: Vec<usize>,
    width: i64,
    height: i64,
}

/// Lay the graph out (see the module's words): columns by layer, clusters
/// boxed and packed into lanes, nodes ordered by their predecessors' places.
fn layout(g: &Graph) -> Layout {
    let layer = layers(g);
    let nl = layer.iter().max().map_or(0, |m| m + 1);
    let nc = g.clusters.len();
    // Each cluster's nodes by layer.
    let mut cells: Vec<BTreeMap<usize, Vec<usize>>> = vec![BTreeMap::new(); nc];
    for (i, n) in g.nodes.iter().enumerate() {
        cells[n.cluster].entry(layer[i]).or_default().push(i);
    }
    // Each layer's width in node columns, and where it starts.
    let mut cols = vec![1usize; nl];
    for cluster in &cells {
        for (&l, members) in cluster {
            cols[l] = cols[l].max(block(members.len()).1);
        }
    }
    let mut xs = Vec::with_capacity(nl);
    let mut x = 2 * PAD;
    for &c in &cols {
        xs.push(x);
        x += c as i64 * (NODE_W + SUBGAP) - SUBGAP + LAYER_GAP;
    }
    // Clusters into lanes: first fit by their first column, a lane holding
    // clusters whose columns do not overlap.
    let span = |c: usize| -> Option<(usize, usize)> { Some((*cells[c].keys().next()?, *cells[c].keys().next_back()?)) };
    let rows_of = |c: usize| cells[c].values().map(|m| block(m.len()).0).max().unwrap_or(1).max(1) as i64;
    let height_of = |c: usize| TITLE_H + rows_of(c) * (NODE_H + VGAP) - VGAP + PAD;
    let mut order: Vec<usize> = (0..nc).filter(|&c| span(c).is_some()).collect();
    order.sort_by_key(|&c| (span(c), c));
    let mut lanes: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut lane_height: Vec<i64> = Vec::new();
    let mut lane_of = vec![0usize; nc];
    for &c in &order {
        let (lo, hi) = span(c).expect("clusters in the order have nodes");
        let free = lanes.iter().position(|l| l.iter().all(|&(a, b)| hi < a || b < lo));
        let k = match free {
            Some(k) => k,
            None => {
                lanes.push(Vec::new());
                lane_height.push(0);
                lanes.len() - 1
            }
        };
        lanes[k].push((lo, hi));
        lane_height[k] = lane_height[k].max(height_of(c));
        lane_of[c] = k;
    }
    let mut lane_y = Vec::with_capacity(lanes.len());
    let mut y = PAD;
    for h in &lane_height {
        lane_y.push(y);
        y += h + LANE_GAP;
    }
    let height = if lanes.is_empty() { 2 * PAD } else { y - LANE_GAP + PAD };
    let mut boxes = vec![(0, 0, 0, 0); nc];
    for &c in &order {
        let (lo, hi) = span(c).expect("clusters in the order have nodes");
        let right = xs[hi] + block(cells[c][&hi].len()).1 as i64 * (NODE_W + SUBGAP) - SUBGAP + PAD;
        let left = xs[lo] - PAD;
        boxes[c] = (left, lane_y[lane_of[c]], right - left, height_of(c));
    }
    // Nodes, a layer at a time: each cell's nodes by the mean height of
    // the nodes they depend on (placed already, in earlier layers).
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    for (a, list) in out_edges(g).into_iter().enumerate() {
        for b in list {
            if layer[a] < layer[b] {
                preds[b].push(a);
            }
        }
    }
    let mut places = vec![Place { x: 0, y: 0 }; g.nodes.len()];
    for (l, &x) in xs.iter().enumerate() {
        for (c, cluster) in cells.iter().enumerate() {
            let Some(members) = cluster.get(&l) else { continue };
            let mut members = members.clone();
            let mean = |i: usize| -> f64 {
                let p = &preds[i];
                if p.is_empty() {
                    f64::MAX
                } else {
                    p.iter().map(|&a| places[a].y as f64).sum::<f64>() / p.len() as f64
                }
            };
            let mut keyed: Vec<(f64, usize)> = members.iter().map(|&i| (mean(i), i)).collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            members = keyed.into_iter().map(|(_, i)| i).collect();
            let (rows, _) = block(members.len());
            for (k, &i) in members.iter().enumerate() {
                let (col, row) = ((k / rows) as i64, (k % rows) as i64);
                places[i] = Place { x: x + col * (NODE_W + SUBGAP), y: boxes[c].1 + TITLE_H + row * (NODE_H + VGAP) };
            }
        }
    }
    let width = boxes.iter().map(|b| b.0 + b.2).max().unwrap_or(0) + PAD;
    Layout { boxes, places, layer, width, height }
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
    let Layout { boxes, places, layer, width, height } = layout(g);
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
        if bw == 0 {
            continue; // a cluster without nodes
        }
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
        let d = if layer[a] < layer[b] {
            // Left to right: from the right side of `a` to the left side of
            // `b`, leaving and arriving level.
            let (x1, y1, x2, y2) = (pa.x + NODE_W, pa.y + NODE_H / 2, pb.x, pb.y + NODE_H / 2);
            let bend = (x2 - x1) / 2;
            format!("M{x1},{y1} C{},{y1} {},{y2} {x2},{y2}", x1 + bend, x2 - bend)
        } else {
            // A cycle's back edge: centre to centre, curved aside.
            let centre = |p: Place| ((p.x + NODE_W / 2) as f64, (p.y + NODE_H / 2) as f64);
            let (ca, cb) = (centre(pa), centre(pb));
            let (x1, y1) = exit(pa, cb.0, cb.1);
            let (ex, ey) = exit(pb, ca.0, ca.1);
            let (dx, dy) = (ex - x1, ey - y1);
            // A slight curve (at most [`BULGE`] off the straight line).
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let k = (len * 0.12).min(BULGE as f64) / len;
            let (mx, my) = ((x1 + ex) / 2.0 - dy * k, (y1 + ey) / 2.0 + dx * k);
            format!("M{x1:.0},{y1:.0} Q{mx:.0},{my:.0} {ex:.0},{ey:.0}")
        };
        let class = if g.nodes[a].destroys || hot[a] { "e hot" } else { "e" };
        writeln!(w, "<path class=\"{class}\" d=\"{d}\" marker-end=\"url(#{id}-a)\"/>")?;
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

    /// What every layout holds: each node inside its cluster's box, no two
    /// nodes and no two clusters overlapping, everything inside the drawing,
    /// and every edge that is not a cycle's back edge running left to right.
    fn check(g: &Graph) -> Layout {
        let l = layout(g);
        let apart = |a: Rect, b: Rect| a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
        let node_box = |p: Place| (p.x, p.y, NODE_W, NODE_H);
        for (i, p) in l.places.iter().enumerate() {
            let (x, y, w, h) = l.boxes[g.nodes[i].cluster];
            assert!(p.x >= x && p.y >= y + TITLE_H && p.x + NODE_W <= x + w && p.y + NODE_H <= y + h, "node {i} in its cluster");
            assert!(p.x >= 0 && p.y >= 0 && p.x + NODE_W <= l.width && p.y + NODE_H <= l.height, "node {i} in the drawing");
            for (j, q) in l.places.iter().enumerate().skip(i + 1) {
                assert!(apart(node_box(*p), node_box(*q)), "nodes {i} and {j} overlap");
            }
        }
        let used: Vec<usize> = (0..g.clusters.len()).filter(|&c| g.nodes.iter().any(|n| n.cluster == c)).collect();
        for (k, &c) in used.iter().enumerate() {
            let b = l.boxes[c];
            assert!(b.0 >= 0 && b.1 >= 0 && b.0 + b.2 <= l.width && b.1 + b.3 <= l.height, "cluster {c} in the drawing");
            for &d in &used[k + 1..] {
                assert!(apart(b, l.boxes[d]), "clusters {c} and {d} overlap");
            }
        }
        let mut back = 0;
        for &(a, b) in &g.edges {
            if a == b {
                continue;
            }
            if l.layer[a] < l.layer[b] {
                assert!(l.places[a].x + NODE_W < l.places[b].x, "edge {a} -> {b} runs left to right");
            } else {
                back += 1;
            }
        }
        // Only a cycle needs a back edge: without one there is none.
        if !has_cycle(g) {
            assert_eq!(back, 0, "an acyclic graph's edges all run forward");
        }
        l
    }

    fn has_cycle(g: &Graph) -> bool {
        let out = out_edges(g);
        let n = g.nodes.len();
        // Kahn's algorithm: a cycle leaves nodes with incoming edges.
        let mut indeg = vec![0usize; n];
        for list in &out {
            for &b in list {
                indeg[b] += 1;
            }
        }
        let mut todo: Vec<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
        let mut seen = 0;
        while let Some(v) = todo.pop() {
            seen += 1;
            for &b in &out[v] {
                indeg[b] -= 1;
                if indeg[b] == 0 {
                    todo.push(b);
                }
            }
        }
        seen < n
    }

    #[test]
    fn nodes_sit_inside_their_cluster_and_do_not_overlap() {
        let mut g = Graph { clusters: vec!["(root)".into(), "module.a".into()], ..Default::default() };
        for i in 0..9 {
            g.nodes.push(node(i % 2, &format!("n{i}"), false));
        }
        let l = check(&g);
        assert!(l.layer.iter().all(|&x| x == 0), "no edge: one layer");
    }

    #[test]
    fn layers_follow_the_dependency_order_and_clusters_share_lanes() {
        // db (module.data) -> app (root) -> dns, app -> cdn (module.edge); lb -> app.
        let mut g = Graph { clusters: vec!["(root)".into(), "module.data".into(), "module.edge".into()], ..Default::default() };
        g.nodes = vec![node(1, "db", true), node(0, "app", false), node(2, "dns", false), node(2, "cdn", false), node(0, "lb", false)];
        g.edges = vec![(0, 1), (1, 2), (1, 3), (4, 1), (0, 2)];
        let l = check(&g);
        assert_eq!(l.layer, vec![0, 1, 2, 2, 0]);
        // module.data (layer 0) and module.edge (layer 2) do not overlap in
        // columns: one lane; the root (layers 0-1) overlaps module.data.
        assert_eq!(l.boxes[1].1, l.boxes[2].1, "module.data and module.edge share a lane");
        assert_ne!(l.boxes[0].1, l.boxes[1].1);
        // The dependents of one change stack in one column of their cluster.
        assert_eq!(l.places[2].x, l.places[3].x);
    }

    #[test]
    fn cycles_are_cut_and_end() {
        let mut g = Graph { clusters: vec!["(root)".into()], ..Default::default() };
        g.nodes = (0..5).map(|i| node(0, &format!("n{i}"), false)).collect();
        g.edges = vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 3), (3, 4), (4, 3)];
        let l = check(&g);
        assert!(l.layer.iter().all(|&x| x < 5), "{:?}", l.layer);
        let mut out = Vec::new();
        write_svg(&mut out, &g, "g0").unwrap();
        let svg = String::from_utf8(out).unwrap();
        assert_eq!(svg.matches("<path class=\"e").count(), 6, "every edge but the self-loop is drawn: {svg}");
    }

    #[test]
    fn graphs_up_to_the_limit_lay_out_and_stay_a_readable_size() {
        // A small linear congruential generator: the same graphs every run.
        let mut seed = 0x2545_f491_u64;
        let mut next = move |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % n.max(1)
        };
        for round in 0..12 {
            let nodes = [1, 2, 17, 60, 150, MAX_NODES][round % 6];
            let clusters = 1 + next(if round % 3 == 0 { 1 } else { 40 });
            let edges = next(2 * nodes + 1);
            let mut g = Graph { clusters: (0..clusters).map(|c| format!("module.m{c}")).collect(), ..Default::default() };
            g.nodes = (0..nodes).map(|i| node(next(clusters), &format!("n{i}"), next(10) == 0)).collect();
            g.edges = (0..edges).map(|_| (next(nodes), next(nodes))).collect();
            check(&g);
        }
        // The limit in one cluster and one layer: a block, not a 300-row column.
        let mut g = Graph { clusters: vec!["(root)".into()], ..Default::default() };
        g.nodes = (0..MAX_NODES).map(|i| node(0, &format!("n{i}"), false)).collect();
        let l = check(&g);
        assert!(l.width < 2000 && l.height < 2000, "{} x {}", l.width, l.height);
        // A chain at the limit is wide, and each layer one column.
        g.edges = (1..MAX_NODES).map(|i| (i - 1, i)).collect();
        let l = check(&g);
        assert_eq!(*l.layer.iter().max().unwrap(), MAX_NODES - 1);
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
