//! `summary`'s terminal table of a list of changes that is spooled
//! ([`Listed::spilled`]): the same text as [`super::resource_table`] draws
//! from a list in memory (a test holds the two together), drawn in memory
//! that does not grow with the list.
//!
//! 1. The changes (noise left out) go to one spool per action group, in the
//!    order of the groups ([`super::GROUPS`]): read one after the other, they
//!    are the table's order (document order within a group).
//! 2. Alike changes ([`crate::query::collapse`]) are found a partition at a
//!    time: each change that may be grouped goes, with its place in the
//!    table, to the partition its resource block hashes to (at most
//!    [`PARTITION`] changes each, on average); a partition's groups are
//!    found in memory ([`crate::query::collapse::Collapser`]), and what they make of their members
//!    (the first stands for the group, the others are left out) is spooled
//!    by place. The partitions' spools are merged by place as the table is read.
//! 3. The rows are made, measured ([`Columns`]) and spooled; then the widths
//!    are fixed, and the rows are wrapped, measured again (the width of each
//!    column drawn is that of its widest line) and drawn ([`Rounded`]).

use super::*;
use crate::query::collapse::{member_key, parts as parts_of, MIN_GROUP};
use crate::query::summary::Listed;
use crate::render::layout::{Columns, Rounded};
use crate::spool::Records;
use serde::Deserialize;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{Hash, Hasher};

/// Changes in one partition of the grouping, on average (its groups are
/// found in memory: a few MB).
const PARTITION: usize = 32_768;

/// What grouping made of a change shown: left out (one of alike changes but
/// the first), or the first of alike changes (their label, how many, the
/// first keys). Changes not grouped have none.
#[derive(Serialize, Deserialize)]
enum Made {
    Left,
    First { label: String, count: usize, keys: Vec<String> },
}

/// Whether a change is never grouped ([`super::rows`]' rule).
fn alone(r: &ResourceEntry) -> bool {
    r.moved || r.importing || r.deposed.is_some() || !r.recognised || r.index_unknown || r.deferred_reason.is_some() || r.import_unknown
}

/// What makes changes alike besides their block ([`super::rows`]' rule).
fn action_of(r: &ResourceEntry) -> String {
    format!("{} {:?} {}", r.action, r.replace_order, r.reason.as_deref().unwrap_or(""))
}

