//! Address globs for `--address`, `--protect`, `--allow`: `*` is any run of
//! characters, `?` one character, `[*]` any one instance key (`[0]`, `["a"]`).
//!
//! A pattern matches an address when it matches the whole address, or a prefix
//! of it that ends where the address goes on with `.` or `[`: so `module.net`
//! matches everything inside that module, and `aws_instance.web` matches every
//! instance of that resource (like `-target`).

/// A compiled address glob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    text: String,
    tokens: Vec<Token>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Lit(char),
    Star,
    One,
    AnyIndex,
}

impl Glob {
    pub fn new(pattern: &str) -> Glob {
        let chars: Vec<char> = pattern.chars().collect();
        let mut tokens = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == '[' && chars.get(i + 1) == Some(&'*') && chars.get(i + 2) == Some(&']') {
                tokens.push(Token::AnyIndex);
                i += 3;
                continue;
            }
            tokens.push(match chars[i] {
                '*' => Token::Star,
                '?' => Token::One,
                c => Token::Lit(c),
            });
            i += 1;
        }
        Glob { text: pattern.to_string(), tokens }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whole-address match, or a match of a prefix ending at `.` or `[`.
    pub fn matches(&self, address: &str) -> bool {
        let a: Vec<char> = address.chars().collect();
        (0..=a.len()).rev().any(|end| (end == a.len() || a[end] == '.' || a[end] == '[') && match_here(&self.tokens, &a[..end]))
    }

    /// Whole-address match only.
    pub fn matches_exactly(&self, address: &str) -> bool {
        let a: Vec<char> = address.chars().collect();
        match_here(&self.tokens, &a)
    }
}

/// Length of the instance key at the start of `s` (`[0]`, `["a]b"]`), if any.
fn index_len(s: &[char]) -> Option<usize> {
    if s.first() != Some(&'[') {
        return None;
    }
    let mut i = 1;
    let mut in_str = false;
    while i < s.len() {
        match s[i] {
            '\\' if in_str => i += 1,
            '"' => in_str = !in_str,
            ']' if !in_str => return Some(i + 1),
            _ => {}
        }
        i += 1;
    }
    None
}

fn match_here(p: &[Token], s: &[char]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(Token::Star) => (0..=s.len()).any(|k| match_here(&p[1..], &s[k..])),
        Some(Token::One) => !s.is_empty() && match_here(&p[1..], &s[1..]),
        Some(Token::AnyIndex) => index_len(s).is_some_and(|n| match_here(&p[1..], &s[n..])),
        Some(Token::Lit(c)) => s.first() == Some(c) && match_here(&p[1..], &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_prefixes_and_any_index() {
        let g = Glob::new("module.net.*");
        assert!(g.matches("module.net.aws_vpc.main"));
        assert!(!g.matches("module.network.aws_vpc.main"));
        assert!(Glob::new("module.net").matches("module.net.aws_vpc.main"));
        assert!(Glob::new("module.net").matches("module.net[\"a\"].aws_vpc.main"));
        assert!(!Glob::new("module.net").matches("module.network.aws_vpc.main"));
        let g = Glob::new("aws_instance.web[*]");
        assert!(g.matches("aws_instance.web[0]"));
        assert!(g.matches("aws_instance.web[\"a]b\"]"));
        assert!(!g.matches("aws_instance.web"));
        assert!(Glob::new("aws_instance.web").matches("aws_instance.web[3]"));
        assert!(!Glob::new("aws_instance.web").matches("aws_instance.webserver"));
        assert!(Glob::new("*.web*").matches("module.a.aws_instance.web2"));
        assert!(Glob::new("aws_s3_bucket.?").matches("aws_s3_bucket.x"));
        assert!(Glob::new("*").matches("anything.at[\"all\"]"));
        assert!(!Glob::new("aws_instance.web").matches_exactly("aws_instance.web[3]"));
    }
}
