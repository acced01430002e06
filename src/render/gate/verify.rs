//! `gate --verify`: each policy test's outcome, one line each, then the counts.

use super::*;
use crate::rego::{Outcome, TestResult};

/// `PASS main.test_x (file:line:col)`, `FAIL ...`, `ERROR ...: why`; then `N test(s): ...`.
pub(crate) fn verify_out(w: &mut dyn Write, results: &[TestResult]) -> io::Result<()> {
    let (mut passed, mut failed, mut errored) = (0, 0, 0);
    for t in results {
        let name = format!("{}.{} ({})", t.rule.namespace, t.rule.name, t.rule.location());
        match &t.outcome {
            Outcome::Pass => {
                passed += 1;
                writeln!(w, "PASS  {}", line(&name))?;
            }
            Outcome::Fail => {
                failed += 1;
                writeln!(w, "FAIL  {}", line(&name))?;
            }
            Outcome::Error(m) => {
                errored += 1;
                writeln!(w, "ERROR {}: {}", line(&name), line(m))?;
            }
        }
    }
    writeln!(w, "{} test(s): {passed} passed, {failed} failed, {errored} could not be evaluated", results.len())
}
