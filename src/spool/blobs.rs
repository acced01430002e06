//! Byte strings spooled as they are ([`Blobs`]): the texts a query may need
//! again at the end, in the temporary file of [`super::anonymous_file`].

use super::{anonymous_file, unreadable, BLOCK};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};

/// Byte strings spooled as they are (an 8-byte length and the bytes, no
/// encoding), read back in order: the texts a query may need again at the
/// end (`moves`' candidates). Small ones gather in a block in memory; one of
/// a block or more goes straight to the file, never copied, so a huge value
/// costs no second copy of itself.
pub(crate) struct Blobs {
    buf: Vec<u8>,
    file: Option<(File, u64)>,
    in_memory: bool,
    len: usize,
    block: usize,
}

impl Default for Blobs {
    fn default() -> Self {
        Blobs::with_block(BLOCK)
    }
}

impl std::fmt::Debug for Blobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blobs").field("len", &self.len).field("on_disk", &self.file.as_ref().map(|f| f.1)).finish()
    }
}

impl Blobs {
    /// Blobs moved to the file in blocks of `block` bytes.
    pub(crate) fn with_block(block: usize) -> Self {
        Blobs { buf: Vec::new(), file: None, in_memory: false, len: 0, block }
    }

    /// How many blobs were pushed.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Append `b`.
    pub(crate) fn push(&mut self, b: &[u8]) -> io::Result<()> {
        let head = (b.len() as u64).to_le_bytes();
        if b.len() >= self.block && self.has_file() {
            self.spill()?;
            if let Some((file, written)) = self.file.as_mut() {
                file.seek(SeekFrom::Start(*written))?;
                file.write_all(&head)?;
                file.write_all(b)?;
                *written += (head.len() + b.len()) as u64;
            }
        } else {
            self.buf.extend_from_slice(&head);
            self.buf.extend_from_slice(b);
            if self.buf.len() >= self.block && self.has_file() {
                self.spill()?;
            }
        }
        self.len += 1;
        Ok(())
    }

    /// Whether the file is there (made on the first call); false when no
    /// temporary file can be made (everything then stays in memory).
    fn has_file(&mut self) -> bool {
        if self.file.is_none() && !self.in_memory {
            match anonymous_file() {
                Ok(f) => self.file = Some((f, 0)),
                Err(_) => self.in_memory = true,
            }
        }
        self.file.is_some()
    }

    /// The block in memory moved to the file.
    fn spill(&mut self) -> io::Result<()> {
        if let Some((file, written)) = self.file.as_mut() {
            file.seek(SeekFrom::Start(*written))?;
            file.write_all(&self.buf)?;
            *written += self.buf.len() as u64;
            self.buf.clear();
        }
        Ok(())
    }

    /// The blobs in the order pushed ([`BlobIter::next_into`]). One reader
    /// of a spool at a time (they share the file's position).
    pub(crate) fn iter(&self) -> io::Result<BlobIter<'_>> {
        let file = match &self.file {
            Some((file, written)) => {
                let mut from: &File = file;
                from.seek(SeekFrom::Start(0))?;
                Some(BufReader::with_capacity(64 << 10, from.take(*written)))
            }
            None => None,
        };
        Ok(BlobIter { file, mem: &self.buf })
    }
}

/// A reader of [`Blobs`] ([`Blobs::iter`]).
pub(crate) struct BlobIter<'a> {
    file: Option<BufReader<io::Take<&'a File>>>,
    mem: &'a [u8],
}

impl BlobIter<'_> {
    /// Past the next blob, without reading it; false after the last.
    pub(crate) fn skip(&mut self) -> io::Result<bool> {
        self.step(None)
    }

    /// The next blob into `out` (replacing what it held); false after the last.
    pub(crate) fn next_into(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        out.clear();
        self.step(Some(out))
    }

    /// Past the next blob, read into `out` if there is one; false after the last.
    fn step(&mut self, out: Option<&mut Vec<u8>>) -> io::Result<bool> {
        if let Some(f) = &mut self.file {
            let mut head = [0; 8];
            match f.read(&mut head[..1])? {
                0 => self.file = None,
                _ => {
                    f.read_exact(&mut head[1..])?;
                    let n = u64::from_le_bytes(head);
                    let got = match out {
                        Some(out) => {
                            out.reserve_exact(usize::try_from(n).map_err(unreadable)?);
                            f.by_ref().take(n).read_to_end(out)? as u64
                        }
                        None => {
                            let buffered = (f.buffer().len() as u64).min(n);
                            f.consume(buffered as usize);
                            buffered + io::copy(&mut f.by_ref().take(n - buffered), &mut io::sink())?
                        }
                    };
                    if got != n {
                        return Err(unreadable("a blob ends too soon"));
                    }
                    return Ok(true);
                }
            }
        }
        if self.mem.is_empty() {
            return Ok(false);
        }
        let Some((head, rest)) = self.mem.split_first_chunk::<8>() else { return Err(unreadable("a blob ends too soon")) };
        let n = usize::try_from(u64::from_le_bytes(*head)).map_err(unreadable)?;
        if rest.len() < n {
            return Err(unreadable("a blob ends too soon"));
        }
        if let Some(out) = out {
            out.extend_from_slice(&rest[..n]);
        }
        self.mem = &rest[n..];
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blobs small and big (a big one written straight to the file, past
    /// blocks of small ones) come back whole and in order, twice.
    #[test]
    fn blobs_come_back_in_order_small_and_big() {
        let mut b = Blobs::with_block(1 << 10);
        let blob = |i: usize| -> Vec<u8> {
            let n = if i % 97 == 5 { 5_000 + i } else { i % 13 };
            (0..n).map(|k| (k * 31 + i) as u8).collect()
        };
        let n = 3_000;
        for i in 0..n {
            b.push(&blob(i)).unwrap();
        }
        assert!(b.file.is_some() && b.len() == n);
        for _ in 0..2 {
            let mut it = b.iter().unwrap();
            let mut out = Vec::new();
            for i in 0..n {
                assert!(it.next_into(&mut out).unwrap(), "blob {i}");
                assert_eq!(out, blob(i), "blob {i}");
            }
            assert!(!it.next_into(&mut out).unwrap(), "nothing after the last");
        }
        // Some skipped (small and big), the others read whole.
        for every in [2, 3, 97] {
            let mut it = b.iter().unwrap();
            let mut out = Vec::new();
            for i in 0..n {
                if i % every == 5 % every {
                    assert!(it.skip().unwrap(), "blob {i}");
                } else {
                    assert!(it.next_into(&mut out).unwrap(), "blob {i}");
                    assert_eq!(out, blob(i), "blob {i}");
                }
            }
            assert!(!it.skip().unwrap() && !it.next_into(&mut out).unwrap(), "nothing after the last");
        }
    }
}
