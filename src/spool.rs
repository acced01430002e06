//! Records spooled: lists that grow with the input (`summary`'s changes, the
//! rows of its table) written out as compact JSON lines, in memory up to a
//! small block and then appended to an anonymous temporary file
//! ([`anonymous_file`]), and read back in order as often as needed. Peak
//! memory is a block and one record, whatever the number of records.
//!
//! Where no temporary file can be made, the records stay in memory (the run
//! goes on, as before spooling). A record that cannot be written or read
//! back is an I/O error of the run, never a silently shorter list.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;

/// Encoded records are moved to the file in blocks of about this size.
const BLOCK: usize = 256 << 10;

/// A list of records of type `T`, spooled ([`Records::push`]) and read back
/// in order ([`Records::each`]).
pub(crate) struct Records<T> {
    /// The records not yet moved to the file (JSON lines).
    buf: Vec<u8>,
    /// The file, and how many bytes are written to it.
    file: Option<(File, u64)>,
    /// No temporary file could be made: everything stays in `buf`.
    in_memory: bool,
    len: usize,
    /// The block size (bytes kept in memory before they go to the file).
    block: usize,
    _t: PhantomData<fn() -> T>,
}

impl<T> Default for Records<T> {
    fn default() -> Self {
        Records::with_block(BLOCK)
    }
}

impl<T> Records<T> {
    /// Records moved to the file in blocks of `block` bytes (many spools
    /// open at once each keep at most one block in memory).
    pub(crate) fn with_block(block: usize) -> Self {
        Records { buf: Vec::new(), file: None, in_memory: false, len: 0, block, _t: PhantomData }
    }
}

impl<T> std::fmt::Debug for Records<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records").field("len", &self.len).field("on_disk", &self.file.as_ref().map(|f| f.1)).finish()
    }
}

impl<T: Serialize + DeserializeOwned> Records<T> {
    /// How many records were pushed.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Append `r`.
    pub(crate) fn push(&mut self, r: &T) -> io::Result<()> {
        serde_json::to_writer(&mut self.buf, r).map_err(io::Error::other)?;
        self.buf.push(b'\n');
        self.len += 1;
        if self.buf.len() >= self.block && !self.in_memory {
            self.spill()?;
        }
        Ok(())
    }

    /// The block in memory moved to the file (made on the first call).
    fn spill(&mut self) -> io::Result<()> {
        if self.file.is_none() {
            match anonymous_file() {
                Ok(f) => self.file = Some((f, 0)),
                Err(_) => {
                    self.in_memory = true;
                    return Ok(());
                }
            }
        }
        if let Some((file, written)) = self.file.as_mut() {
            file.seek(SeekFrom::Start(*written))?;
            file.write_all(&self.buf)?;
            *written += self.buf.len() as u64;
            self.buf.clear();
        }
        Ok(())
    }

    /// Each record in the order pushed, given to `f` (which may stop the
    /// reading with an error).
    pub(crate) fn each(&self, mut f: impl FnMut(T) -> io::Result<()>) -> io::Result<()> {
        let mut it = self.iter(64 << 10)?;
        while let Some(r) = it.next_record()? {
            f(r)?;
        }
        Ok(())
    }

    /// The records in the order pushed, read through a buffer of `buffer`
    /// bytes. One reader of a spool at a time (they share the file's position).
    pub(crate) fn iter(&self, buffer: usize) -> io::Result<Iter<'_, T>> {
        let file = match &self.file {
            Some((file, written)) => {
                let mut from: &File = file;
                from.seek(SeekFrom::Start(0))?;
                Some(BufReader::with_capacity(buffer, from.take(*written)))
            }
            None => None,
        };
        Ok(Iter { file, mem: &self.buf, line: Vec::new(), _t: PhantomData })
    }
}

/// A reader of [`Records`] ([`Records::iter`]).
pub(crate) struct Iter<'a, T> {
    file: Option<BufReader<io::Take<&'a File>>>,
    mem: &'a [u8],
    line: Vec<u8>,
    _t: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned> Iter<'_, T> {
    /// The next record, or `None` after the last.
    pub(crate) fn next_record(&mut self) -> io::Result<Option<T>> {
        self.line.clear();
        if let Some(f) = &mut self.file {
            if f.read_until(b'\n', &mut self.line)? == 0 {
                self.file = None;
            }
        }
        if self.line.is_empty() && self.mem.read_until(b'\n', &mut self.line)? == 0 {
            return Ok(None);
        }
        serde_json::from_slice(&self.line).map(Some).map_err(|e| io::Error::other(format!("a spooled record cannot be read back: {e}")))
    }
}

/// A new file in the temporary directory that only this process can read
/// and that no name leads to: removed as soon as it is open (unix), or when
/// it is closed (Windows).
pub(crate) fn anonymous_file() -> io::Result<File> {
    let dir = std::env::temp_dir();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let mut last = None;
    for attempt in 0..16 {
        let path = dir.join(format!("planview-show-{}-{nanos}-{attempt}", std::process::id()));
        let mut o = std::fs::OpenOptions::new();
        o.read(true).write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600);
        }
        #[cfg(windows)]
        {
            use std::os::windows::fs::OpenOptionsExt;
            const FILE_FLAG_DELETE_ON_CLOSE: u32 = 0x0400_0000;
            o.custom_flags(FILE_FLAG_DELETE_ON_CLOSE);
        }
        match o.open(&path) {
            Ok(f) => {
                #[cfg(unix)]
                std::fs::remove_file(&path)?;
                return Ok(f);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary file name free")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_come_back_in_order_across_the_file_and_the_block() {
        let mut r: Records<(u32, String)> = Records::default();
        let n = 40_000u32;
        for i in 0..n {
            r.push(&(i, format!("line\n{i} \"quoted\""))).unwrap();
        }
        assert!(r.file.is_some(), "more than a block went to the file");
        assert_eq!(r.len(), n as usize);
        for _ in 0..2 {
            let mut next = 0;
            r.each(|(i, s)| {
                assert_eq!((i, s), (next, format!("line\n{next} \"quoted\"")));
                next += 1;
                Ok(())
            })
            .unwrap();
            assert_eq!(next, n, "read twice, whole each time");
        }
        r.push(&(n, "after".into())).unwrap();
        let mut last = None;
        r.each(|x| {
            last = Some(x);
            Ok(())
        })
        .unwrap();
        assert_eq!(last, Some((n, "after".to_string())), "a push after a read appends");
    }
}