/// The table of the spooled `list` (noise collapsed into one last row), as
/// [`super::resource_table`] draws it, written to `w`.
pub(super) fn spooled_table(w: &mut dyn Write, list: &Listed, noise: Option<&NoiseCount>, style: &Style) -> io::Result<()> {
    // 1. The table's order: the list's own when it comes grouped by action
    //    in display order, else one spool per action group.
    let groups: Option<Vec<Records<ResourceEntry>>> = if list.in_display_order() {
        None
    } else {
        let mut groups: Vec<Records<ResourceEntry>> = (0..=GROUPS.len()).map(|_| Records::with_block(64 << 10)).collect();
        list.each(|e| if e.noise { Ok(()) } else { groups[group_rank(&e.action)].push(e) })?;
        Some(groups)
    };
    // Each change shown (noise left out), in the table's order.
    let shown = |f: &mut dyn FnMut(&ResourceEntry) -> io::Result<()>| -> io::Result<()> {
        match &groups {
            None => list.each(|e| if e.noise { Ok(()) } else { f(e) }),
            Some(groups) => groups.iter().try_for_each(|g| g.each(|e| f(&e))),
        }
    };
    // 2. Alike changes, a partition at a time.
    let parts = list.len() / PARTITION + 1;
    let mut partitions: Vec<Records<Member>> = (0..parts).map(|_| Records::with_block(16 << 10)).collect();
    let mut at = 0u64;
    shown(&mut |e| {
        if !alone(e) {
            let (module, _, block) = parts_of(&e.address);
            let action = action_of(e);
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (&module, &block, &action).hash(&mut h);
            partitions[(h.finish() % parts as u64) as usize].push(&(at, module, block, action, member_key(&e.address)))?;
        }
        at += 1;
        Ok(())
    })?;
    // Each partition dropped (its file closed) once its groups are found.
    let made: Vec<Records<(u64, Made)>> = partitions.into_iter().map(grouped_in).collect::<io::Result<_>>()?;
    // 3. The rows, measured (fitted to a width, both ways they may be laid out).
    let heading = ["action", "address", "details"];
    let with_source = ["action", "address", "source", "details"];
    let fitting = style.width.is_some();
    let mut rows: Records<Vec<String>> = Records::default();
    let mut plain = if fitting { Columns::new(&heading) } else { Columns::natural_only(&heading) };
    let mut sourced = fitting.then(|| Columns::new(&with_source));
    let (mut source, mut located) = ("source".len(), false);
    {
        let mut merged = Merged::new(&made)?;
        let mut at = 0u64;
        shown(&mut |e| {
            let cells = match merged.at(at)? {
                Some(Made::Left) => None,
                Some(Made::First { label, count, keys }) => Some(row_cells(e, Some((&label, count, &keys)), style)),
                None => Some(row_cells(e, None, style)),
            };
            at += 1;
            let Some(mut cells) = cells else { return Ok(()) };
            let s = source_cell(e);
            located |= e.location.is_some();
            source = source.max(crate::render::layout::width(&s));
            plain.add(&cells);
            cells.push(s);
            if let Some(sourced) = &mut sourced {
                sourced.add(&[&cells[0], &cells[1], &cells[3], &cells[2]]);
            }
            rows.push(&cells)
        })?;
    }
    drop(groups);
    if let Some(mut n) = noise_row(noise, style) {
        plain.add(&n);
        n.push("-".to_string());
        if let Some(sourced) = &mut sourced {
            sourced.add(&[&n[0], &n[1], &n[3], &n[2]]);
        }
        rows.push(&n)?;
    }
    let widest = [plain.natural(0), plain.natural(1), plain.natural(2)];
    let sourced_fits = located && source_fits_in(widest, source, style.width);
    // A row as the table has it: the source third, or none.
    let arrange = |mut cells: Vec<String>| -> Vec<String> {
        let s = cells.pop().unwrap_or_default();
        if sourced_fits {
            cells.insert(2, s);
        }
        cells
    };
    let mut heading: Vec<String> = if sourced_fits { &with_source[..] } else { &heading[..] }.iter().map(|h| h.to_string()).collect();
    // 4. The widths fixed; each column drawn as wide as its widest line.
    let columns = match (sourced_fits, sourced) {
        (true, Some(sourced)) => sourced,
        _ => plain,
    };
    let fitted = style.width.map(|max| columns.widths(max));
    let wrapped = |cells: &mut Vec<String>| {
        if let Some(widths) = &fitted {
            columns.wrap_row(cells, widths);
        }
    };
    wrapped(&mut heading);
    let drawn: Vec<usize> = if fitted.is_some() {
        let mut drawn: Vec<usize> = heading.iter().map(|h| crate::render::layout::width(h)).collect();
        rows.each(|cells| {
            let mut cells = arrange(cells);
            wrapped(&mut cells);
            for (d, c) in drawn.iter_mut().zip(&cells) {
                *d = (*d).max(crate::render::layout::width(c));
            }
            Ok(())
        })?;
        drawn
    } else if sourced_fits {
        vec![widest[0], widest[1], source, widest[2]]
    } else {
        widest.to_vec()
    };
    let table = Rounded::new(drawn);
    writeln!(w, "{}", table.top())?;
    writeln!(w, "{}", table.row(&heading))?;
    writeln!(w, "{}", table.under_heading())?;
    rows.each(|cells| {
        let mut cells = arrange(cells);
        wrapped(&mut cells);
        writeln!(w, "{}", table.row(&cells))
    })?;
    writeln!(w, "{}", table.bottom())
}

/// A change that may be grouped, as a partition holds it: its place in the
/// table, module instance, resource block, action and key.
type Member = (u64, String, String, String, String);

