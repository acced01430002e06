//! Links from a source location to its lines on the forge (GitHub, GitLab),
//! made from what the CI's environment says, for markdown (the PR comment):
//! `[`address`](https://github.com/o/r/blob/SHA/main.tf#L4-L7)`, else
//! `` `address` at `main.tf:4` ``. Every part taken from the environment or
//! the configuration is checked or percent-encoded: a link never carries a
//! control character, a space, a quote, a parenthesis or a `|`.

use super::md_code;
use crate::model::Location;
use std::path::{Component, Path, PathBuf};

/// Where a commit's files are shown on the forge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forge {
    /// `https://github.com/OWNER/REPO/blob/SHA/` or `https://gitlab.example/GROUP/PROJECT/-/blob/SHA/`.
    blob: String,
    /// Line anchors as GitHub writes them (`#L4-L7`), else as GitLab does (`#L4-7`).
    github: bool,
    /// The current directory below the checkout's root (`infra/`, or empty):
    /// locations are relative to the current directory, the forge's paths to the root.
    prefix: PathBuf,
}

/// A URL from the environment: `http(s)://` and only characters that need no
/// escaping in a markdown link (no space, quote, parenthesis, `<`, `>`, `|`,
/// backslash or control character).
fn safe_url(s: &str) -> Option<&str> {
    let s = s.trim_end_matches('/');
    let ok = (s.starts_with("https://") || s.starts_with("http://"))
        && s.len() > "https://".len()
        && s.len() <= 2048
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~:/@%+=".contains(&b));
    ok.then_some(s)
}

