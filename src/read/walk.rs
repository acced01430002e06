//! Streaming a plan from a pipe in bounded memory.
//!
//! A whole-document read holds the input (and the model) in memory: fine for a
//! file, but a pipe of several GB should not need several GB. [`stream`] reads the
//! input in chunks, validates their UTF-8 once, and hands every element of
//! `resource_changes` and `resource_drift` to a [`PlanVisitor`] as the same
//! borrowed [`ResourceChange`] a whole-document read produces, then drops it.
//! The resources of `planned_values` and `prior_state` go, one at a time, to
//! [`PlanVisitor::on_values_resource`] (their secrets are collected there);
//! their outputs stay in the skeleton; a resource whose `sensitive_values`
//! mark nothing is skipped over the structural index ([`crate::index::skip`])
//! unless a visitor needs every one. The parts no query needs
//! (`proposed_unknown`, unknown keys) are checked and skipped over the index.
//! Everything else (version, outputs, checks, flags, and a state's `values`,
//! `configuration`) is kept in a small *skeleton* document, which the caller
//! parses with [`crate::read::parse`] so detection, the version gate and every
//! error message stay the same as for files. Which key is which is the one
//! table of top-level keys, [`crate::model::document::KEYS`].
//!
//! Where the index refuses a value (not JSON, or not sure), serde_json reads
//! it, so every message is serde_json's. Each element is parsed by serde_json from the in-memory chunk (`from_str`, as
//! fast as a whole-file parse); when it does not fit yet, more input is read
//! (as much again as is buffered, so that an element spanning many pieces is
//! parsed a few times, not once per piece) and the element is parsed again.
//! Memory is bounded by about twice the largest single element plus
//! [`SKIP_WINDOW`], whatever the input size.

use super::window::Reader;
use super::{after_document, too_deep, too_long_trailer, ReadOptions, MAX_TRAILER, SKIP_WINDOW};
use crate::error::InputError;
use crate::index::Skip;
use crate::model::document::Streamed;
use crate::model::visit::{PlanVisitor, Prior};
use crate::model::{CheckObject, ResourceChange, ResourceValue};
use resource::{resource_spans, Spans};
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

pub(super) fn parse_document(mut r: Reader<'_>, opts: &ReadOptions, visitor: &mut dyn PlanVisitor) -> Result<String, InputError> {
    r.start(opts)?;
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut skel = String::from("{");
    r.skip_ws()?;
    r.expect(b'{', "expected `{`")?;
    let mut first = true;
    while r.next_item(&mut first, b'}', "expected `,` or `}` after an object member", "EOF while parsing an object")? {
        let key: String = r.parse_small::<String>()?;
        if !seen.insert(key.clone()) {
            return Err(duplicate_key(&r, &key));
        }
        r.skip_ws()?;
        r.expect(b':', "expected `:`")?;
        r.skip_ws()?;
        if seen.len() > 1 {
            skel.push(',');
        }
        skel.push_str(&serde_json::to_string(&key).unwrap_or_default());
        skel.push(':');
        match crate::model::document::streamed(&key) {
            Streamed::Elements => {
                let drift = key == "resource_drift";
                r.stream_array(|rc, text| {
                    if drift {
                        visitor.on_drift(rc)
                    } else {
                        visitor.on_resource_change(rc)
                    }
                    visitor.on_element(drift, rc, text);
                })?;
                skel.push_str("null");
            }
            Streamed::Values { .. } if !visitor.reads_values() => {
                r.skip_value(0)?;
                skel.push_str("null");
            }
            Streamed::Values { inner } => skel.push_str(&r.walk_values_holder(inner, visitor)?),
            Streamed::Kept => r.keep_indexed(&mut skel)?,
            Streamed::Skipped => {
                r.skip_value(0)?;
                skel.push_str("null");
            }
        }
    }
    skel.push('}');
    // Only blanks may follow (or, lenient, a trailer that is not a document),
    // and not endlessly: the same limits as a whole read.
    let end = r.dropped + r.pos;
    if !r.skip_ws_upto(end + MAX_TRAILER)? {
        return Err(too_long_trailer(r.name));
    }
    if let Some(next) = r.peek()? {
        let (l, c) = r.location(r.pos);
        if ["@level", "@message", "type"].iter().all(|k| seen.contains(*k)) {
            return Err(crate::read::wrong::log_stream(r.name));
        }
        if opts.lenient && !matches!(next, b'{' | b'[') {
            r.check_trailer(end)?;
        }
        after_document(r.name, next, l, c, opts)?;
    }
    Ok(skel)
}