/// What grouping makes of the changes of one partition (in the table's
/// order), by place: [`crate::query::collapse::Collapser`]'s groups (changes of one module instance,
/// resource block and action), each kept as its first place, size and first
/// keys, so that memory is a partition's groups, not their members.
fn grouped_in(part: Records<Member>) -> io::Result<Records<(u64, Made)>> {
    struct Group {
        first: u64,
        count: usize,
        keys: Vec<String>,
    }
    let mut groups: HashMap<(String, String, String), Group> = HashMap::new();
    part.each(|(at, module, block, action, key)| {
        let g = groups.entry((module, block, action)).or_insert(Group { first: at, count: 0, keys: Vec::new() });
        g.count += 1;
        if g.keys.len() < KEYS_SHOWN {
            g.keys.push(key);
        }
        Ok(())
    })?;
    let mut out = Records::with_block(16 << 10);
    part.each(|(at, module, block, action, _)| {
        let key = (module, block, action);
        let Some(g) = groups.get_mut(&key).filter(|g| g.count >= MIN_GROUP) else { return Ok(()) };
        let made = if at == g.first {
            Made::First { label: format!("{}[*]", key.1), count: g.count, keys: std::mem::take(&mut g.keys) }
        } else {
            Made::Left
        };
        out.push(&(at, made))
    })?;
    Ok(out)
}

/// The spools of [`grouped_in`] read together, by place.
struct Merged<'a> {
    readers: Vec<crate::spool::Iter<'a, (u64, Made)>>,
    /// The next record of each reader, smallest place first.
    next: BinaryHeap<std::cmp::Reverse<(u64, usize)>>,
    held: Vec<Option<Made>>,
}

impl<'a> Merged<'a> {
    fn new(spools: &'a [Records<(u64, Made)>]) -> io::Result<Merged<'a>> {
        let mut m = Merged { readers: Vec::new(), next: BinaryHeap::new(), held: Vec::new() };
        for s in spools {
            m.readers.push(s.iter(8 << 10)?);
            m.held.push(None);
            m.advance(m.readers.len() - 1)?;
        }
        Ok(m)
    }

    fn advance(&mut self, i: usize) -> io::Result<()> {
        if let Some((at, made)) = self.readers[i].next_record()? {
            self.held[i] = Some(made);
            self.next.push(std::cmp::Reverse((at, i)));
        }
        Ok(())
    }

    /// What grouping made of the change at `at` (places asked in order).
    fn at(&mut self, at: u64) -> io::Result<Option<Made>> {
        match self.next.peek() {
            Some(std::cmp::Reverse((next, i))) if *next == at => {
                let i = *i;
                self.next.pop();
                let made = self.held[i].take();
                self.advance(i)?;
                Ok(made)
            }
            _ => Ok(None),
        }
    }
}

/// Text written line by line, each line fitted to the style's width as
/// [`Style::fit_lines`] fits it (tables fit already): the whole report is
/// never held.
pub(super) struct Fitted<'a> {
    w: &'a mut dyn Write,
    style: &'a Style,
    line: Vec<u8>,
}

impl<'a> Fitted<'a> {
    pub(super) fn new(w: &'a mut dyn Write, style: &'a Style) -> Self {
        Fitted { w, style, line: Vec::new() }
    }

    fn emit(&mut self) -> io::Result<()> {
        let text = self.style.fit_lines(&String::from_utf8_lossy(&self.line));
        self.line.clear();
        self.w.write_all(text.as_bytes())
    }

    /// The last line written (without a line feed after it).
    pub(super) fn finish(mut self) -> io::Result<()> {
        if !self.line.is_empty() {
            self.emit()?;
        }
        self.w.flush()
    }
}

