//! Records spooled: lists that grow with the input (`summary`'s changes, the
//! rows of its table) written out as compact binary records ([`codec`]: a
//! length, then tags, numbers and the bytes of strings, nothing escaped or
//! parsed as text), in memory up to a small block and then appended to an
//! anonymous temporary file ([`anonymous_file`]), and read back in order as
//! often as needed. Peak memory is a block and one record, whatever the
//! number of records.
//!
//! Where no temporary file can be made, the records stay in memory (the run
//! goes on, as before spooling). A record that cannot be written or read
//! back is an I/O error of the run, never a silently shorter list.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;

mod blobs;
pub(crate) use blobs::Blobs;

/// Encoded records are moved to the file in blocks of about this size.
const BLOCK: usize = 256 << 10;

/// A list of records of type `T`, spooled ([`Records::push`]) and read back
/// in order ([`Records::each`]).
pub(crate) struct Records<T> {
    /// The records not yet moved to the file (each its length, 4 bytes
    /// little-endian, and its encoding).
    buf: Vec<u8>,
    /// The file, and how many bytes are written to it.
    file: Option<(File, u64)>,
    /// No temporary file could be made: everything stays in `buf`.
    in_memory: bool,
    len: usize,
    /// The block size (bytes kept in memory before they go to the file).
    block: usize,
    /// The names of the records' fields and variants.
    keys: codec::Keys,
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
        Records { buf: Vec::new(), file: None, in_memory: false, len: 0, block, keys: codec::Keys::default(), _t: PhantomData }
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
        let at = self.buf.len();
        self.buf.extend_from_slice(&[0; 4]);
        let written = codec::encode(r, &mut self.buf, &mut self.keys);
        let n = self.buf.len() - at - 4;
        match (written, u32::try_from(n)) {
            (Ok(()), Ok(n)) => self.buf[at..at + 4].copy_from_slice(&n.to_le_bytes()),
            (Err(e), _) => {
                self.buf.truncate(at);
                return Err(io::Error::other(e));
            }
            (_, Err(_)) => {
                self.buf.truncate(at);
                return Err(io::Error::other("a record of 4 GiB or more cannot be spooled"));
            }
        }
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
        Ok(Iter { file, mem: &self.buf, record: Vec::new(), keys: &self.keys, _t: PhantomData })
    }
}

/// A reader of [`Records`] ([`Records::iter`]).
pub(crate) struct Iter<'a, T> {
    file: Option<BufReader<io::Take<&'a File>>>,
    mem: &'a [u8],
    /// A record read from the file that its buffer does not hold whole.
    record: Vec<u8>,
    keys: &'a codec::Keys,
    _t: PhantomData<fn() -> T>,
}

/// A record that cannot be read back: an I/O error of the run.
fn unreadable(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("a spooled record cannot be read back: {e}"))
}

/// The length of the record at the start of `b` (which holds its 4 bytes).
fn length(b: &[u8]) -> usize {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
}

impl<T: DeserializeOwned> Iter<'_, T> {
    /// The next record, or `None` after the last.
    pub(crate) fn next_record(&mut self) -> io::Result<Option<T>> {
        if let Some(f) = &mut self.file {
            let buf = f.fill_buf()?;
            if buf.is_empty() {
                self.file = None;
            } else if buf.len() >= 4 && buf.len() - 4 >= length(buf) {
                // Decoded where it lies in the reader's buffer.
                let n = length(buf);
                let r = codec::decode(&buf[4..4 + n], self.keys).map_err(unreadable)?;
                f.consume(4 + n);
                return Ok(Some(r));
            } else {
                let mut len = [0; 4];
                f.read_exact(&mut len)?;
                self.record.resize(length(&len), 0);
                f.read_exact(&mut self.record)?;
                return codec::decode(&self.record, self.keys).map(Some).map_err(unreadable);
            }
        }
        if self.mem.is_empty() {
            return Ok(None);
        }
        if self.mem.len() < 4 || self.mem.len() - 4 < length(self.mem) {
            return Err(unreadable("a record ends too soon"));
        }
        let n = length(self.mem);
        let r = codec::decode(&self.mem[4..4 + n], self.keys).map_err(unreadable)?;
        self.mem = &self.mem[4 + n..];
        Ok(Some(r))
    }
}

