//! The one end of every run: the output [`Sink`] (which stops the run's
//! rendering once the reader went away), the answer rendered through the
//! format's renderer ([`answer`]), the inputs' errors gathered ([`finish`]),
//! and the verdict weighed against the output ([`verdict_over_output`]).

use crate::error::{Error, InputError};
use crate::mask;
use crate::outcome::{PerFile, Status};
use crate::render::format::{Answer, Ctx};
use crate::render::{self, Format};
use std::io::{self, Write};

/// The output. The first write that fails (a reader gone away: `planview
/// show BIG | head -1`) is remembered, and every write after it fails at
/// once, so the renderer stops there instead of rendering the rest for
/// nobody. The runner carries on to its verdict ([`Sink::written`]), and the
/// run ends with it ([`verdict_over_output`]).
pub(crate) struct Sink<'a> {
    out: &'a mut dyn Write,
    error: Option<io::Error>,
}

impl<'a> Sink<'a> {
    pub(crate) fn new(out: &'a mut dyn Write) -> Self {
        Sink { out, error: None }
    }

    /// The write error that stopped the output, if any.
    pub(crate) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// The outcome of rendering to this sink: an error met because the output
    /// stopped is no error of the run (the write error is remembered here and
    /// weighed by [`verdict_over_output`]), so the runner goes on to its
    /// verdict; any other error is the run's.
    pub(crate) fn written(&self, rendered: io::Result<()>) -> Result<(), Error> {
        match rendered {
            Err(_) if self.error.is_some() => Ok(()),
            other => Ok(other?),
        }
    }

    /// The error every write returns once the output stopped.
    fn stopped(&self) -> io::Error {
        let kind = self.error.as_ref().map_or(io::ErrorKind::BrokenPipe, io::Error::kind);
        io::Error::new(kind, "the output was closed")
    }
}

impl Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.error.is_some() {
            return Err(self.stopped());
        }
        match self.out.write_all(buf) {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                self.error = Some(e);
                Err(self.stopped())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.error.is_some() {
            return Err(self.stopped());
        }
        self.out.flush().map_err(|e| {
            self.error = Some(e);
            self.stopped()
        })
    }
}

/// The outcome of a run whose output was written with `written`: a failure to
/// write never hides a failing verdict or an input error (a reader that went
/// away early, `planview gate plan.json | head -1`, must not turn exit 1 into
/// 0). Only a run that succeeded reports the write error, which `main` maps to
/// exit 0 for a broken pipe.
pub fn verdict_over_output(status: Result<Status, Error>, written: io::Result<()>) -> Result<Status, Error> {
    match (status, written) {
        (status, Ok(())) => status,
        (Ok(Status::Success), Err(e)) => Err(Error::Output(e)),
        (Ok(Status::Failed), Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(Status::Failed),
        // Any other write error on a failing verdict is exit 2: still not a pass.
        (Ok(Status::Failed), Err(e)) => Err(Error::Output(e)),
        (Err(e), Err(_)) => Err(e),
    }
}

/// `e` with every secret the scrubber knows masked in its messages and hints.
pub(super) fn scrub_error(e: Error, s: &mask::Scrubber) -> Error {
    let text = |t: String| String::from_utf8_lossy(&s.scrub(t.as_bytes())).into_owned();
    match e {
        Error::Usage(m) => Error::Usage(text(m)),
        Error::Input(errs) => {
            Error::Input(errs.into_iter().map(|e| InputError { message: text(e.message), hint: e.hint.map(text), ..e }).collect())
        }
        other => other,
    }
}

/// Collect the inputs' secrets into `masker` (for warnings and errors) and
/// write `answer` in `format` through its renderer ([`render::format`]).
pub(super) fn answer<T>(
    format: Format,
    ctx: &Ctx,
    items: &[PerFile<T>],
    answer: &Answer<'_, '_>,
    out: &mut Sink<'_>,
    masker: &mut mask::Masker,
) -> Result<(), Error> {
    items.iter().for_each(|i| masker.merge(&i.masker));
    let single_error = items.len() == 1 && items[0].result.is_err();
    let rendered = render::format::write(format, answer, single_error, ctx, out);
    out.written(rendered)
}

/// Success unless some input failed, in which case every failure is returned.
pub(super) fn finish<T>(items: &[PerFile<T>]) -> Result<Status, Error> {
    let errs: Vec<InputError> = items.iter().filter_map(|i| i.result.as_ref().err().cloned()).collect();
    if errs.is_empty() {
        Ok(Status::Success)
    } else {
        Err(Error::Input(errs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that takes `room` bytes, then fails as a closed pipe does.
    struct Pipe {
        room: usize,
        got: Vec<u8>,
        tries: usize,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.tries += 1;
            if self.got.len() + buf.len() > self.room {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            self.got.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Once a write fails, the sink stops: every later write fails without
    /// reaching the output, the error is kept, and what the renderer met
    /// because of it is no error of the run.
    #[test]
    fn the_sink_stops_at_the_first_failed_write_and_keeps_its_error() {
        let mut pipe = Pipe { room: 4, got: Vec::new(), tries: 0 };
        let mut sink = Sink::new(&mut pipe);
        assert!(sink.write_all(b"abcd").is_ok());
        let first = sink.write_all(b"efgh").unwrap_err();
        assert_eq!(first.kind(), io::ErrorKind::BrokenPipe);
        for _ in 0..100 {
            assert_eq!(sink.write_all(b"more").unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        }
        assert!(sink.flush().is_err());
        assert!(sink.written(Err(io::Error::other("wrapped by a renderer"))).is_ok());
        assert_eq!(sink.take_error().map(|e| e.kind()), Some(io::ErrorKind::BrokenPipe));
        // Only two writes reached the output: the one that fit and the one that failed.
        assert_eq!((pipe.got.as_slice(), pipe.tries), (&b"abcd"[..], 2));
    }

    /// An error met while the output is still open is the run's.
    #[test]
    fn an_error_before_the_output_stopped_is_the_runs() {
        let mut out = Vec::new();
        let sink = Sink::new(&mut out);
        assert!(matches!(sink.written(Err(io::Error::other("temporary file gone"))), Err(Error::Output(_))));
        assert!(sink.written(Ok(())).is_ok());
    }

    #[test]
    fn a_closed_output_never_hides_a_failing_verdict() {
        let pipe = || Err(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(matches!(verdict_over_output(Ok(Status::Failed), pipe()), Ok(Status::Failed)));
        assert!(matches!(verdict_over_output(Ok(Status::Success), pipe()), Err(Error::Output(_))));
        assert!(matches!(verdict_over_output(Err(Error::Usage("u".into())), pipe()), Err(Error::Usage(_))));
        assert!(matches!(verdict_over_output(Ok(Status::Failed), Err(io::Error::other("disk full"))), Err(Error::Output(_))));
    }
}
