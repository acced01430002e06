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
        let ends = Matcher::new(&self.tokens, &a).run();
        (0..=a.len()).any(|end| ends[end] && (end == a.len() || a[end] == '.' || a[end] == '['))
    }

    /// Whole-address match only.
    pub fn matches_exactly(&self, address: &str) -> bool {
        let a: Vec<char> = address.chars().collect();
        Matcher::new(&self.tokens, &a).run()[a.len()]
    }
}

/// For each position `k` of `s`: where the instance key starting there ends
/// (its length), if `s[k]` is `[` and the key closes. Computed right to left in
/// one pass (scanning from each `[` would be quadratic on `[[[[...`).
fn index_lens(s: &[char]) -> Vec<Option<usize>> {
    let n = s.len();
    // close[k][in_str]: the offset of the `]` that closes a key when scanning
    // from `k` outside (0) or inside (1) a quoted string.
    let mut close = vec![[None::<usize>; 2]; n + 2];
    for k in (0..n).rev() {
        close[k][0] = match s[k] {
            ']' => Some(k),
            '"' => close[k + 1][1],
            _ => close[k + 1][0],
        };
        close[k][1] = match s[k] {
            '\\' => close[k + 2][1],
            '"' => close[k + 1][0],
            _ => close[k + 1][1],
        };
    }
    (0..n).map(|k| if s[k] == '[' { close[k + 1][0].map(|e| e + 1 - k) } else { None }).collect()
}

/// Glob matching as a simulation of all pattern positions at once, one address
/// position after another: O(pattern x address) whatever the pattern (a
/// backtracking matcher took minutes on a 6 KB address and three `*`).
struct Matcher<'a> {
    p: &'a [Token],
    s: &'a [char],
}

impl<'a> Matcher<'a> {
    fn new(p: &'a [Token], s: &'a [char]) -> Self {
        Matcher { p, s }
    }

    /// For each end position `e` of the address: whether the whole pattern
    /// matches `s[..e]`.
    fn run(&self) -> Vec<bool> {
        let (m, n) = (self.p.len(), self.s.len());
        let idx = if self.p.contains(&Token::AnyIndex) { index_lens(self.s) } else { Vec::new() };
        let words = (m + 1).div_ceil(64);
        // live[j * words ..]: the pattern positions reached at address position j.
        let mut live = vec![0u64; words * (n + 1)];
        let set = |live: &mut Vec<u64>, j: usize, i: usize| live[j * words + i / 64] |= 1 << (i % 64);
        let get = |live: &Vec<u64>, j: usize, i: usize| live[j * words + i / 64] & (1 << (i % 64)) != 0;
        set(&mut live, 0, 0);
        let mut ends = vec![false; n + 1];
        for (j, end) in ends.iter_mut().enumerate() {
            // In pattern order, so `*` matching nothing passes its position on at once.
            for i in 0..=m {
                if !get(&live, j, i) {
                    continue;
                }
                let Some(t) = self.p.get(i) else {
                    *end = true;
                    continue;
                };
                match t {
                    Token::Star => {
                        set(&mut live, j, i + 1);
                        if j < n {
                            set(&mut live, j + 1, i);
                        }
                    }
                    Token::One if j < n => set(&mut live, j + 1, i + 1),
                    Token::Lit(c) if self.s.get(j) == Some(c) => set(&mut live, j + 1, i + 1),
                    Token::AnyIndex => {
                        if let Some(len) = idx.get(j).copied().flatten() {
                            set(&mut live, j + len, i + 1);
                        }
                    }
                    _ => {}
                }
            }
        }
        ends
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

    /// The plain recursive matcher (exponential on many stars): the reference.
    fn reference(p: &[Token], s: &[char]) -> bool {
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
        match p.first() {
            None => s.is_empty(),
            Some(Token::Star) => (0..=s.len()).any(|k| reference(&p[1..], &s[k..])),
            Some(Token::One) => !s.is_empty() && reference(&p[1..], &s[1..]),
            Some(Token::AnyIndex) => index_len(s).is_some_and(|n| reference(&p[1..], &s[n..])),
            Some(Token::Lit(c)) => s.first() == Some(c) && reference(&p[1..], &s[1..]),
        }
    }

    fn reference_matches(g: &Glob, address: &str) -> bool {
        let a: Vec<char> = address.chars().collect();
        (0..=a.len()).rev().any(|end| (end == a.len() || a[end] == '.' || a[end] == '[') && reference(&g.tokens, &a[..end]))
    }

    #[test]
    fn a_long_address_and_many_stars_match_without_backtracking() {
        // 6 KB of `a.` and a pattern of many stars whose last literal is absent:
        // a backtracking matcher tries every split (it took minutes with three).
        let address = format!("module.{}x", "a.".repeat(3 << 10));
        let stars = format!("{}b", "*a".repeat(40));
        assert!(!Glob::new(&stars).matches(&address));
        assert!(!Glob::new(&stars).matches_exactly(&address));
        let hit = format!("{}x", "*a.".repeat(40));
        assert!(Glob::new(&hit).matches_exactly(&address));
        assert!(Glob::new("module.*a.*a.*a.*").matches(&address));
        // And keys: many `[` that never close, many `[*]` that do.
        let keys = format!("r{}", "[\"a[\"]".repeat(1000));
        assert!(Glob::new(&"*[*]".repeat(30)).matches_exactly(&keys));
        assert!(!Glob::new(&format!("{}?z", "*[*]".repeat(30))).matches(&keys));
        assert!(!Glob::new("*[*]*").matches(&"[".repeat(6 << 10)));
    }

    proptest::proptest! {
        #[test]
        fn the_linear_matcher_agrees_with_the_reference(
            pattern in proptest::collection::vec(proptest::sample::select(vec!["*", "?", "[*]", "a", "b", ".", "[", "]", "\"", "\\"]), 0..8),
            address in proptest::collection::vec(proptest::sample::select(vec!['a', 'b', '.', '[', ']', '"', '\\']), 0..14),
        ) {
            let g = Glob::new(&pattern.concat());
            let a: String = address.into_iter().collect();
            let chars: Vec<char> = a.chars().collect();
            proptest::prop_assert_eq!(g.matches_exactly(&a), reference(&g.tokens, &chars), "{:?} {:?}", g.as_str(), a);
            proptest::prop_assert_eq!(g.matches(&a), reference_matches(&g, &a), "{:?} {:?}", g.as_str(), a);
        }
    }
}
