//! `moves` over a streamed plan with memory that does not grow with the
//! plan's lone objects: [`Candidates`] notes each candidate as it passes (its
//! type and provider's group, delete or create, and its canonical address,
//! spooled; its text spooled apart), and [`Candidates::finish`] answers as
//! [`super::moves::find_moves`] does, byte for byte. Only the groups that
//! have both deletes and creates are read back and matched in memory; the
//! objects of a group with one side only are unmatched whatever their
//! values, and go from the spool to the report's spooled list, group by
//! group in the order the groups first appear.

use super::moves::{canonical, could_pair, match_group, not_canonical, one_sided, Obj};
use super::moves::{MovesOptions, MovesReport, UnmatchedList, UNMATCHED_IN_MEMORY};
use crate::model::{ChangeKind, ResourceChange};
use crate::spool::{Blobs, Records};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Objects of one-sided groups held at once while they are put in group
/// order (one more read of the spool per this many; a group bigger than
/// this is copied straight from the spool, in its own order).
pub(crate) const GROUP_BATCH: usize = 65_536;

/// Bytes of two-sided groups' texts read back at once (a bigger group is
/// read back alone, whole: its objects are compared with each other).
const TEXT_BATCH: usize = 8 << 20;

/// One type and provider, as first seen.
#[derive(Debug)]
struct Group {
    type_: String,
    provider: Option<String>,
    deletes: usize,
    creates: usize,
    /// The bytes of its objects' texts.
    bytes: usize,
}

impl Group {
    /// Both deletes and creates: its objects are matched.
    fn two_sided(&self) -> bool {
        self.deletes > 0 && self.creates > 0
    }
}

/// One candidate, as spooled.
#[derive(Serialize, Deserialize)]
struct Cand {
    group: u32,
    delete: bool,
    address: String,
}

/// The candidates of a plan as it streams by (a [`crate::model::visit::PlanVisitor`]).
#[derive(Debug)]
pub(crate) struct Candidates {
    groups: Vec<Group>,
    /// Groups by type, then each with its provider.
    by_type: HashMap<String, Vec<u32>>,
    /// The candidates with a canonical address, in document order, and each one's text.
    cands: Records<Cand>,
    texts: Blobs,
    /// Those whose address cannot go in a `moved` block: unmatched first, in document order.
    unmatched: UnmatchedList,
    /// One-sided groups' objects held at once ([`GROUP_BATCH`]), and
    /// two-sided groups' text bytes read back at once ([`TEXT_BATCH`]).
    batch: usize,
    text_batch: usize,
    failed: Option<String>,
}

impl Default for Candidates {
    fn default() -> Self {
        Candidates::spilling(UNMATCHED_IN_MEMORY, GROUP_BATCH, TEXT_BATCH)
    }
}

impl Candidates {
    /// The report's unmatched objects spooled from `spill_at` on, and
    /// one-sided groups' objects put in order `batch` at a time, and
    /// two-sided groups' texts read back `text_batch` bytes at a time.
    pub(crate) fn spilling(spill_at: usize, batch: usize, text_batch: usize) -> Self {
        Candidates {
            groups: Vec::new(),
            by_type: HashMap::new(),
            cands: Records::default(),
            texts: Blobs::default(),
            unmatched: UnmatchedList::spilling(spill_at),
            batch,
            text_batch,
            failed: None,
        }
    }

    fn group_of(&mut self, rc: &ResourceChange<'_>) -> u32 {
        let provider = rc.provider_name.as_deref();
        if let Some(ids) = self.by_type.get(&rc.type_) {
            if let Some(&g) = ids.iter().find(|&&g| self.groups[g as usize].provider.as_deref() == provider) {
                return g;
            }
        }
        let g = self.groups.len() as u32;
        self.groups.push(Group { type_: rc.type_.clone(), provider: rc.provider_name.clone(), deletes: 0, creates: 0, bytes: 0 });
        self.by_type.entry(rc.type_.clone()).or_default().push(g);
        g
    }

    fn spool_failed(&mut self, err: std::io::Error) {
        self.failed.get_or_insert_with(|| format!("cannot spool the candidates to a temporary file: {err}"));
    }