impl Write for Fitted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
            self.line.extend_from_slice(&rest[..=nl]);
            self.emit()?;
            rest = &rest[nl + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::summary::PlanAccumulator;

    /// A plan of alike and lone changes, interleaved, some imported, moved or
    /// located, with `n` instances per block; `mixed`: of several actions
    /// (else all creates, in display order as they come).
    fn plan(n: usize, mixed: bool) -> String {
        let mut rc = Vec::new();
        for i in 0..n {
            for (block, actions) in
                [("a", r#"["create"]"#), ("b", r#"["update"]"#), ("c", r#"["delete","create"]"#), ("d", r#"["create"]"#)]
            {
                let actions = if mixed { actions } else { r#"["create"]"# };
                let extra = match (block, i % 7) {
                    ("a", 3) => r#","importing":{"id":"i-1"}"#,
                    _ => "",
                };
                let prev = if block == "b" && i % 5 == 1 { r#","previous_address":"x.old""# } else { "" };
                rc.push(format!(
                    r#"{{"address":"module.m[{m}].t_{block}.r{k}[{i}]","module_address":"module.m[{m}]","mode":"managed","type":"t_{block}","name":"r{k}","index":{i}{prev},"change":{{"actions":{actions}{extra}}}}}"#,
                    m = i % 3,
                    k = i % 2
                ));
            }
            if i % 2 == 0 {
                let action = if mixed { "update" } else { "create" };
                rc.push(format!(
                    r#"{{"address":"x.lone{i}","mode":"managed","type":"x","name":"lone{i}","change":{{"actions":["{action}"]}}}}"#
                ));
            }
        }
        format!(r#"{{"format_version":"1.2","resource_changes":[{}]}}"#, rc.join(","))
    }

    fn summary(json: &str, spill_at: Option<usize>, locate: bool) -> PlanSummary {
        let p: crate::model::Plan = serde_json::from_str(json).unwrap();
        let mut acc = PlanAccumulator::default().spooling(spill_at);
        crate::model::visit::visit_plan(&p, &mut acc);
        let mut s = acc.finish(&p);
        if locate {
            s.resources.map_each(|e| {
                if e.address.contains("t_a") || e.address.contains("lone") {
                    e.location = Some(crate::model::Location { file: "main.tf".into(), line: e.address.len() as u32, end_line: 1 });
                }
            });
        }
        s
    }

    /// The spooled table is the in-memory table, byte for byte, at any
    /// width, with and without sources, colour and noise.
    #[test]
    fn the_spooled_table_is_the_table() {
        for (mixed, locate) in [(true, false), (true, true), (false, false), (false, true)] {
            let json = plan(40, mixed);
            let whole = summary(&json, None, locate);
            let spooled = summary(&json, Some(5), locate);
            assert!(!whole.resources.spilled() && spooled.resources.spilled());
            assert_eq!(spooled.resources.in_display_order(), !mixed);
            assert_eq!(whole.resources.len(), spooled.resources.len());
            let noise = NoiseCount { count: 3, ignore_attributes: vec!["tags".into()] };
            for (width, color, noise) in
                [(None, false, None), (Some(80), false, Some(&noise)), (Some(120), true, None), (Some(50), true, Some(&noise))]
            {
                let style = Style::new(color).with_width(width);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                resource_table(&mut a, &whole.resources, noise, &style).unwrap();
                spooled_table(&mut b, &spooled.resources, noise, &style).unwrap();
                let (a, b) = (String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap());
                assert!(a.contains("alike"), "{a}");
                assert_eq!(b, a, "width {width:?}, colour {color}, located {locate}, mixed {mixed}");
            }
            let (mut a, mut b) = (Vec::new(), Vec::new());
            write_json(&mut a, &whole).unwrap();
            write_json(&mut b, &spooled).unwrap();
            assert_eq!(String::from_utf8(b).unwrap(), String::from_utf8(a).unwrap(), "JSON, located {locate}");
        }
    }

    #[test]
    fn fitted_lines_are_fit_lines() {
        let style = Style::default().with_width(Some(20));
        let text =
            "a short line\nand a much longer line that has to be wrapped somewhere\n╭── a table border longer than twenty ──╮\nno end";
        let mut out = Vec::new();
        let mut f = Fitted::new(&mut out, &style);
        for piece in text.as_bytes().chunks(7) {
            f.write_all(piece).unwrap();
        }
        f.finish().unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), style.fit_lines(text));
    }
}
