//! Progress on stderr while big inputs are read: one bar per input (bytes
//! read, rate; a spinner when the size is unknown), drawn by indicatif and
//! cleared when the input has been read. Only `main` turns it on (stderr a
//! terminal, not CI, no `--quiet`); everywhere else it is [`Progress::off`]
//! and costs nothing.

use std::io::Read;

/// Inputs at least this big (or pipes once this much has come) get a bar.
pub const THRESHOLD: u64 = 50 << 20;

/// Reads are cut into pieces of at most this many bytes while a bar may be
/// drawn, so a file read in one go still moves its bar.
const PIECE: usize = 1 << 20;

/// Where bars are drawn, shared by every input of a run (and its threads).
/// Not part of the options' value: any two compare equal.
#[derive(Clone, Default)]
pub struct Progress(Option<indicatif::MultiProgress>);

impl Progress {
    /// No bars (libraries, tests, pipes, CI, `--quiet`).
    pub fn off() -> Progress {
        Progress(None)
    }

    /// Bars on stderr. The caller has decided they are wanted ([`wanted`]).
    pub fn on_stderr() -> Progress {
        Progress(Some(indicatif::MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::stderr())))
    }

    pub fn is_on(&self) -> bool {
        self.0.is_some()
    }

    /// The run is over: clear any bar still drawn (an input left unread after
    /// an error) and draw nothing more, so messages that follow stand alone.
    pub fn done(&self) {
        if let Some(multi) = &self.0 {
            let _ = multi.clear();
            multi.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
    }

    /// `inner`, counting the bytes read from it into a bar named after the
    /// input `name`. `size`: the input's length when it is a regular file
    /// (a bar with a total when it is at least [`THRESHOLD`], none when
    /// smaller); `None` for a pipe (a spinner once [`THRESHOLD`] bytes came).
    pub fn reader<R: Read>(&self, name: &str, size: Option<u64>, inner: R) -> Counted<R> {
        let multi = self.0.clone().filter(|_| size.is_none_or(|s| s >= THRESHOLD));
        // Made now, drawn once wanted: the rate counts from the first byte.
        let bar = multi.as_ref().map(|_| new_bar(name, size));
        Counted { inner, read: 0, size, multi, bar, shown: false }
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.is_on() { "Progress(on)" } else { "Progress(off)" })
    }
}

impl PartialEq for Progress {
    fn eq(&self, _: &Progress) -> bool {
        true
    }
}

impl Eq for Progress {}

/// Whether bars are wanted: stderr is a terminal, the run is not in CI (`CI`
/// set to a non-empty value) and `--quiet` was not given.
pub fn wanted(quiet: bool, stderr_is_terminal: bool, ci: bool) -> bool {
    !quiet && stderr_is_terminal && !ci
}

/// The input's name as a bar shows it: one line, no terminal controls, at
/// most 40 characters (the end kept: it tells files apart).
fn label(name: &str) -> String {
    let safe = crate::sanitize::line(name);
    let chars: Vec<char> = safe.chars().collect();
    if chars.len() <= 40 {
        return safe.into_owned();
    }
    let tail: String = chars[chars.len() - 39..].iter().collect();
    format!("…{tail}")
}

/// A reader that advances a progress bar (see [`Progress::reader`]).
pub struct Counted<R> {
    inner: R,
    read: u64,
    size: Option<u64>,
    /// Where to draw, while a bar may still be wanted.
    multi: Option<indicatif::MultiProgress>,
    /// The bar, drawn nowhere until `shown`.
    bar: Option<indicatif::ProgressBar>,
    shown: bool,
}

impl<R> Counted<R> {
    /// The bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.read
    }

    /// True while a bar is drawn.
    pub fn is_drawing(&self) -> bool {
        self.shown && self.bar.is_some()
    }

    fn advance(&mut self) {
        let Some(bar) = &self.bar else { return };
        bar.set_position(self.read);
        if !self.shown && (self.size.is_some() || self.read >= THRESHOLD) {
            if let Some(multi) = &self.multi {
                multi.add(bar.clone());
                self.shown = true;
            }
        }
    }

    /// Done: the bar is taken off the screen, and never drawn again.
    fn finish(&mut self) {
        self.multi = None;
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A bar for the input `name` (a spinner when its size is unknown), drawn nowhere yet.
fn new_bar(name: &str, size: Option<u64>) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let template = match size {
        Some(_) => "{prefix} [{bar:30}] {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec}",
        None => "{prefix} {spinner} {binary_bytes} {binary_bytes_per_sec}",
    };
    let style = ProgressStyle::with_template(template).map(|s| s.progress_chars("=> "));
    ProgressBar::with_draw_target(size, ProgressDrawTarget::hidden())
        .with_style(style.unwrap_or_else(|_| ProgressStyle::default_bar()))
        .with_prefix(format!("reading {}", label(name)))
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.multi.is_none() {
            let n = self.inner.read(buf)?;
            self.read += n as u64;
            return Ok(n);
        }
        let len = buf.len().min(PIECE);
        let n = self.inner.read(&mut buf[..len])?;
        self.read += n as u64;
        if n == 0 && len > 0 {
            self.finish();
        } else {
            self.advance();
        }
        Ok(n)
    }
}

impl<R> Drop for Counted<R> {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wanted_only_on_a_terminal_outside_ci_without_quiet() {
        assert!(wanted(false, true, false));
        assert!(!wanted(true, true, false), "--quiet");
        assert!(!wanted(false, false, false), "a pipe");
        assert!(!wanted(false, true, true), "CI");
    }

    #[test]
    fn counts_every_byte_and_draws_only_over_the_threshold() {
        // A hidden target: bars are made and advanced as on a terminal, drawn nowhere.
        let hidden = Progress(Some(indicatif::MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::hidden())));
        let data = vec![b'x'; 3 * PIECE + 5];
        let mut small = hidden.reader("small.json", Some(data.len() as u64), &data[..]);
        let mut out = Vec::new();
        small.read_to_end(&mut out).unwrap();
        assert_eq!((out.len(), small.bytes_read()), (data.len(), data.len() as u64));
        assert!(!small.is_drawing() && small.bar.is_none(), "a small file never gets a bar");

        let mut big = hidden.reader("big.json", Some(THRESHOLD), &data[..]);
        let mut piece = vec![0; 4 * PIECE];
        assert_eq!(big.read(&mut piece).unwrap(), PIECE, "reads are cut into pieces");
        assert!(big.is_drawing());
        let mut rest = Vec::new();
        big.read_to_end(&mut rest).unwrap();
        assert_eq!(PIECE + rest.len(), data.len());
        assert!(!big.is_drawing(), "cleared at the end of the input");

        let mut pipe = hidden.reader("<stdin>", None, &data[..]);
        let mut first = vec![0; 16];
        pipe.read_exact(&mut first).unwrap();
        assert!(!pipe.is_drawing(), "a pipe gets a spinner only after THRESHOLD bytes");

        let mut off = Progress::off().reader("big.json", Some(THRESHOLD), &data[..]);
        assert_eq!(off.read(&mut piece).unwrap(), data.len(), "off: reads are not cut");
        assert!(!off.is_drawing());
    }

    #[test]
    fn labels_are_one_safe_short_line() {
        assert_eq!(label("plan.json"), "plan.json");
        let l = label("a\u{1b}[31mb\nc");
        assert!(!l.contains('\u{1b}') && !l.contains('\n'), "{l:?}");
        let long = format!("{}/plan.json", "d".repeat(100));
        assert_eq!(label(&long).chars().count(), 40);
        assert!(label(&long).ends_with("/plan.json"));
    }
}
