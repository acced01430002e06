//! Resource instance addresses (`module.a["k"].aws_instance.web[0]`): parsed from
//! the plan's text and written back in canonical HCL traversal syntax, so that an
//! address can go into a `moved` block or a shell command without surprises.

use std::fmt;

/// An instance key: a count index or a for_each key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Key {
    /// A count index, digits as written.
    Int(String),
    /// A for_each key, unescaped.
    Str(String),
}

/// One step of an address: `module.NAME[KEY]`, or the resource `[data.]TYPE.NAME[KEY]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Step {
    /// `module`, `data`, or the resource type.
    pub kind: String,
    pub name: String,
    pub key: Option<Key>,
}

/// A parsed resource instance address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Address {
    /// Module steps, then one resource step (last).
    pub steps: Vec<Step>,
}

impl Address {
    /// Parse an address as Terraform and OpenTofu print it.
    pub(crate) fn parse(s: &str) -> Result<Address, String> {
        let mut p = Parser { s: s.as_bytes(), text: s, i: 0 };
        let mut steps = Vec::new();
        loop {
            let first = p.ident()?;
            let kind = if first == "data" || first == "module" {
                first
            } else {
                // A managed resource: `first` is its type.
                p.expect(b'.')?;
                let name = p.ident()?;
                let key = p.key()?;
                steps.push(Step { kind: first, name, key });
                break;
            };
            p.expect(b'.')?;
            if kind == "data" {
                let type_ = p.ident()?;
                p.expect(b'.')?;
                let name = p.ident()?;
                let key = p.key()?;
                steps.push(Step { kind: format!("data.{type_}"), name, key });
                break;
            }
            let name = p.ident()?;
            let key = p.key()?;
            steps.push(Step { kind, name, key });
            p.expect(b'.')?;
        }
        if p.i != p.s.len() {
            return Err(format!("unexpected text after the address at byte {}", p.i));
        }
        Ok(Address { steps })
    }

    /// The resource step (the last one).
    pub(crate) fn resource(&self) -> &Step {
        self.steps.last().expect("an address has a resource step")
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{}.{}", s.kind, s.name)?;
            match &s.key {
                None => {}
                Some(Key::Int(n)) => write!(f, "[{n}]")?,
                Some(Key::Str(k)) => write!(f, "[{}]", hcl_quote(k))?,
            }
        }
        Ok(())
    }
}

pub(crate) use crate::escape::hcl_quote;

struct Parser<'s> {
    s: &'s [u8],
    text: &'s str,
    i: usize,
}

impl Parser<'_> {
    fn ident(&mut self) -> Result<String, String> {
        let start = self.i;
        while let Some(&b) = self.s.get(self.i) {
            let ok = b.is_ascii_alphabetic() || b == b'_' || (self.i > start && (b.is_ascii_digit() || b == b'-'));
            if !ok {
                break;
            }
            self.i += 1;
        }
        if self.i == start {
            return Err(format!("expected a name at byte {start}"));
        }
        Ok(self.text[start..self.i].to_string())
    }

    fn expect(&mut self, b: u8) -> Result<(), String> {
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected `{}` at byte {}", b as char, self.i))
        }
    }

    fn key(&mut self) -> Result<Option<Key>, String> {
        if self.s.get(self.i) != Some(&b'[') {
            return Ok(None);
        }
        self.i += 1;
        let key = match self.s.get(self.i) {
            Some(b'"') => Key::Str(self.string()?),
            Some(b) if b.is_ascii_digit() => {
                let start = self.i;
                while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                    self.i += 1;
                }
                Key::Int(self.text[start..self.i].to_string())
            }
            _ => return Err(format!("expected an index or a quoted key at byte {}", self.i)),
        };
        self.expect(b']')?;
        Ok(Some(key))
    }

    /// A quoted HCL string; `self.i` is at the opening quote.
    fn string(&mut self) -> Result<String, String> {
        let start = self.i;
        self.i += 1;
        let mut out = String::new();
        let rest = &self.text[self.i..];
        let mut it = rest.char_indices().peekable();
        while let Some((off, c)) = it.next() {
            match c {
                '"' => {
                    self.i += off + 1;
                    return Ok(out);
                }
                '\\' => {
                    let (_, e) = it.next().ok_or("unfinished escape")?;
                    match e {
                        'n' => out.push('\n'),
                        'r' => out.push('\r'),
                        't' => out.push('\t'),
                        '"' => out.push('"'),
                        '\\' => out.push('\\'),
                        'u' | 'U' => {
                            let n = if e == 'u' { 4 } else { 8 };
                            let mut hex = String::new();
                            for _ in 0..n {
                                hex.push(it.next().ok_or("unfinished \\u escape")?.1);
                            }
                            let v = u32::from_str_radix(&hex, 16).map_err(|_| format!("bad escape \\{e}{hex}"))?;
                            out.push(char::from_u32(v).ok_or_else(|| format!("bad escape \\{e}{hex}"))?);
                        }
                        other => return Err(format!("unknown escape \\{other} in a key")),
                    }
                }
                '$' | '%' if matches!(it.peek(), Some((_, d)) if *d == c) => {
                    // `$${` and `%%{` are a literal `${` / `%{`.
                    let mut look = it.clone();
                    look.next();
                    if matches!(look.peek(), Some((_, '{'))) {
                        it.next();
                    }
                    out.push(c);
                }
                '$' | '%' if matches!(it.peek(), Some((_, '{'))) => {
                    return Err("a template sequence in an instance key".to_string());
                }
                c => out.push(c),
            }
        }
        Err(format!("unterminated key starting at byte {start}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(s: &str) -> String {
        Address::parse(s).unwrap().to_string()
    }

    #[test]
    fn addresses_round_trip() {
        for a in [
            "aws_instance.web",
            "terraform_data.instance[0]",
            r#"terraform_data.instance["alpha"]"#,
            r#"module.a["x"].module.b[2].terraform_data.c["k"]"#,
            "data.terraform_remote_state.x",
            "module.data_tier.terraform_data.db",
            r#"a_b.c-d["with \"quotes\" and \\ and $${x} and %%{y}"]"#,
        ] {
            assert_eq!(round(a), a);
        }
    }

    #[test]
    fn keys_are_unescaped_and_control_characters_rewritten() {
        let a = Address::parse(r#"t.n["a\nb\u001b[31m"]"#).unwrap();
        assert_eq!(a.resource().key, Some(Key::Str("a\nb\u{1b}[31m".into())));
        assert_eq!(a.to_string(), r#"t.n["a\nb\u001B[31m"]"#);
        let a = Address::parse("t.n[\"x\u{202E}y'z\"]").unwrap();
        assert_eq!(a.to_string(), r#"t.n["x\u202Ey'z"]"#);
    }

    #[test]
    fn malformed_addresses_are_refused() {
        for a in ["", "aws_instance", "aws_instance.", "module.m", "t.n[", "t.n[x]", r#"t.n["a"#, "t.n extra", r#"t.n["${x}"]"#, "1a.b"] {
            assert!(Address::parse(a).is_err(), "{a:?} parsed");
        }
    }
}
