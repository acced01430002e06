//! A list of changes a summary holds (`resources`, `drifted`), in memory or
//! spooled to a temporary file ([`crate::spool`]) past a limit, and the
//! display order of its action groups.

use super::summary::ResourceEntry;
use serde::Serialize;

/// Display order of the action groups (`summary`'s table and markdown).
pub(crate) const GROUPS: &[&str] = &["replace", "delete", "create", "update", "forget+create", "create+forget", "forget", "read", "no-op"];

/// The place of an action's group in [`GROUPS`] (unknown actions last).
pub(crate) fn group_rank(action: &str) -> usize {
    GROUPS.iter().position(|g| *g == action).unwrap_or(GROUPS.len())
}

/// A list of changes a summary holds (`resources`, `drifted`): in memory,
/// or, once it reaches the accumulator's limit ([`PlanAccumulator::spooling`],
/// `summary` as a table or JSON), spooled to a temporary file
/// ([`crate::spool::Records`]) so that memory does not grow with the plan.
///
/// It reads as a `Vec` of the entries in memory ([`std::ops::Deref`]), which
/// is the whole list unless [`Listed::spilled`]: only `summary`'s table and
/// JSON renderers and `comment` (its weigher and body), which read a spilled
/// list through [`Listed::each`] or [`Listed::cursor`], are given one. `len`
/// and `is_empty` count the whole list either way.
#[derive(Debug, Default)]
pub struct Listed {
    kept: Vec<ResourceEntry>,
    spooled: Option<crate::spool::Records<ResourceEntry>>,
    /// Spool from this many entries on (`None`: never).
    spill_at: Option<usize>,
    /// An entry imports (its id or identity is masked once every secret is known).
    pub(super) imports: bool,
    /// The rank of the last entry's action group ([`group_rank`]), and
    /// whether an entry came after one of a later group (the list is not in
    /// display order).
    last_rank: usize,
    out_of_order: bool,
    /// Why the spool failed: the list is not whole.
    failed: Option<String>,
}

impl std::ops::Deref for Listed {
    type Target = Vec<ResourceEntry>;
    fn deref(&self) -> &Vec<ResourceEntry> {
        &self.kept
    }
}

impl<'a> IntoIterator for &'a Listed {
    type Item = &'a ResourceEntry;
    type IntoIter = std::slice::Iter<'a, ResourceEntry>;
    fn into_iter(self) -> Self::IntoIter {
        self.kept.iter()
    }
}

impl Listed {
    /// An empty list spooled from `spill_at` entries on (`None`: never).
    pub(crate) fn spilling_at(spill_at: Option<usize>) -> Self {
        Listed { spill_at, ..Listed::default() }
    }

    /// How many entries, in memory or spooled.
    pub fn len(&self) -> usize {
        self.spooled.as_ref().map_or(self.kept.len(), |s| s.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when the list is spooled: read it with [`Listed::each`].
    pub(crate) fn spilled(&self) -> bool {
        self.spooled.is_some()
    }

    /// Why the spool failed, if it did (the list is then not whole).
    pub(crate) fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// True when the entries come grouped by action in display order
    /// ([`GROUPS`]): the table needs not sort them.
    pub(crate) fn in_display_order(&self) -> bool {
        !self.out_of_order
    }

    /// Append `e`.
    pub(crate) fn push(&mut self, e: ResourceEntry) {
        self.imports |= e.importing;
        let rank = group_rank(&e.action);
        self.out_of_order |= rank < self.last_rank;
        self.last_rank = rank;
        if let Some(s) = &mut self.spooled {
            if let Err(err) = s.push(&e) {
                self.failed.get_or_insert_with(|| format!("cannot spool the list of changes to a temporary file: {err}"));
            }
            return;
        }
        self.kept.push(e);
        if self.spill_at.is_some_and(|at| self.kept.len() >= at) {
            let mut s = crate::spool::Records::default();
            let spooled = self.kept.drain(..).try_for_each(|e| s.push(&e));
            if let Err(err) = spooled {
                self.failed.get_or_insert_with(|| format!("cannot spool the list of changes to a temporary file: {err}"));
            }
            self.kept = Vec::new();
            self.spooled = Some(s);
        }
    }

    /// Each entry in order, given to `f`.
    pub(crate) fn each(&self, mut f: impl FnMut(&ResourceEntry) -> std::io::Result<()>) -> std::io::Result<()> {
        match &self.spooled {
            Some(s) => s.each(|e| f(&e)),
            None => self.kept.iter().try_for_each(f),
        }
    }

    /// A reader of the entries in order, one at a time ([`Cursor`]): a
    /// spooled list is read back as it goes (one reader of it at a time).
    pub(crate) fn cursor(&self) -> std::io::Result<Cursor<'_>> {
        Ok(match &self.spooled {
            Some(s) => Cursor::Spooled(s.iter(64 << 10)?),
            None => Cursor::Kept(self.kept.iter()),
        })
    }

    /// Each entry changed by `f` (a spooled list is written again).
    pub(crate) fn map_each(&mut self, mut f: impl FnMut(&mut ResourceEntry)) {
        let Some(old) = self.spooled.take() else {
            self.kept.iter_mut().for_each(f);
            return;
        };
        let mut new = crate::spool::Records::default();
        let done = old.each(|mut e| {
            f(&mut e);
            new.push(&e)
        });
        if let Err(err) = done {
            self.failed.get_or_insert_with(|| format!("cannot spool the list of changes to a temporary file: {err}"));
        }
        self.spooled = Some(new);
    }
}

/// The entries of a [`Listed`] in order, one at a time ([`Listed::cursor`]).
pub(crate) enum Cursor<'a> {
    Kept(std::slice::Iter<'a, ResourceEntry>),
    Spooled(crate::spool::Iter<'a, ResourceEntry>),
}

impl<'a> Cursor<'a> {
    /// The next entry, or `None` after the last.
    pub(crate) fn next_entry(&mut self) -> std::io::Result<Option<std::borrow::Cow<'a, ResourceEntry>>> {
        match self {
            Cursor::Kept(it) => Ok(it.next().map(std::borrow::Cow::Borrowed)),
            Cursor::Spooled(it) => Ok(it.next_record()?.map(std::borrow::Cow::Owned)),
        }
    }
}

impl Serialize for Listed {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let Some(s) = &self.spooled else { return self.kept.serialize(ser) };
        crate::spool::serialize_each(ser, s.len(), |push| s.each(|e| push(&e)))
    }
}
