//! The reading half of the one pipeline: inputs → roots → documents, each
//! read once, streamed where the command allows ([`stream_one`]) or whole
//! ([`each_root_with`]), several in parallel with
//! bounded memory, each with its secrets; the answer half is [`crate::run`].

use crate::error::InputError;
use crate::input::{self, Source};
use crate::outcome::PerFile;
use crate::{mask, roots, stream};

/// Every root ([`roots::expand`]) read and `f` applied to each document,
/// several roots at a time (as many as there are cores, at most
/// [`crate::par::MAX_PARALLEL`]); unreadable inputs are kept as errors so the
/// others are still reported. Each root is read
/// whole, split into its documents ([`roots::split_whole`]: an input holding
/// several is several results, `NAME#1`, `NAME#2`, ...), and each document
/// parsed. Results keep the order of `roots`, then of documents.
pub(crate) fn each_root_with<T>(
    roots: &[roots::Root],
    show: &input::ReadOptions,
    mut f: impl FnMut(&input::Document<'_>, &mask::Masker) -> Result<T, String>,
) -> Vec<PerFile<T>> {
    each_root_raw_with(roots, show, |_, doc, m| f(doc, m))
}

/// [`each_root_with`], `f` given the document's JSON text as well (what
/// `show -json` wrote: the input of Rego policies).
pub(crate) fn each_root_raw_with<T>(
    roots: &[roots::Root],
    show: &input::ReadOptions,
    mut f: impl FnMut(&[u8], &input::Document<'_>, &mask::Masker) -> Result<T, String>,
) -> Vec<PerFile<T>> {
    let width = crate::par::threads();
    let mut out = Vec::with_capacity(roots.len());
    for chunk in roots.chunks(width) {
        let bytes: Vec<Result<Vec<u8>, InputError>> = parallel(chunk, |root| match &root.problem {
            Some(e) => Err(e.clone()),
            None => input::read_with(&root.source, &root.options(show)).map_err(|e| InputError { file: root.name.clone(), ..e }),
        });
        // Every document of the chunk, with the name it is reported under.
        let mut docs: Vec<(String, DocBytes<'_>)> = Vec::new();
        for (root, bytes) in chunk.iter().zip(&bytes) {
            let parts = match bytes {
                Ok(b) => roots::split_whole(&root.name, b, show),
                Err(e) => {
                    docs.push((root.name.clone(), Err(e.clone())));
                    continue;
                }
            };
            let n = parts.len();
            let mut seen = std::collections::HashSet::new();
            for (k, part) in parts.into_iter().enumerate() {
                let mut name = match part.name {
                    _ if n == 1 => root.name.clone(),
                    Some(dir) => dir,
                    None => format!("{}#{}", root.name, k + 1),
                };
                if !seen.insert(name.clone()) {
                    name = format!("{name}#{}", k + 1);
                }
                let bytes = part.bytes.map_err(|e| InputError { file: name.clone(), ..e });
                docs.push((name, bytes));
            }
        }
        let refs: Vec<(&str, Result<&[u8], &InputError>)> =
            docs.iter().map(|(name, bytes)| (name.as_str(), bytes.as_ref().map(|b| b.as_ref()))).collect();
        for batch in refs.chunks(width) {
            let parsed = parallel(batch, |&(name, bytes)| {
                let bytes = bytes.map_err(Clone::clone)?;
                let doc = input::parse_with(name, bytes, show)?;
                let mut masker = mask::Masker::seeded(show);
                masker.merge(&mask::Masker::collect(&doc));
                Ok::<_, InputError>((doc, masker))
            });
            for ((name, bytes), p) in batch.iter().zip(parsed) {
                out.push(match p {
                    Ok((doc, masker)) => {
                        let raw: &[u8] = bytes.as_ref().map_or(&[], |b| b);
                        let result = f(raw, &doc, &masker).map_err(|m| InputError::new(name, m));
                        PerFile { file: name.to_string(), result, masker }
                    }
                    Err(e) => PerFile { file: name.to_string(), result: Err(e), masker: mask::Masker::default() },
                });
            }
        }
    }
    crate::wrong::collapse(out)
}

/// One document's bytes, or why they cannot be read.
type DocBytes<'a> = Result<std::borrow::Cow<'a, [u8]>, InputError>;

/// `f` over `items`, one scoped thread each when there are several; results in order.
fn parallel<I: Sync, R: Send>(items: &[I], f: impl Fn(&I) -> R + Sync) -> Vec<R> {
    if items.len() < 2 {
        return items.iter().map(&f).collect();
    }
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items.iter().map(|i| s.spawn(move || f(i))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

/// Stream one document from `src` through `visitor` (and the secret
/// collector), then answer from the visitor and the skeleton document (which
/// holds everything but the streamed parts, see [`stream::stream`]). A plan's
/// changes are seen (and their secrets collected) as they arrive, then
/// dropped; the rest of the plan is fed to the visitor from the skeleton.
pub(crate) fn stream_one<V: stream::PlanVisitor, T>(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: stream::ReadAhead,
    opts: &input::ReadOptions,
    visitor: V,
    answer: impl FnOnce(V, input::Document<'_>, &mask::Masker) -> Result<T, String>,
) -> Result<(T, mask::Masker), InputError> {
    // The run's secrets, when a first pass collected them ([`secrets_of`]).
    let mut both = (visitor, mask::Masker::seeded(opts));
    let skeleton = stream::stream(name, src, ahead, opts, &mut both)?;
    // Positions in the skeleton are not positions in the input: drop them.
    let doc = input::parse(name, skeleton.as_bytes()).map_err(|e| InputError { line: None, column: None, ..e })?;
    let (mut visitor, mut masker) = both;
    // Output changes, sensitive variables (the skeleton keeps `configuration`), a state's values.
    masker.merge(&mask::Masker::collect(&doc));
    if let input::Document::Plan(p) = &doc {
        stream::visit_rest(p, &mut visitor);
    }
    answer(visitor, doc, &masker).map(|t| (t, masker)).map_err(|m| InputError::new(name, m))
}

/// How a source's read-ahead thread ends ([`stream::ReadAhead`]): joined
/// for a regular file, left to end by itself for pipes and stdin.
pub(crate) fn read_ahead_for(src: &Source) -> stream::ReadAhead {
    match src {
        Source::File(path) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => stream::ReadAhead::Joined,
        _ => stream::ReadAhead::Detached,
    }
}

/// One input streamed as one document ([`stream_one`], the read-ahead thread
/// left to end by itself on pipes), never split into several: for the
/// commands that read one document per input.
pub(crate) fn stream_source<V: stream::PlanVisitor, T>(
    src: &Source,
    read: &input::ReadOptions,
    visitor: V,
    answer: impl FnOnce(V, input::Document<'_>, &mask::Masker) -> Result<T, String>,
) -> PerFile<T> {
    let file = src.name();
    match input::open(src, read).and_then(|r| stream_one(&file, r, read_ahead_for(src), read, visitor, answer)) {
        Ok((t, masker)) => PerFile { file, result: Ok(t), masker },
        Err(e) => PerFile { file, result: Err(e), masker: mask::Masker::default() },
    }
}

/// The secrets of every document of `roots`, by a first pass that reads them
/// all and does nothing else ([`crate::roots::stream_roots`]): handed to every
/// reader of the run's own pass (`ReadOptions::seed`) so that a value marked
/// sensitive in one input is masked wherever another holds it unmarked.
pub(crate) fn secrets_of(roots: &[roots::Root], read: &input::ReadOptions) -> mask::Masker {
    struct Nothing;
    impl stream::PlanVisitor for Nothing {}
    let quiet = input::ReadOptions { notes: input::Notes::default(), ..read.clone() };
    let items = roots::stream_roots(roots, &quiet, &|name, src, ahead, read| stream_one(name, src, ahead, read, Nothing, |_, _, _| Ok(())));
    let mut all = mask::Masker::default();
    items.iter().for_each(|i| all.merge(&i.masker));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_root_keeps_the_order_of_inputs_across_parallel_chunks() {
        let dir = std::env::temp_dir().join(format!("planview-each-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut inputs = Vec::new();
        for i in 0..(crate::par::MAX_PARALLEL * 2 + 3) {
            let p = dir.join(format!("{i}.json"));
            if i % 4 != 3 {
                let plan =
                    format!(r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.r{i}","change":{{"actions":["create"]}}}}]}}"#);
                std::fs::write(&p, plan).unwrap();
            }
            inputs.push(Source::File(p));
        }
        let mut calls = 0;
        let read = input::ReadOptions::default();
        let roots = roots::expand(&inputs, &roots::FindOptions::default(), &read.notes);
        let items = each_root_with(&roots, &read, |doc, _| {
            calls += 1;
            match doc {
                input::Document::Plan(p) => Ok(p.resource_changes[0].address.clone()),
                input::Document::State(_) => Err("state".to_string()),
            }
        });
        assert_eq!(items.len(), inputs.len());
        for (i, item) in items.iter().enumerate() {
            assert_eq!(item.file, inputs[i].name());
            match &item.result {
                Ok(a) => assert_eq!(a, &format!("a.r{i}")),
                Err(e) => assert!(i % 4 == 3 && e.message.contains("no such file"), "{i}: {e}"),
            }
        }
        assert_eq!(calls, inputs.len() - inputs.len() / 4);
        std::fs::remove_dir_all(&dir).ok();
    }
}