/// A key repeated at the top level: which value is meant cannot be known (the
/// same error as a whole-file read, [`crate::model::RawDocument`]).
fn duplicate_key(r: &Reader<'_>, key: &str) -> InputError {
    // On the key's closing quote, where serde_json puts it.
    let (l, c) = r.location(r.pos.saturating_sub(1));
    let key = crate::sanitize::line(key);
    InputError::new(r.name, format!("invalid JSON: duplicate key `{key}` at the top level of the document")).at(l, c)
}

impl Reader<'_> {
    /// Check and skip one value, walking into containers too big for the window.
    fn skip_value(&mut self, depth: usize) -> Result<(), InputError> {
        if depth > crate::scan::MAX_DEPTH {
            // A guard for the recursion: the read-ahead scan stops deeper input first.
            let (l, c) = self.location(self.pos);
            return Err(too_deep(self.name, l, c));
        }
        let container = matches!(self.peek()?, Some(b'{' | b'['));
        match self.skip_indexed(if container { SKIP_WINDOW } else { usize::MAX })? {
            Indexed::Done => return Ok(()),
            // serde_json says what is wrong, and where (or reads what the index left to it).
            Indexed::Refused => {
                if self.with_value::<IgnoredAny, _>(|_| {}, if container { SKIP_WINDOW } else { usize::MAX })? {
                    return Ok(());
                }
            }
            Indexed::TooBig => {}
        }
        // Too big: walk its members.
        if self.peek()? == Some(b'{') {
            self.members(|r, _| r.skip_value(depth + 1))
        } else {
            self.elements(|r| r.skip_value(depth + 1))
        }
    }

    /// Skip the value at `pos` over the structural index ([`crate::index::skip`]),
    /// reading more while it is incomplete and fewer than `limit` bytes are buffered.
    fn skip_indexed(&mut self, limit: usize) -> Result<Indexed, InputError> {
        self.indexed(limit, crate::index::skip)
    }

    /// `f` (a skip over the index) on the text from `pos`, refilled while it
    /// says the text is incomplete: doubling what is buffered each time, as
    /// [`Reader::with_value`] does, up to `limit` bytes.
    fn indexed(&mut self, limit: usize, f: impl Fn(&[u8]) -> Skip) -> Result<Indexed, InputError> {
        loop {
            let text = &self.buf.as_bytes()[self.pos..];
            let tried = text.len();
            match f(text) {
                Skip::End(n) => {
                    self.pos += n;
                    return Ok(Indexed::Done);
                }
                Skip::Refused => return Ok(Indexed::Refused),
                // At the end of the input serde_json says what is missing.
                Skip::Incomplete if self.eof => return Ok(Indexed::Refused),
                Skip::Incomplete if tried >= limit => return Ok(Indexed::TooBig),
                Skip::Incomplete => self.fill_more(tried, limit)?,
            }
        }
    }

    /// A kept value checked over the index and copied once from the window
    /// (serde_json's checks and messages where the index refuses it).
    fn keep_indexed(&mut self, out: &mut String) -> Result<(), InputError> {
        let from = self.dropped + self.pos;
        if self.skip_indexed(usize::MAX)? == Indexed::Done {
            out.push_str(&self.buf[from - self.dropped..self.pos]);
            return Ok(());
        }
        self.keep_value(out)
    }

    /// A resource of a values representation read over the index without
    /// serde, for a visitor that needs only its secrets: one that marks
    /// nothing sensitive is skipped, one that marks something has its
    /// `values` and `sensitive_values` (their text) passed to
    /// [`PlanVisitor::on_values_marked`]: `Ok(true)`. `Ok(false)` (nothing
    /// consumed) for anything else, which the caller parses.
    fn indexed_resource(&mut self, visitor: &mut dyn PlanVisitor) -> Result<bool, InputError> {
        let from = self.dropped + self.pos;
        let found = std::cell::Cell::new(None);
        let done = self.indexed(usize::MAX, |t| {
            let (skip, spans) = resource_spans(t);
            found.set(spans);
            skip
        })? == Indexed::Done;
        if !done {
            return Ok(false);
        }
        if let Some(Spans { values, marks }) = found.get() {
            let at = from - self.dropped;
            let text = |(a, b): (usize, usize)| &self.buf[at + a..at + b];
            let values = values.map(text).filter(|v| *v != "null");
            visitor.on_values_marked(values, text(marks));
        }
        Ok(true)
    }

    /// Walk the object at `pos`: for each member, `f` is called with the key,
    /// positioned on its value, and must consume the value.
    fn members(&mut self, mut f: impl FnMut(&mut Self, String) -> Result<(), InputError>) -> Result<(), InputError> {
        self.expect(b'{', "expected `{`")?;
        let mut first = true;
        while self.next_item(&mut first, b'}', "expected `,` or `}`", "EOF while parsing an object")? {
            let key = self.parse_small::<String>()?;
            self.skip_ws()?;
            self.expect(b':', "expected `:`")?;
            self.skip_ws()?;
            f(self, key)?;
        }
        Ok(())
    }

    /// Walk the array at `pos`: `f` is called on each element and must consume it.
    fn elements(&mut self, mut f: impl FnMut(&mut Self) -> Result<(), InputError>) -> Result<(), InputError> {
        self.expect(b'[', "expected `[`")?;
        let mut first = true;
        while self.next_item(&mut first, b']', "expected `,` or `]`", "EOF while parsing a list")? {
            f(self)?;
        }
        Ok(())
    }

    /// Step to a container's next item: `Ok(false)` once its `close` is passed,
    /// `Ok(true)` on an item (past the `,` before it, but for the first).
    fn next_item(&mut self, first: &mut bool, close: u8, unexpected: &str, eof: &str) -> Result<bool, InputError> {
        self.skip_ws()?;
        match self.peek()? {
            Some(b) if b == close => {
                self.pos += 1;
                return Ok(false);
            }
            Some(b',') if !*first => {
                self.pos += 1;
                self.skip_ws()?;
            }
            Some(_) if *first => {}
            Some(_) => return Err(self.syntax(unexpected)),
            None => return Err(self.eof(eof)),
        }
        *first = false;
        Ok(true)
    }

    /// `planned_values` or `prior_state`: resources to the visitor, and the
    /// skeleton's text for the key (`{"outputs":…}`, or `{"values":{"outputs":…}}`;
    /// `null` for a value that is no object, which a whole read could not use either).
    fn walk_values_holder(&mut self, inner: Option<&'static str>, visitor: &mut dyn PlanVisitor) -> Result<String, InputError> {
        let prior = inner.is_some();
        if self.peek()? != Some(b'{') {
            if prior && self.peek()? != Some(b'n') {
                // `null` is no prior state; anything else but an object cannot be one.
                self.refuse_unless::<crate::model::State<'_>>(visitor)?;
                return Ok("null".into());
            }
            self.skip_value(0)?;
            return Ok("null".into());
        }
        let Some(inner) = inner else { return self.walk_values(visitor, false) };
        let mut kept = None;
        let mut fields = Fields::new(&["format_version", "terraform_version", "values", "checks"]);
        self.members(|r, key| {
            fields.check(&key, visitor);
            if key == inner && r.peek()? == Some(b'{') {
                kept = Some(r.walk_values(visitor, true)?);
                Ok(())
            } else {
                match key.as_str() {
                    "format_version" | "terraform_version" => r.refuse_unless::<Option<String>>(visitor),
                    "values" => r.refuse_unless::<Option<crate::model::Values<'_>>>(visitor),
                    "checks" => r.refuse_unless::<Option<Vec<CheckObject>>>(visitor),
                    _ => r.skip_value(1),
                }
            }
        })?;
        Ok(match kept {
            Some(values) => format!("{{{}:{values}}}", serde_json::to_string(inner).unwrap_or_default()),
            None => "{}".into(),
        })
    }

    /// Read the value at `pos` as a `T` would be read by a whole read of
    /// `prior_state`; if it would not be, say why ([`Prior::Refused`]).
    fn refuse_unless<T>(&mut self, visitor: &mut dyn PlanVisitor) -> Result<(), InputError>
    where
        T: ReadAs,
    {
        let raw = self.parse_small::<Box<RawValue>>()?;
        if let Err(e) = T::read(raw.get()) {
            visitor.on_prior(Prior::Refused(crate::read::serde_message(&e)));
        }
        Ok(())
    }

    /// A values representation (an object): `root_module` walked, `outputs` kept.
    fn walk_values(&mut self, visitor: &mut dyn PlanVisitor, prior: bool) -> Result<String, InputError> {
        let mut outputs = None;
        let mut fields = Fields::new(&["outputs", "root_module"]);
        self.members(|r, key| {
            if prior {
                fields.check(&key, visitor);
            }
            match key.as_str() {
                "outputs" => {
                    let raw = r.parse_small::<Box<RawValue>>()?;
                    if prior {
                        if let Err(e) = serde_json::from_str::<std::collections::BTreeMap<String, crate::model::OutputValue<'_>>>(raw.get())
                        {
                            visitor.on_prior(Prior::Refused(crate::read::serde_message(&e)));
                        }
                    }
                    outputs = Some(raw);
                    Ok(())
                }
                "root_module" => r.walk_module(visitor, 2, prior),
                _ => r.skip_value(2),
            }
        })?;
        Ok(match outputs {
            Some(o) => format!("{{\"outputs\":{}}}", o.get()),
            None => "{}".into(),
        })
    }

    /// A module of a values representation: each resource parsed and passed on
    /// (one at a time; an element that is no resource is skipped, as a whole
    /// read skips what it cannot read there), child modules walked likewise.
    /// In `prior_state` (`prior`), the module tree is told to [`PlanVisitor::on_prior`].
    fn walk_module(&mut self, visitor: &mut dyn PlanVisitor, depth: usize, prior: bool) -> Result<(), InputError> {
        if depth > crate::scan::MAX_DEPTH {
            let (l, c) = self.location(self.pos);
            return Err(too_deep(self.name, l, c));
        }
        if self.peek()? != Some(b'{') {
            if prior {
                return self.refuse_unless::<crate::model::Module<'_>>(visitor);
            }
            return self.skip_value(depth);
        }
        if prior {
            visitor.on_prior(Prior::Module);
        }
        let mut address: Option<String> = None;
        let mut fields = Fields::new(&["address", "resources", "child_modules"]);
        self.members(|r, key| {
            if prior {
                fields.check(&key, visitor);
            }
            match key.as_str() {
                "resources" if r.peek()? == Some(b'[') => r.elements(|r| {
                    if !visitor.needs_every_values_resource() && r.indexed_resource(visitor)? {
                        return Ok(());
                    }
                    if r.values_resource(visitor, prior)? {
                        return Ok(());
                    }
                    // Not read as a resource: checked as JSON, and skipped if it is none.
                    let raw = r.parse_small::<Box<RawValue>>()?;
                    match serde_json::from_str::<ResourceValue<'_>>(raw.get()) {
                        Ok(rv) => {
                            visitor.on_values_resource(&rv);
                            if prior {
                                visitor.on_prior(Prior::Resource(&rv));
                            }
                        }
                        Err(e) if prior => visitor.on_prior(Prior::Refused(crate::read::serde_message(&e))),
                        Err(_) => {}
                    }
                    Ok(())
                }),
                "child_modules" if r.peek()? == Some(b'[') => r.elements(|r| r.walk_module(visitor, depth + 2, prior)),
                "address" if prior => {
                    let raw = r.parse_small::<Box<RawValue>>()?;
                    match serde_json::from_str::<Option<String>>(raw.get()) {
                        Ok(a) => address = a,
                        Err(e) => visitor.on_prior(Prior::Refused(crate::read::serde_message(&e))),
                    }
                    Ok(())
                }
                "resources" | "child_modules" if prior => r.refuse_unless::<Vec<IgnoredAny>>(visitor),
                _ => r.skip_value(depth + 1),
            }
        })?;
        if prior {
            visitor.on_prior(Prior::EndModule(address.as_deref()));
        }
        Ok(())
    }

    /// The resource at `pos` parsed in place (one pass over its text) and
    /// passed to the visitor: `Ok(true)`. `Ok(false)` (nothing consumed) when
    /// it does not read as a resource: the caller checks and skips it.
    fn values_resource(&mut self, visitor: &mut dyn PlanVisitor, prior: bool) -> Result<bool, InputError> {
        loop {
            let done = {
                let text = &self.buf[self.pos..];
                let mut it = serde_json::Deserializer::from_str(text).into_iter::<ResourceValue<'_>>();
                match it.next() {
                    Some(Ok(rv)) if it.byte_offset() < text.len() || self.eof => {
                        visitor.on_values_resource(&rv);
                        if prior {
                            visitor.on_prior(Prior::Resource(&rv));
                        }
                        Some(it.byte_offset())
                    }
                    Some(Err(e)) if !e.is_eof() || self.eof => return Ok(false),
                    None => return Ok(false),
                    _ => None,
                }
            };
            #[cfg(test)]
            super::window::tally::parsed(done.unwrap_or(self.buf.len() - self.pos));
            if let Some(n) = done {
                self.pos += n;
                return Ok(true);
            }
            self.fill_more(self.buf.len() - self.pos, usize::MAX)?;
        }
    }

    /// `null` or an array of resource changes, each passed to `f` and dropped.
    fn stream_array(&mut self, mut f: impl FnMut(&ResourceChange<'_>, &str)) -> Result<(), InputError> {
        match self.peek()? {
            Some(b'n') => return self.skip_value(0),
            Some(b'[') => self.pos += 1,
            Some(_) => return Err(self.syntax("expected an array of resource changes")),
            None => return Err(self.eof("EOF while parsing a value")),
        }
        let mut first = true;
        while self.next_item(&mut first, b']', "expected `,` or `]`", "EOF while parsing a list")? {
            let mut last_err = None;
            loop {
                let outcome = {
                    let text = &self.buf[self.pos..];
                    let mut it = serde_json::Deserializer::from_str(text).into_iter::<ResourceChange<'_>>();
                    match it.next() {
                        Some(Ok(rc)) if it.byte_offset() < text.len() || self.eof => {
                            f(&rc, &text[..it.byte_offset()]);
                            Ok(Some(it.byte_offset()))
                        }
                        Some(Err(e)) => Err(e),
                        None if self.eof => return Err(self.eof("EOF while parsing a list")),
                        _ => Ok(None),
                    }
                };
                #[cfg(test)]
                super::window::tally::parsed(match &outcome {
                    Ok(Some(n)) => *n,
                    _ => self.buf.len() - self.pos,
                });
                match outcome {
                    Ok(Some(n)) => {
                        self.pos += n;
                        break;
                    }
                    Err(e) => self.retry_or_fail(&e, &mut last_err)?,
                    Ok(None) => {}
                }
                self.fill_more(self.buf.len() - self.pos, usize::MAX)?;
            }
        }
        Ok(())
    }
}

