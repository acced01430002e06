//! `summary --format gitlab`: GitLab's `artifacts:reports:terraform` file.

use super::*;

/// GitLab's `artifacts:reports:terraform` file: what the merge-request widget
/// reads (schemas/summary-gitlab.schema.json).
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
pub(crate) struct GitlabReport {
    pub create: u64,
    pub update: u64,
    pub delete: u64,
}

impl GitlabReport {
    /// The CLI's add, change and destroy, summed over the plans read (a state
    /// or an unreadable input adds nothing).
    pub(crate) fn of(items: &[PerFile<Summary>]) -> GitlabReport {
        let mut r = GitlabReport::default();
        for i in items {
            if let Ok(Summary::Plan(p)) = &i.result {
                r.create += p.totals.add;
                r.update += p.totals.change;
                r.delete += p.totals.destroy;
            }
        }
        r
    }
}

/// `summary --format gitlab`: `{"create": N, "update": N, "delete": N}`; when
/// an input could not be read, its error object as every JSON output prints it
/// (`{"file", "error"}`, or `{"files": [...]}` of the unreadable inputs when
/// several were given), never sums that leave an input out.
pub(crate) fn gitlab_out(w: &mut dyn Write, items: &[PerFile<Summary>]) -> io::Result<()> {
    let errors: Vec<crate::render::JsonInputError<'_>> =
        items.iter().filter_map(|i| i.result.as_ref().err()).map(crate::render::JsonInputError::new).collect();
    match errors.len() {
        0 => write_json(w, &GitlabReport::of(items)),
        1 if items.len() == 1 => write_json(w, &errors[0]),
        _ => write_json(w, &GitlabErrors { files: errors }),
    }
}

/// The unreadable inputs of `summary --format gitlab` over several inputs.
#[derive(Serialize)]
pub(super) struct GitlabErrors<'a> {
    files: Vec<crate::render::JsonInputError<'a>>,
}