    /// The report, as [`super::moves::find_moves`] gives it for the same plan.
    pub(crate) fn finish(self, opts: &MovesOptions) -> Result<MovesReport, String> {
        let ignore: Vec<Vec<String>> = opts.ignore.iter().map(|p| p.split('.').map(str::to_string).collect()).collect();
        if let Some(why) = &self.failed {
            return Err(why.clone());
        }
        let Candidates { groups, cands, texts, unmatched: early, batch, text_batch, .. } = self;
        let mut report = MovesReport { kind: "moves", ignored: opts.ignore.clone(), unmatched: early, ..Default::default() };
        let io = |e: std::io::Error| format!("cannot read the spooled candidates back: {e}");

        if texts.len() != cands.len() {
            return Err(io(std::io::Error::other("fewer texts than candidates")));
        }
        // The texts of the two-sided groups' objects, read back a few groups
        // at a time (up to `TEXT_BATCH` bytes, or one group), in group order.
        let mut loaded: Vec<Option<Vec<(Cand, String)>>> = groups.iter().map(|_| None).collect();
        let load = |from: usize, loaded: &mut Vec<Option<Vec<(Cand, String)>>>| -> Result<(), String> {
            let mut bytes = 0usize;
            let mut wanted = vec![false; groups.len()];
            for (g, group) in groups.iter().enumerate().skip(from).filter(|(_, gr)| gr.two_sided()) {
                if bytes > 0 && bytes.saturating_add(group.bytes) > text_batch {
                    break;
                }
                bytes = bytes.saturating_add(group.bytes);
                wanted[g] = true;
                loaded[g] = Some(Vec::new());
            }
            let mut it = cands.iter(64 << 10).map_err(io)?;
            let mut blobs = texts.iter().map_err(io)?;
            let mut text = Vec::new();
            while let Some(c) = it.next_record().map_err(io)? {
                let at = c.group as usize;
                if !wanted[at] {
                    if !blobs.skip().map_err(io)? {
                        return Err(io(std::io::Error::other("fewer texts than candidates")));
                    }
                    continue;
                }
                if !blobs.next_into(&mut text).map_err(io)? {
                    return Err(io(std::io::Error::other("fewer texts than candidates")));
                }
                let t = String::from_utf8(std::mem::take(&mut text)).map_err(|e| io(std::io::Error::other(e)))?;
                if let Some(list) = &mut loaded[at] {
                    list.push((c, t));
                }
            }
            Ok(())
        };

        let mut g = 0;
        while g < groups.len() {
            if groups[g].two_sided() {
                if loaded[g].is_none() {
                    load(g, &mut loaded)?;
                }
                let kept = loaded[g].take().unwrap_or_default();
                let rcs: Vec<ResourceChange<'_>> =
                    kept.iter().map(|(_, t)| serde_json::from_str(t).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
                let (mut deletes, mut creates) = (Vec::new(), Vec::new());
                for ((c, _), rc) in kept.iter().zip(&rcs) {
                    let obj = Obj { rc, addr: c.address.clone(), action: if c.delete { "delete" } else { "create" } };
                    if c.delete {
                        deletes.push(obj);
                    } else {
                        creates.push(obj);
                    }
                }
                match_group(&deletes, &creates, &ignore, &mut report);
                g += 1;
                continue;
            }
            // A run of one-sided groups, their objects sorted into them by one read of the spool.
            let mut end = g + 1;
            let mut held = groups[g].deletes + groups[g].creates;
            while end < groups.len() && !groups[end].two_sided() && held + groups[end].deletes + groups[end].creates <= batch {
                held += groups[end].deletes + groups[end].creates;
                end += 1;
            }
            let mut runs: Vec<Vec<Cand>> = (g..end).map(|_| Vec::new()).collect();
            let mut it = cands.iter(64 << 10).map_err(io)?;
            while let Some(c) = it.next_record().map_err(io)? {
                let at = c.group as usize;
                if (g..end).contains(&at) {
                    if end - g == 1 {
                        // One group alone (perhaps bigger than a batch): straight through.
                        report.unmatched.push(lone(&groups[at], c));
                    } else {
                        runs[at - g].push(c);
                    }
                }
            }
            for (k, run) in runs.into_iter().enumerate() {
                for c in run {
                    report.unmatched.push(lone(&groups[g + k], c));
                }
            }
            g = end;
        }
        if let Some(why) = report.unmatched.failed() {
            return Err(why.to_string());
        }
        Ok(report)
    }
}

/// A candidate of a one-sided group: unmatched.
fn lone(group: &Group, c: Cand) -> super::moves::Unmatched {
    super::moves::Unmatched {
        address: c.address,
        action: if c.delete { "delete" } else { "create" },
        type_: group.type_.clone(),
        reason: one_sided(group.deletes == 0).to_string(),
        closest: None,
        differs: Vec::new(),
        differ_count: 0,
    }
}

impl crate::model::visit::PlanVisitor for Candidates {
    fn on_element(&mut self, drift: bool, rc: &ResourceChange<'_>, text: &str) {
        if drift || !could_pair(rc) || self.failed.is_some() {
            return;
        }
        let delete = rc.kind() == ChangeKind::Delete;
        let action = if delete { "delete" } else { "create" };
        let address = match canonical(rc) {
            Ok(a) => a,
            Err(why) => {
                self.unmatched.push(not_canonical(rc, action, &why));
                return;
            }
        };
        let group = self.group_of(rc);
        let gr = &mut self.groups[group as usize];
        if delete {
            gr.deletes += 1;
        } else {
            gr.creates += 1;
        }
        gr.bytes = gr.bytes.saturating_add(text.len());
        if let Err(e) = self.cands.push(&Cand { group, delete, address }).and_then(|()| self.texts.push(text.as_bytes())) {
            self.spool_failed(e);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `moves` of `json` streamed with [`Candidates`], the unmatched objects
    /// spooled from `spill_at` on, one-sided groups ordered `batch` objects at
    /// a time and two-sided groups' texts read back `100 * batch` bytes at a time.
    pub(crate) fn streamed(json: &str, opts: &MovesOptions, spill_at: usize, batch: usize) -> Result<MovesReport, String> {
        let mut c = Candidates::spilling(spill_at, batch, batch * 100);
        let src = std::io::Cursor::new(json.as_bytes().to_vec());
        crate::read::stream("t", src, crate::read::ReadAhead::Joined, &crate::read::ReadOptions::default(), &mut c)
            .map_err(|e| e.message)?;
        c.finish(opts)
    }

    fn change(address: &str, type_: &str, provider: &str, delete: bool, v: u32) -> String {
        let name = address.rsplit('.').next().unwrap().split('[').next().unwrap();
        let (actions, before, after) =
            if delete { ("delete", format!("{{\"v\":{v}}}"), "null".into()) } else { ("create", "null".into(), format!("{{\"v\":{v}}}")) };
        format!(
            r#"{{"address":{},"mode":"managed","type":"{type_}","name":"{name}","provider_name":"{provider}","change":{{"actions":["{actions}"],"before":{before},"after":{after},"after_unknown":{{}}}}}}"#,
            serde_json::to_string(address).unwrap()
        )
    }

    /// Many groups, one-sided and two-sided, interleaved in the plan, and
    /// addresses that cannot go in a `moved` block among them: the streamed
    /// report (spooled or not, groups put in order a few objects at a time
    /// or all at once) is the whole read's, in every format.
    #[test]
    fn the_streamed_report_is_the_whole_reads_with_groups_interleaved() {
        let mut seed = 11u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut changes = Vec::new();
        for i in 0..600u32 {
            let t = next(9);
            let type_ = format!("x_t{t}");
            let provider = if next(5) == 0 { "registry.opentofu.org/x/x" } else { "registry.terraform.io/x/x" };
            // Types 0-2 only created, 3 only deleted, the rest both; values collide now and then.
            let delete = match t {
                0..=2 => false,
                3 => true,
                _ => next(2) == 0,
            };
            let address = match next(40) {
                0 => format!("{type_}.n{i}[\"bad\u{1b}\"]"),
                1 => format!("x_other.n{i}"),
                _ => format!("{type_}.n{i}"),
            };
            changes.push(change(&address, &type_, provider, delete, (next(30)) as u32));
        }
        let json = format!(r#"{{"format_version":"1.2","terraform_version":"1.9.0","resource_changes":[{}]}}"#, changes.join(","));
        let opts = MovesOptions::default();
        let whole = super::super::moves::find_moves(&crate::read::parse("t", json.as_bytes()).unwrap(), &opts).unwrap();
        assert!(
            whole.pairs.len() > 3 && whole.ambiguous.len() > 3 && whole.unmatched.len() > 100,
            "{:?}",
            (whole.pairs.len(), whole.ambiguous.len(), whole.unmatched.len())
        );
        let render = |r: &MovesReport| -> Vec<Vec<u8>> {
            use crate::render::moves::MovesFormat as F;
            [F::TfJson, F::Hcl, F::Commands, F::Json]
                .into_iter()
                .map(|f| {
                    let mut out = Vec::new();
                    crate::render::moves::write(&mut out, r, f).unwrap();
                    out
                })
                .collect()
        };
        let want = render(&whole);
        for (spill_at, batch) in [(1, 1), (7, 13), (100, 200), (UNMATCHED_IN_MEMORY, GROUP_BATCH)] {
            let got = streamed(&json, &opts, spill_at, batch).unwrap();
            assert_eq!(got.unmatched.len(), whole.unmatched.len());
            for (g, w) in render(&got).iter().zip(&want) {
                assert_eq!(String::from_utf8_lossy(g), String::from_utf8_lossy(w), "spill at {spill_at}, batch {batch}");
            }
        }
    }
}