/// A type of the state model a piece of `prior_state` is checked against
/// (borrowing from the text, as a whole read does).
trait ReadAs {
    fn read(text: &str) -> serde_json::Result<()>;
}

impl<T> ReadAs for T
where
    T: for<'x> Borrowing<'x>,
{
    fn read(text: &str) -> serde_json::Result<()> {
        serde_json::from_str::<<T as Borrowing<'_>>::In>(text).map(|_| ())
    }
}

/// `Self` with its lifetime set to that of the text it is read from.
trait Borrowing<'x> {
    type In: serde::Deserialize<'x>;
}

impl<'x> Borrowing<'x> for crate::model::State<'_> {
    type In = crate::model::State<'x>;
}
impl<'x> Borrowing<'x> for crate::model::Module<'_> {
    type In = crate::model::Module<'x>;
}
impl<'x> Borrowing<'x> for Option<crate::model::Values<'_>> {
    type In = Option<crate::model::Values<'x>>;
}
impl<'x> Borrowing<'x> for Option<String> {
    type In = Option<String>;
}
impl<'x> Borrowing<'x> for Option<Vec<CheckObject>> {
    type In = Option<Vec<CheckObject>>;
}
impl<'x> Borrowing<'x> for Vec<IgnoredAny> {
    type In = Vec<IgnoredAny>;
}

/// The fields of a struct of the state model seen so far in one object: a
/// second one is what serde refuses (`duplicate field`); other keys are ignored.
struct Fields {
    names: &'static [&'static str],
    seen: Vec<bool>,
}

impl Fields {
    fn new(names: &'static [&'static str]) -> Self {
        Fields { names, seen: vec![false; names.len()] }
    }

    fn check(&mut self, key: &str, visitor: &mut dyn PlanVisitor) {
        if let Some(i) = self.names.iter().position(|n| *n == key) {
            if std::mem::replace(&mut self.seen[i], true) {
                visitor.on_prior(Prior::Refused(format!("duplicate field `{key}`")));
            }
        }
    }
}

/// What a skip over the structural index did ([`Reader::skip_indexed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Indexed {
    /// Skipped: the value is valid JSON.
    Done,
    /// Left to serde_json: not JSON (its message says why), or not sure.
    Refused,
    /// Still incomplete with the limit buffered: to be walked member by member.
    TooBig,
}

mod resource;
#[cfg(test)]
mod tests;
