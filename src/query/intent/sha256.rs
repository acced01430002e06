//! SHA-256 (FIPS 180-4) for plan fingerprints: the `sha2` crate (already
//! a dependency, for the derived forms of secrets: [`crate::derive`]), which
//! uses the CPU's SHA extensions where it has them (detected at run time),
//! behind the small interface the fingerprint code was written against.

use sha2::Digest;

/// An incremental SHA-256.
#[derive(Debug, Clone, Default)]
pub(super) struct Sha256(sha2::Sha256);

impl Sha256 {
    pub(super) fn update(&mut self, data: &[u8]) {
        self.0.update(data);
    }

    /// The digest as 64 lowercase hex digits.
    pub(super) fn hex(self) -> String {
        let mut s = String::with_capacity(64);
        for b in self.finish() {
            s.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
            s.push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0'));
        }
        s
    }

    /// The digest.
    pub(super) fn finish(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

/// The SHA-256 of `data`, as hex.
pub(super) fn hex(data: &[u8]) -> String {
    let mut h = Sha256::default();
    h.update(data);
    h.hex()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_answers() {
        assert_eq!(hex(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(
            hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        let million = vec![b'a'; 1_000_000];
        assert_eq!(hex(&million), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        // Fed in pieces that straddle blocks: the same digest.
        let mut h = Sha256::default();
        for piece in million.chunks(63) {
            h.update(piece);
        }
        assert_eq!(h.hex(), hex(&million));
    }
}
