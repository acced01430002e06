//! A document's text copied, as it is read once, to an anonymous temporary
//! file ([`super::show::anonymous_file`]) so that it can be read again: the
//! fingerprint's later passes ([`super::compare::fingerprint_passes`]) over
//! a pipe, stdin, a saved plan's `show -json` output or one document of
//! several, whose bytes cannot be read twice from their source. Memory stays
//! bounded; the file takes the document's size on disk until the run ends.

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

/// The copy a [`Tee`] writes: read again with [`Copy::reader`].
pub(super) struct Copy {
    file: File,
    failed: Arc<AtomicBool>,
}

/// `inner` teed to a new anonymous temporary file.
pub(super) fn tee<R: Read>(inner: R) -> io::Result<(Tee<R>, Copy)> {
    let file = super::show::anonymous_file()?;
    let failed = Arc::new(AtomicBool::new(false));
    let copy = Copy { file: file.try_clone()?, failed: Arc::clone(&failed) };
    Ok((Tee { inner, file, failed }, copy))
}

/// A document of [`crate::read::stream_roots`] teed to a new anonymous
/// temporary file: its text is copied as its pieces pass
/// ([`crate::read::Fed::copied`]), so that it is still parsed as it comes.
pub(super) fn tee_fed(fed: crate::read::Fed) -> io::Result<(crate::read::Fed, Copy)> {
    let file = super::show::anonymous_file()?;
    let failed = Arc::new(AtomicBool::new(false));
    let copy = Copy { file: file.try_clone()?, failed: Arc::clone(&failed) };
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
    /// The copy from its start, once the tee has read everything (an error
    /// when it could not be written whole: the disk is full).
    pub(super) fn reader(&self) -> io::Result<File> {
        if self.failed.load(Ordering::Relaxed) {
            return Err(io::Error::other("the temporary copy of the input could not be written"));
        }
        // Handles cloned from one open file share its offset: the reader starts at 0.
        let mut f = self.file.try_clone()?;
        f.seek(SeekFrom::Start(0))?;
        Ok(f)
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
}