/// A commit: 7 to 64 hex digits.
fn safe_sha(s: &str) -> Option<&str> {
    (7..=64).contains(&s.len()).then_some(s).filter(|s| s.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `OWNER/REPO` of letters, digits, `-`, `_` and `.`.
fn safe_repo(s: &str) -> Option<&str> {
    let (owner, name) = s.split_once('/')?;
    let part = |p: &str| !p.is_empty() && p != "." && p != ".." && p.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    (part(owner) && part(name)).then_some(s)
}

impl Forge {
    /// From the CI's environment (`get` reads a variable): GitHub Actions'
    /// `GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`, `GITHUB_SHA`, else GitLab CI's
    /// `CI_PROJECT_URL`, `CI_COMMIT_SHA`; `None` when they do not say (or
    /// hold what a URL cannot). `cwd` below `checkout` gives the prefix.
    pub fn from_env(get: &dyn Fn(&str) -> Option<String>, cwd: Option<&Path>, checkout: Option<&Path>) -> Option<Forge> {
        let prefix = match (cwd, checkout) {
            (Some(cwd), Some(root)) => cwd.strip_prefix(root).map(Path::to_path_buf).unwrap_or_default(),
            _ => PathBuf::new(),
        };
        let github = || -> Option<Forge> {
            let server = get("GITHUB_SERVER_URL")?;
            let repo = get("GITHUB_REPOSITORY")?;
            let sha = get("GITHUB_SHA")?;
            let blob = format!("{}/{}/blob/{}/", safe_url(&server)?, safe_repo(&repo)?, safe_sha(&sha)?);
            Some(Forge { blob, github: true, prefix: prefix.clone() })
        };
        let gitlab = || -> Option<Forge> {
            let project = get("CI_PROJECT_URL")?;
            let sha = get("CI_COMMIT_SHA")?;
            let blob = format!("{}/-/blob/{}/", safe_url(&project)?, safe_sha(&sha)?);
            Some(Forge { blob, github: false, prefix: prefix.clone() })
        };
        github().or_else(gitlab)
    }

    /// The URL of `loc`'s lines; `None` for a file outside the checkout (an
    /// absolute path, or a `../` that climbs above its root).
    pub fn url(&self, loc: &Location) -> Option<String> {
        let file = Path::new(&loc.file);
        if file.is_absolute() {
            return None;
        }
        let mut parts: Vec<String> = Vec::new();
        for c in self.prefix.join(file).components() {
            match c {
                Component::Normal(p) => parts.push(p.to_str()?.to_string()),
                Component::CurDir => {}
                Component::ParentDir => {
                    parts.pop()?;
                }
                _ => return None,
            }
        }
        if parts.is_empty() {
            return None;
        }
        let path: Vec<String> = parts.iter().map(|p| percent_encode(p)).collect();
        let lines = match (loc.line, loc.end_line) {
            (l, e) if e > l && self.github => format!("#L{l}-L{e}"),
            (l, e) if e > l => format!("#L{l}-{e}"),
            (l, _) => format!("#L{l}"),
        };
        Some(format!("{}{}{lines}", self.blob, path.join("/")))
    }
}

/// One path segment, every byte but the unreserved ones percent-encoded.
fn percent_encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A markdown address (`address` already a code span) with where it is
/// declared: the address linked to its lines when the forge is known, else
/// followed by `` at `main.tf:12` ``; as it is without a location.
pub(crate) fn md_address(code: String, location: Option<&Location>, forge: Option<&Forge>) -> String {
    let Some(loc) = location else { return code };
    match forge.and_then(|f| f.url(loc)) {
        Some(url) => format!("[{code}]({url})"),
        None => format!("{code} at {}", md_code(&loc.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    fn loc(file: &str, line: u32, end_line: u32) -> Location {
        Location { file: file.into(), line, end_line }
    }

    const GH: &[(&str, &str)] =
        &[("GITHUB_SERVER_URL", "https://github.com"), ("GITHUB_REPOSITORY", "acme/infra"), ("GITHUB_SHA", "0123456789abcdef0123")];

    #[test]
    fn github_and_gitlab_links_from_the_environment() {
        let f = Forge::from_env(&env(GH), None, None).unwrap();
        assert_eq!(f.url(&loc("main.tf", 4, 7)).unwrap(), "https://github.com/acme/infra/blob/0123456789abcdef0123/main.tf#L4-L7");
        assert_eq!(f.url(&loc("a/b.tf", 4, 4)).unwrap(), "https://github.com/acme/infra/blob/0123456789abcdef0123/a/b.tf#L4");
        let gl = [("CI_PROJECT_URL", "https://gitlab.example.com/g/sub/p"), ("CI_COMMIT_SHA", "abcdef0")];
        let f = Forge::from_env(&env(&gl), None, None).unwrap();
        assert_eq!(f.url(&loc("main.tf", 2, 9)).unwrap(), "https://gitlab.example.com/g/sub/p/-/blob/abcdef0/main.tf#L2-9");
        assert_eq!(Forge::from_env(&env(&[]), None, None), None);
    }

    #[test]
    fn paths_are_relative_to_the_checkout_root_and_percent_encoded() {
        let f = Forge::from_env(&env(GH), Some(Path::new("/w/repo/infra")), Some(Path::new("/w/repo"))).unwrap();
        let u = f.url(&loc("mod dir/(x)|y`.tf", 1, 2)).unwrap();
        assert!(u.ends_with("/infra/mod%20dir/%28x%29%7Cy%60.tf#L1-L2"), "{u}");
        assert!(f.url(&loc("../shared/main.tf", 1, 1)).unwrap().ends_with("/blob/0123456789abcdef0123/shared/main.tf#L1"));
        // Outside the checkout: no link.
        assert_eq!(f.url(&loc("../../x/main.tf", 1, 1)), None);
        assert_eq!(f.url(&loc("/etc/main.tf", 1, 1)), None);
    }

    #[test]
    fn what_the_environment_says_is_checked() {
        let bad = |k: &str, v: &str| {
            let vars: Vec<(&str, &str)> = GH.iter().map(|&(n, x)| if n == k { (n, v) } else { (n, x) }).collect();
            let forge = Forge::from_env(&env(&vars), None, None);
            forge
        };
        assert_eq!(bad("GITHUB_SERVER_URL", "javascript:alert(1)"), None);
        assert_eq!(bad("GITHUB_SERVER_URL", "https://x.com/a)(b"), None);
        assert_eq!(bad("GITHUB_SERVER_URL", "https://x.com/\x1b[31m"), None);
        assert_eq!(bad("GITHUB_REPOSITORY", "a/b c"), None);
        assert_eq!(bad("GITHUB_REPOSITORY", "../x"), None);
        assert_eq!(bad("GITHUB_SHA", "main"), None);
    }

    #[test]
    fn markdown_addresses_link_or_name_their_line() {
        let f = Forge::from_env(&env(GH), None, None).unwrap();
        let l = loc("main.tf", 12, 14);
        assert_eq!(
            md_address("`a.b`".into(), Some(&l), Some(&f)),
            "[`a.b`](https://github.com/acme/infra/blob/0123456789abcdef0123/main.tf#L12-L14)"
        );
        assert_eq!(md_address("`a.b`".into(), Some(&l), None), "`a.b` at `main.tf:12`");
        assert_eq!(md_address("`a.b`".into(), None, Some(&f)), "`a.b`");
        // A file name with markdown and a control character, no forge: one safe code span.
        let odd = loc("x|`y\u{1b}.tf", 3, 3);
        let s = md_address("`a`".into(), Some(&odd), None);
        assert!(!s.contains('\u{1b}') && !s.contains("x|"), "{s}");
    }
}
