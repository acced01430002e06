//! What a run may show ([`Visibility`]): `--show-sensitive`, and the secrets
//! of the document to mask by value.

use super::Masker;

/// What the user allowed us to show, and the secrets of the document.
#[derive(Debug, Clone, Copy, Default)]
pub struct Visibility<'m> {
    /// `--show-sensitive`: print values marked sensitive.
    pub show_sensitive: bool,
    /// The document's secrets, for masking by value.
    pub masker: Option<&'m Masker>,
}

impl<'m> Visibility<'m> {
    /// Text taken from the input as it may be printed ([`Masker::mask_text`]),
    /// as is with `--show-sensitive` or without a masker.
    pub fn text<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        match self.masker {
            Some(m) if !self.show_sensitive => m.mask_text(text),
            _ => std::borrow::Cow::Borrowed(text),
        }
    }

    /// A JSON value taken from the input as it may be printed ([`Masker::mask_json`]).
    pub fn json(&self, v: &serde_json::Value) -> serde_json::Value {
        match self.masker {
            Some(m) if !self.show_sensitive => m.mask_json(v),
            _ => v.clone(),
        }
    }

    /// The same visibility with a document's secrets.
    pub fn with<'n>(&self, masker: &'n Masker) -> Visibility<'n> {
        Visibility { show_sensitive: self.show_sensitive, masker: Some(masker) }
    }

    /// True when a value must be withheld: marked sensitive, or holding a
    /// secret known from elsewhere in the document.
    pub fn must_mask(&self, marked: bool, value: Option<&serde_json::Value>) -> bool {
        if self.show_sensitive {
            return false;
        }
        marked || matches!((self.masker, value), (Some(m), Some(v)) if m.value_holds_secret(v))
    }
}
