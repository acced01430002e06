//! A resource of a values representation (`planned_values`, `prior_state`)
//! read over the structural index without serde ([`resource_spans`]): its
//! length, and where its `values` and `sensitive_values` lie when the latter
//! marks something. A leaf over [`crate::index`] and [`crate::scan`] only, so
//! the `resource` fuzz target compiles it as it is.

use crate::index::Skip;

/// Where a resource's `values` and `sensitive_values` lie in its text
/// ([`resource_spans`]), the latter marking something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spans {
    pub(crate) values: Option<(usize, usize)>,
    pub(crate) marks: (usize, usize),
}

/// The length of the resource object at the start of `t` (a values
/// representation's) when it is valid JSON, with where its `values` and
/// `sensitive_values` are when the latter marks something (`None`: absent,
/// or made of objects, arrays, `false` and `null` only, in which the secret
/// collector finds nothing). Nothing of it need reach serde. `Refused` when
/// a key holds an escape (`sensitive\u005fvalues` is the same key), or one
/// of those two keys comes twice.
///
/// One pass: each key and each member's value is checked and stepped over
/// by [`crate::index::skip`] (a container over the index, 64 bytes at a
/// time), the punctuation between them here, as strictly as serde_json
/// reads an object. A resource that would not read as one (a field of the
/// wrong type) has its marked values collected all the same: more is
/// masked, never less.
pub(crate) fn resource_spans(t: &[u8]) -> (Skip, Option<Spans>) {
    use crate::index::blanks;
    const VALUES: &[u8] = b"\"values\"";
    const MARKS: &[u8] = b"\"sensitive_values\"";
    // The end of the value at `t[i]`, checked; or why not.
    let value = |i: usize| match crate::index::skip(&t[i..]) {
        Skip::End(k) => Ok(i + k),
        other => Err(other),
    };
    let start = blanks(t, 0);
    match t.get(start) {
        None => return (Skip::Incomplete, None),
        Some(b'{') => {}
        Some(_) => return (Skip::Refused, None),
    }
    let (mut values, mut marks, mut marked) = (None, None, false);
    let mut i = blanks(t, start + 1);
    match t.get(i) {
        None => return (Skip::Incomplete, None),
        Some(b'}') => return (Skip::End(i + 1), None),
        Some(_) => {}
    }
    loop {
        match t.get(i) {
            Some(b'"') => {}
            None => return (Skip::Incomplete, None),
            Some(_) => return (Skip::Refused, None),
        }
        let key_end = match value(i) {
            Ok(e) => e,
            Err(s) => return (s, None),
        };
        let key = &t[i..key_end];
        if key.contains(&b'\\') {
            return (Skip::Refused, None);
        }
        i = blanks(t, key_end);
        match t.get(i) {
            Some(b':') => {}
            None => return (Skip::Incomplete, None),
            Some(_) => return (Skip::Refused, None),
        }
        i = blanks(t, i + 1);
        let v_end = match value(i) {
            Ok(e) => e,
            Err(s) => return (s, None),
        };
        if key == MARKS {
            if marked {
                return (Skip::Refused, None);
            }
            marked = true;
            marks = (!marks_nothing(&t[i..v_end])).then_some((i, v_end));
        } else if key == VALUES {
            if values.is_some() {
                return (Skip::Refused, None);
            }
            values = Some((i, v_end));
        }
        i = blanks(t, v_end);
        match t.get(i) {
            Some(b',') => i = blanks(t, i + 1),
            Some(b'}') => return (Skip::End(i + 1), marks.map(|marks| Spans { values, marks })),
            None => return (Skip::Incomplete, None),
            Some(_) => return (Skip::Refused, None),
        }
    }
}

/// A marker that marks nothing: objects, arrays, `false` and `null` only
/// (strings only as keys). Anything else may mark something.
fn marks_nothing(m: &[u8]) -> bool {
    let mut i = 0;
    while i < m.len() {
        match m[i] {
            b'"' => {
                i = crate::scan::string_end(m, i + 1) + 1;
                // A key, never a value.
                if m.get(crate::index::blanks(m, i)) != Some(&b':') {
                    return false;
                }
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' | b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'f' if m[i..].starts_with(b"false") => i += 5,
            b'n' if m[i..].starts_with(b"null") => i += 4,
            _ => return false,
        }
    }
    true
}
