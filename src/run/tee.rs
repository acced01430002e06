//! A document read again: the fingerprint's later passes
//! ([`super::compare::fingerprint_passes`]). A document of a regular file of
//! JSON is read again from its file ([`crate::read::pool::Again`]: no copy,
//! no disk). Any other (a pipe, stdin, a saved plan's `show -json` output)
//! is copied, as it is read once, to an anonymous temporary file
//! ([`super::show::anonymous_file`]), whose bytes can be read twice. Memory
//! stays bounded; such a copy takes the document's size on disk until the run ends.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A reader that writes whatever it reads to the copy.
pub(super) struct Tee<R> {
    inner: R,
    file: File,
    failed: Arc<AtomicBool>,
}

/// Where a document is read again from ([`Copy::reader`]): the copy a
/// [`Tee`] writes, or its own file.
pub(super) enum Copy {
    Written { file: File, failed: Arc<AtomicBool> },
    Reread(Box<crate::read::pool::Again>),
}

/// `inner` teed to a new anonymous temporary file.
pub(super) fn tee<R: Read>(inner: R) -> io::Result<(Tee<R>, Copy)> {
    let file = super::show::anonymous_file()?;
    let failed = Arc::new(AtomicBool::new(false));
    let copy = Copy::Written { file: file.try_clone()?, failed: Arc::clone(&failed) };
    Ok((Tee { inner, file, failed }, copy))
}

/// A document of [`crate::read::stream_roots`] made readable again: from
/// its own file when it is a regular file of JSON (nothing written), else
/// teed to a new anonymous temporary file: its text is copied as its
/// pieces pass ([`crate::read::Fed::copied`]), so that it is still parsed as it comes.
pub(super) fn tee_fed(fed: crate::read::Fed) -> io::Result<(crate::read::Fed, Copy)> {
    if let Some(again) = fed.again() {
        let again = again.clone();
        return Ok((fed, Copy::Reread(Box::new(again))));
    }
    let file = super::show::anonymous_file()?;
    let failed = Arc::new(AtomicBool::new(false));
    let copy = Copy::Written { file: file.try_clone()?, failed: Arc::clone(&failed) };
    Ok((fed.copied(Writer { file, failed }), copy))
}

/// Writes to the copy, a failure recorded (and every later write skipped).
struct Writer {
    file: File,
    failed: Arc<AtomicBool>,
}

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.failed.load(Ordering::Relaxed) && self.file.write_all(buf).is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 && !self.failed.load(Ordering::Relaxed) && self.file.write_all(&buf[..n]).is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        Ok(n)
    }
}

impl Copy {
    /// The document from its start, once the tee has read everything (an
    /// error when the copy could not be written whole: the disk is full), or
    /// from its file.
    pub(super) fn reader(&self) -> io::Result<crate::read::Fed> {
        let (file, failed) = match self {
            Copy::Written { file, failed } => (file, failed),
            Copy::Reread(again) => return again.open().map_err(|e| io::Error::other(e.message)),
        };
        if failed.load(Ordering::Relaxed) {
            return Err(io::Error::other("the temporary copy of the input could not be written"));
        }
        // Handles cloned from one open file share its offset: the reader starts at 0.
        let mut f = file.try_clone()?;
        f.seek(SeekFrom::Start(0))?;
        Ok(crate::read::Fed::plain(f))
    }

    /// Whether a copy was written (false: the document is read from its file).
    #[cfg(test)]
    pub(super) fn written(&self) -> bool {
        matches!(self, Copy::Written { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_reads_back_what_the_tee_read_every_time() {
        let text: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let (mut t, copy) = tee(&text[..]).unwrap();
        let mut first = Vec::new();
        let mut buf = [0u8; 7_777];
        loop {
            let n = t.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            first.extend_from_slice(&buf[..n]);
        }
        assert_eq!(first, text);
        for _ in 0..2 {
            let mut again = Vec::new();
            copy.reader().unwrap().read_to_end(&mut again).unwrap();
            assert_eq!(again, text);
        }
    }

    #[test]
    fn a_document_of_a_regular_file_is_read_again_from_the_file_with_no_copy() {
        use crate::read::{self, ReadOptions, Source};
        let dir = std::env::temp_dir().join(format!("planview-tee-again-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let doc = |i: usize| {
            format!(r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.r{i}","change":{{"actions":["create"]}}}}]}}"#)
        };
        let one = dir.join("one.json");
        std::fs::write(&one, format!("  {}\n", doc(0))).unwrap();
        let three = dir.join("three.json");
        std::fs::write(&three, format!("{}\n\n{}\n  {}\n", doc(1), doc(2), doc(3))).unwrap();
        let read = ReadOptions::default();
        let roots = read::expand(&[Source::File(one), Source::File(three)], &read::FindOptions::default(), &read.notes);
        let items = read::stream_roots(&roots, &read, &|name, src, _, _| {
            let (mut fed, copy) = tee_fed(src).map_err(|e| crate::error::InputError::new(name, e.to_string()))?;
            let (mut first, mut again) = (String::new(), String::new());
            fed.read_to_string(&mut first).unwrap();
            for _ in 0..2 {
                again.clear();
                copy.reader().unwrap().read_to_string(&mut again).unwrap();
                assert_eq!(again, first, "{name}");
            }
            Ok(((copy.written(), first), crate::secrets::Masker::default()))
        });
        let got: Vec<(bool, String)> = items.into_iter().map(|i| i.result.unwrap()).collect();
        assert_eq!(got.len(), 4);
        for (k, (written, text)) in got.iter().enumerate() {
            assert!(!written, "document {k} was copied");
            assert!(text.contains(&format!("a.r{k}")), "{k}: {text}");
        }
        // Each document keeps the lines before it (its errors' lines are the file's).
        assert!(got[3].1.starts_with("\n\n\n"), "{:?}", got[3].1);
        std::fs::remove_dir_all(&dir).ok();
    }
}