/// A spooled list written as one serde sequence of `len` elements, each
/// serialized as `each` reads it back (`each` calls its argument once per
/// element, in order). An element the serializer refuses stops the read and
/// is the error; a read that fails is one too: never a shorter sequence.
pub(crate) fn serialize_each<S: serde::Serializer, T: Serialize>(
    ser: S,
    len: usize,
    each: impl FnOnce(&mut dyn FnMut(&T) -> io::Result<()>) -> io::Result<()>,
) -> Result<S::Ok, S::Error> {
    use serde::ser::{Error, SerializeSeq};
    let mut seq = ser.serialize_seq(Some(len))?;
    let mut failed = None;
    let read = each(&mut |e: &T| {
        seq.serialize_element(e).map_err(|err| {
            let text = err.to_string();
            failed = Some(err);
            io::Error::other(text)
        })
    });
    if let Some(err) = failed {
        return Err(err);
    }
    read.map_err(S::Error::custom)?;
    seq.end()
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

/// The records' encoding: a compact, self-describing binary form of any
/// serde value (a tag byte, then fixed-width numbers, or a length and the
/// bytes of a string, or a count and the items of a list, map or struct).
/// Nothing is escaped or parsed as text: a string is its length and bytes.
/// A struct's field names and an enum's variant names are written as an
/// index into the spool's table of names ([`Keys`]), each name stored once
/// per spool. Skipped fields are simply absent, as in JSON, so that
/// `skip_serializing_if` and `default` fields read back as written.
mod codec {
    use serde::de::{self, DeserializeSeed, Visitor};
    use serde::ser::{self, Serialize};
    use std::fmt;

    pub(super) const NONE: u8 = 0;
    pub(super) const SOME: u8 = 1;
    const UNIT: u8 = 2;
    const FALSE: u8 = 3;
    const TRUE: u8 = 4;
    const U64: u8 = 5;
    const I64: u8 = 6;
    const F64: u8 = 7;
    const CHAR: u8 = 8;
    const STR: u8 = 9;
    const BYTES: u8 = 10;
    const SEQ: u8 = 11;
    const MAP: u8 = 12;
    const STRUCT: u8 = 13;
    const UNIT_VARIANT: u8 = 14;
    const NEWTYPE_VARIANT: u8 = 15;
    const TUPLE_VARIANT: u8 = 16;
    const STRUCT_VARIANT: u8 = 17;

    /// An encoding or decoding error.
    #[derive(Debug)]
    pub(crate) struct Error(String);

    impl fmt::Display for Error {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }
    impl std::error::Error for Error {}
    impl ser::Error for Error {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            Error(msg.to_string())
        }
    }
    impl de::Error for Error {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            Error(msg.to_string())
        }
    }

    /// The names of the fields and variants a spool's records use, by index
    /// (each pushed on first use).
    #[derive(Debug, Default)]
    pub(crate) struct Keys {
        names: Vec<&'static str>,
        /// Where the last name was found (fields come in the same order).
        hint: usize,
    }

    impl Keys {
        fn index(&mut self, name: &'static str) -> usize {
            // Most often the name after the last one, the same `&'static str`.
            let i = self.hint;
            if self.names.get(i).is_some_and(|k| std::ptr::eq(*k, name)) {
                self.hint = i + 1;
                return i;
            }
            let i = match self.names.iter().position(|k| *k == name) {
                Some(i) => i,
                None => {
                    self.names.push(name);
                    self.names.len() - 1
                }
            };
            self.hint = i + 1;
            i
        }
    }

    fn varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push(v as u8 | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    /// `value` appended to `out`.
    pub(crate) fn encode<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>, keys: &mut Keys) -> Result<(), Error> {
        value.serialize(&mut Ser { out, keys })
    }

    /// The value encoded in all of `input`.
    pub(crate) fn decode<'de, T: de::Deserialize<'de>>(input: &'de [u8], keys: &Keys) -> Result<T, Error> {
        let mut d = De { input, keys: &keys.names };
        let v = T::deserialize(&mut d)?;
        if d.input.is_empty() {
            Ok(v)
        } else {
            Err(Error("bytes left after a record".into()))
        }
    }

    struct Ser<'a> {
        out: &'a mut Vec<u8>,
        keys: &'a mut Keys,
    }

    impl Ser<'_> {
        fn name(&mut self, name: &'static str) {
            let i = self.keys.index(name);
            varint(self.out, i as u64);
        }

        fn bytes(&mut self, tag: u8, b: &[u8]) {
            self.out.push(tag);
            varint(self.out, b.len() as u64);
            self.out.extend_from_slice(b);
        }

        /// A count to be known at the end: its place (4 bytes).
        fn count_later(&mut self) -> usize {
            let at = self.out.len();
            self.out.extend_from_slice(&[0; 4]);
            at
        }
    }

    /// A list, map or struct being written: where its count goes, and how many items.
    struct Compound<'s, 'a> {
        ser: &'s mut Ser<'a>,
        at: usize,
        n: u32,
    }

    impl Compound<'_, '_> {
        fn end(self) -> Result<(), Error> {
            self.ser.out[self.at..self.at + 4].copy_from_slice(&self.n.to_le_bytes());
            Ok(())
        }
    }

    impl<'s, 'a> Compound<'s, 'a> {
        fn new(ser: &'s mut Ser<'a>, tag: u8, variant: Option<&'static str>) -> Self {
            ser.out.push(tag);
            if let Some(v) = variant {
                ser.name(v);
            }
            let at = ser.count_later();
            Compound { ser, at, n: 0 }
        }
    }

    impl<'s, 'a> ser::Serializer for &'s mut Ser<'a> {
        type Ok = ();
        type Error = Error;
        type SerializeSeq = Compound<'s, 'a>;
        type SerializeTuple = Compound<'s, 'a>;
        type SerializeTupleStruct = Compound<'s, 'a>;
        type SerializeTupleVariant = Compound<'s, 'a>;
        type SerializeMap = Compound<'s, 'a>;
        type SerializeStruct = Compound<'s, 'a>;
        type SerializeStructVariant = Compound<'s, 'a>;

        fn serialize_bool(self, v: bool) -> Result<(), Error> {
            self.out.push(if v { TRUE } else { FALSE });
            Ok(())
        }
        fn serialize_i8(self, v: i8) -> Result<(), Error> {
            self.serialize_i64(v.into())
        }
        fn serialize_i16(self, v: i16) -> Result<(), Error> {
            self.serialize_i64(v.into())
        }
        fn serialize_i32(self, v: i32) -> Result<(), Error> {
            self.serialize_i64(v.into())
        }
        fn serialize_i64(self, v: i64) -> Result<(), Error> {
            self.out.push(I64);
            self.out.extend_from_slice(&v.to_le_bytes());
            Ok(())
        }
        fn serialize_u8(self, v: u8) -> Result<(), Error> {
            self.serialize_u64(v.into())
        }
        fn serialize_u16(self, v: u16) -> Result<(), Error> {
            self.serialize_u64(v.into())
        }
        fn serialize_u32(self, v: u32) -> Result<(), Error> {
            self.serialize_u64(v.into())
        }
        fn serialize_u64(self, v: u64) -> Result<(), Error> {
            self.out.push(U64);
            self.out.extend_from_slice(&v.to_le_bytes());
            Ok(())
        }
        fn serialize_f32(self, v: f32) -> Result<(), Error> {
            self.serialize_f64(v.into())
        }
        fn serialize_f64(self, v: f64) -> Result<(), Error> {
            self.out.push(F64);
            self.out.extend_from_slice(&v.to_le_bytes());
            Ok(())
        }
        fn serialize_char(self, v: char) -> Result<(), Error> {
            self.out.push(CHAR);
            self.out.extend_from_slice(&u32::from(v).to_le_bytes());
            Ok(())
        }
        fn serialize_str(self, v: &str) -> Result<(), Error> {
            self.bytes(STR, v.as_bytes());
            Ok(())
        }
        fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
            self.bytes(BYTES, v);
            Ok(())
        }
        fn serialize_none(self) -> Result<(), Error> {
            self.out.push(NONE);
            Ok(())
        }
        fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
            self.out.push(SOME);
            value.serialize(self)
        }
        fn serialize_unit(self) -> Result<(), Error> {
            self.out.push(UNIT);
            Ok(())
        }
        fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
            self.serialize_unit()
        }
        fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Error> {
            self.out.push(UNIT_VARIANT);
            self.name(variant);
            Ok(())
        }
        fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Error> {
            value.serialize(self)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            value: &T,
        ) -> Result<(), Error> {
            self.out.push(NEWTYPE_VARIANT);
            self.name(variant);
            value.serialize(self)
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'s, 'a>, Error> {
            Ok(Compound::new(self, SEQ, None))
        }
        fn serialize_tuple(self, _: usize) -> Result<Compound<'s, 'a>, Error> {
            Ok(Compound::new(self, SEQ, None))
        }
        fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Compound<'s, 'a>, Error> {
            Ok(Compound::new(self, SEQ, None))
        }
        fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'s, 'a>, Error> {
            Ok(Compound::new(self, TUPLE_VARIANT, Some(variant)))
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Compound<'s, 'a>, Error> {
            Ok(Compound::new(self, MAP, None))
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Compound<'s, 'a>, Error> {
            Ok(Compound::new(self, STRUCT, None))
        }
        fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'s, 'a>, Error> {
            Ok(Compound::new(self, STRUCT_VARIANT, Some(variant)))
        }
    }

    impl Compound<'_, '_> {
        fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            self.n += 1;
            value.serialize(&mut *self.ser)
        }
        fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
            self.n += 1;
            self.ser.name(key);
            value.serialize(&mut *self.ser)
        }
    }

    macro_rules! items {
        ($($trait:ident :: $method:ident),*) => {$(
            impl ser::$trait for Compound<'_, '_> {
                type Ok = ();
                type Error = Error;
                fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                    self.item(value)
                }
                fn end(self) -> Result<(), Error> {
                    Compound::end(self)
                }
            }
        )*};
    }
    items!(
        SerializeSeq::serialize_element,
        SerializeTuple::serialize_element,
        SerializeTupleStruct::serialize_field,
        SerializeTupleVariant::serialize_field
    );

    impl ser::SerializeMap for Compound<'_, '_> {
        type Ok = ();
        type Error = Error;
        fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
            self.item(key)
        }
        fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
            value.serialize(&mut *self.ser)
        }
        fn end(self) -> Result<(), Error> {
            Compound::end(self)
        }
    }

    impl ser::SerializeStruct for Compound<'_, '_> {
        type Ok = ();
        type Error = Error;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
            self.field(key, value)
        }
        fn end(self) -> Result<(), Error> {
            Compound::end(self)
        }
    }

    impl ser::SerializeStructVariant for Compound<'_, '_> {
        type Ok = ();
        type Error = Error;
        fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
            self.field(key, value)
        }
        fn end(self) -> Result<(), Error> {
            Compound::end(self)
        }
    }

    struct De<'de, 'k> {
        input: &'de [u8],
        keys: &'k [&'static str],
    }

    fn short() -> Error {
        Error("a record ends too soon".into())
    }

    impl<'de> De<'de, '_> {
        fn take(&mut self, n: usize) -> Result<&'de [u8], Error> {
            if self.input.len() < n {
                return Err(short());
            }
            let (a, b) = self.input.split_at(n);
            self.input = b;
            Ok(a)
        }
        fn byte(&mut self) -> Result<u8, Error> {
            Ok(self.take(1)?[0])
        }
        fn peek(&self) -> Result<u8, Error> {
            self.input.first().copied().ok_or_else(short)
        }
        fn fixed<const N: usize>(&mut self) -> Result<[u8; N], Error> {
            let mut a = [0; N];
            a.copy_from_slice(self.take(N)?);
            Ok(a)
        }
        fn varint(&mut self) -> Result<u64, Error> {
            let mut v = 0u64;
            for shift in (0..64).step_by(7) {
                let b = self.byte()?;
                v |= u64::from(b & 0x7f) << shift;
                if b < 0x80 {
                    return Ok(v);
                }
            }
            Err(Error("a length too long".into()))
        }
        fn len(&mut self) -> Result<usize, Error> {
            let n = self.varint()?;
            usize::try_from(n).map_err(|_| Error("a length too long".into()))
        }
        fn count(&mut self) -> Result<u32, Error> {
            Ok(u32::from_le_bytes(self.fixed()?))
        }
        fn name(&mut self) -> Result<&'static str, Error> {
            let i = self.len()?;
            self.keys.get(i).copied().ok_or_else(|| Error("a name not in the spool's table".into()))
        }
        fn str(&mut self) -> Result<&'de str, Error> {
            let n = self.len()?;
            std::str::from_utf8(self.take(n)?).map_err(|e| Error(e.to_string()))
        }
    }

    impl<'de> de::Deserializer<'de> for &mut De<'de, '_> {
        type Error = Error;

        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.byte()? {
                NONE => visitor.visit_none(),
                SOME => visitor.visit_some(self),
                UNIT => visitor.visit_unit(),
                FALSE => visitor.visit_bool(false),
                TRUE => visitor.visit_bool(true),
                U64 => visitor.visit_u64(u64::from_le_bytes(self.fixed()?)),
                I64 => visitor.visit_i64(i64::from_le_bytes(self.fixed()?)),
                F64 => visitor.visit_f64(f64::from_le_bytes(self.fixed()?)),
                CHAR => {
                    let c = char::from_u32(u32::from_le_bytes(self.fixed()?)).ok_or_else(|| Error("not a character".into()))?;
                    visitor.visit_char(c)
                }
                STR => visitor.visit_borrowed_str(self.str()?),
                BYTES => {
                    let n = self.len()?;
                    visitor.visit_borrowed_bytes(self.take(n)?)
                }
                SEQ => {
                    let left = self.count()?;
                    visitor.visit_seq(Items { de: self, left, fields: false })
                }
                MAP => {
                    let left = self.count()?;
                    visitor.visit_map(Items { de: self, left, fields: false })
                }
                STRUCT => {
                    let left = self.count()?;
                    visitor.visit_map(Items { de: self, left, fields: true })
                }
                UNIT_VARIANT => visitor.visit_borrowed_str(self.name()?),
                // Only an enum's own `Deserialize` reads a variant with
                // content (`deserialize_enum`), never a self-describing one.
                NEWTYPE_VARIANT | TUPLE_VARIANT | STRUCT_VARIANT => Err(Error("an enum's variant where any value was asked for".into())),
                t => Err(Error(format!("unknown tag {t}"))),
            }
        }

        fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.peek()? {
                NONE | UNIT => {
                    self.byte()?;
                    visitor.visit_none()
                }
                SOME => {
                    self.byte()?;
                    visitor.visit_some(self)
                }
                _ => visitor.visit_some(self),
            }
        }

        fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Error> {
            visitor.visit_newtype_struct(self)
        }

        fn deserialize_enum<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
            let tag = self.byte()?;
            let variant = match tag {
                STR => self.str()?,
                UNIT_VARIANT | NEWTYPE_VARIANT | TUPLE_VARIANT | STRUCT_VARIANT => self.name()?,
                t => return Err(Error(format!("tag {t} where an enum was asked for"))),
            };
            visitor.visit_enum(Variant { de: self, variant, tag })
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf unit unit_struct seq tuple
            tuple_struct map struct identifier ignored_any
        }
    }

    /// The items of a list, map or struct.
    struct Items<'a, 'de, 'k> {
        de: &'a mut De<'de, 'k>,
        left: u32,
        /// A struct's: keys are names in the table.
        fields: bool,
    }

    impl<'de> de::SeqAccess<'de> for Items<'_, 'de, '_> {
        type Error = Error;
        fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
            if self.left == 0 {
                return Ok(None);
            }
            self.left -= 1;
            seed.deserialize(&mut *self.de).map(Some)
        }
        fn size_hint(&self) -> Option<usize> {
            Some(self.left as usize)
        }
    }

    impl<'de> de::MapAccess<'de> for Items<'_, 'de, '_> {
        type Error = Error;
        fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
            if self.left == 0 {
                return Ok(None);
            }
            self.left -= 1;
            if self.fields {
                let name = self.de.name()?;
                seed.deserialize(de::value::BorrowedStrDeserializer::new(name)).map(Some)
            } else {
                seed.deserialize(&mut *self.de).map(Some)
            }
        }
        fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
            seed.deserialize(&mut *self.de)
        }
        fn size_hint(&self) -> Option<usize> {
            Some(self.left as usize)
        }
    }

    /// An enum's variant, its name read.
    struct Variant<'a, 'de, 'k> {
        de: &'a mut De<'de, 'k>,
        variant: &'de str,
        tag: u8,
    }

    impl<'a, 'de, 'k> de::EnumAccess<'de> for Variant<'a, 'de, 'k> {
        type Error = Error;
        type Variant = Self;
        fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
            let v = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(self.variant))?;
            Ok((v, self))
        }
    }

    impl<'de> de::VariantAccess<'de> for Variant<'_, 'de, '_> {
        type Error = Error;
        fn unit_variant(self) -> Result<(), Error> {
            match self.tag {
                STR | UNIT_VARIANT => Ok(()),
                _ => Err(Error("a variant with content where a unit variant was asked for".into())),
            }
        }
        fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
            if self.tag != NEWTYPE_VARIANT {
                return Err(Error("not a newtype variant".into()));
            }
            seed.deserialize(&mut *self.de)
        }
        fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, Error> {
            if self.tag != TUPLE_VARIANT {
                return Err(Error("not a tuple variant".into()));
            }
            let left = self.de.count()?;
            visitor.visit_seq(Items { de: self.de, left, fields: false })
        }
        fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
            if self.tag != STRUCT_VARIANT {
                return Err(Error("not a struct variant".into()));
            }
            let left = self.de.count()?;
            visitor.visit_map(Items { de: self.de, left, fields: true })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape serde has, as the spooled types use them: fields skipped
    /// when empty and read back by default, options, enums of each kind,
    /// maps, tuples, numbers at their limits, text that JSON would escape.
    #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
    struct Every {
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<String>,
        #[serde(skip_serializing_if = "std::ops::Not::not", default)]
        flag: bool,
        #[serde(rename = "type")]
        renamed: Option<u32>,
        order: Option<crate::model::ReplaceOrder>,
        made: Vec<Shape>,
        numbers: (u64, i64, f64, u8, i8, char),
        map: std::collections::BTreeMap<String, Vec<bool>>,
        value: serde_json::Value,
        unit: (),
        bytes: serde_bytes_like::Bytes,
    }

    #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
    enum Shape {
        Left,
        Newtype(String),
        Tuple(u64, String),
        First { label: String, count: usize, keys: Vec<String> },
    }

    /// Bytes serialized as bytes (`serialize_bytes`), not as a list.
    mod serde_bytes_like {
        #[derive(Debug, PartialEq)]
        pub(super) struct Bytes(pub(super) Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
        impl<'de> serde::Deserialize<'de> for Bytes {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = Bytes;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("bytes")
                    }
                    fn visit_bytes<E>(self, v: &[u8]) -> Result<Bytes, E> {
                        Ok(Bytes(v.to_vec()))
                    }
                }
                d.deserialize_bytes(V)
            }
        }
    }

    fn every(i: u64) -> Every {
        let value = serde_json::from_str(&format!(
            r#"{{"n":{i},"big":123456789012345678901234567890,"f":1.50,"neg":-7,"s":"a\"b\n\u0007","l":[null,true,{{}},[]],"o":{{"z":1,"a":2}}}}"#
        ))
        .unwrap();
        Every {
            text: format!("line\n{i} \"quoted\" \u{1b}[31m é"),
            skipped: (i % 2 == 0).then(|| "kept".into()),
            flag: i % 3 == 0,
            renamed: (i % 5 != 0).then_some(i as u32),
            order: match i % 3 {
                0 => None,
                1 => Some(crate::model::ReplaceOrder::DeleteBeforeCreate),
                _ => Some(crate::model::ReplaceOrder::CreateBeforeDestroy),
            },
            made: vec![
                Shape::Left,
                Shape::Newtype("n".into()),
                Shape::Tuple(i, "t".into()),
                Shape::First { label: "x[*]".into(), count: i as usize, keys: vec!["a".into(), String::new()] },
            ],
            numbers: (u64::MAX - i, i64::MIN + i as i64, -0.5 * i as f64, 255, -128, 'ß'),
            map: [("k".to_string(), vec![true, false]), (String::new(), vec![])].into_iter().collect(),
            value,
            unit: (),
            bytes: serde_bytes_like::Bytes(vec![0, 255, b'\n']),
        }
    }

    #[test]
    fn every_shape_comes_back_as_it_went_and_json_values_keep_their_text() {
        let mut r: Records<Every> = Records::with_block(1 << 10);
        for i in 0..500 {
            r.push(&every(i)).unwrap();
        }
        assert!(r.file.is_some());
        let mut i = 0;
        r.each(|e| {
            let want = every(i);
            assert_eq!(e.value.to_string(), want.value.to_string(), "numbers keep their text");
            assert_eq!(e, want);
            i += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(i, 500);
    }

    #[test]
    fn a_record_cut_short_or_changed_is_an_error_never_a_panic() {
        let mut keys = codec::Keys::default();
        let mut bytes = Vec::new();
        codec::encode(&every(7), &mut bytes, &mut keys).unwrap();
        assert_eq!(codec::decode::<Every>(&bytes, &keys).unwrap(), every(7));
        for cut in 0..bytes.len() {
            assert!(codec::decode::<Every>(&bytes[..cut], &keys).is_err(), "cut at {cut}");
        }
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 0x5a;
            let _ = codec::decode::<Every>(&changed, &keys);
        }
        let mut longer = bytes.clone();
        longer.push(codec::NONE);
        assert!(codec::decode::<Every>(&longer, &keys).is_err(), "bytes left over");
    }

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
