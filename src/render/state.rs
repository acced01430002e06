//! Renders `state` reports as a terminal table, markdown or JSON.

use super::report::{Head, Named, Report};
use super::{md_cell, md_code, Style, Tone};
use crate::query::state::StateReport;
use crate::query::summary::StateResource;
use crate::sanitize::line;
use std::io::{self, Write};

/// `State: 12 resources (10 managed, 2 data), 1 tainted, 1 deposed.`
pub(crate) fn verdict(r: &StateReport) -> String {
    let c = &r.counts;
    let what = if r.document == "plan" { "Prior state" } else { "State" };
    let n = if c.resources < r.total {
        format!("{} of {} resources match the filters", c.resources, r.total)
    } else {
        format!("{} resources", c.resources)
    };
    format!("{what}: {n} ({} managed, {} data), {} tainted, {} deposed.", c.managed, c.data, c.tainted, c.deposed)
}

/// `name`, `name[0]`, `name["key"]`.
fn name_with_index(r: &StateResource) -> String {
    match &r.index {
        None => r.name.clone(),
        Some(i) => format!("{}[{i}]", r.name),
    }
}

fn marks(r: &StateResource) -> Vec<String> {
    let mut m = Vec::new();
    if r.tainted {
        m.push("tainted".to_string());
    }
    if let Some(k) = &r.deposed {
        m.push(format!("deposed {k}"));
    }
    m
}

fn module_text(r: &StateResource) -> &str {
    r.module.as_deref().unwrap_or("(root)")
}

impl Named for StateReport {
    fn set_file(&mut self, file: &str) {
        self.file = file.to_string();
    }
}

impl Report for StateReport {
    /// A state never errored (a plan's prior state says nothing of its planning).
    fn head(&self) -> Head<'_> {
        Head::new(
            &self.file,
            if self.document == "plan" { "plan, prior state" } else { "state" },
            &self.terraform_version,
            &self.format_version,
            false,
        )
    }

    fn verdict(&self) -> String {
        verdict(self)
    }

    fn is_empty(&self) -> bool {
        self.resources.is_empty()
    }

    fn table_rows(&self, w: &mut dyn Write, style: &Style) -> io::Result<()> {
        // The table is laid out whole (its columns' widths): its rows are held.
        let mut rows = Vec::with_capacity(self.resources.len());
        self.resources.each(|r| {
            let m: Vec<String> = marks(r).iter().map(|x| style.paint(&line(x), Tone::Warn)).collect();
            rows.push(vec![
                line(module_text(r)).into_owned(),
                line(&r.type_).into_owned(),
                line(&name_with_index(r)).into_owned(),
                line(&r.mode).into_owned(),
                line(r.provider_name.as_deref().unwrap_or("")).into_owned(),
                m.join(", "),
            ]);
            Ok(())
        })?;
        writeln!(w, "{}", style.table(&["module", "type", "name", "mode", "provider", "marks"], rows))?;
        writeln!(w)?;
        let rows = self.counts.by_type.iter().map(|(t, n)| vec![line(t).into_owned(), n.to_string()]).collect();
        writeln!(w, "{}", style.table(&["type", "count"], rows))
    }

    fn markdown_rows(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "| type | count |")?;
        writeln!(w, "|---|---:|")?;
        for (t, n) in &self.counts.by_type {
            writeln!(w, "| {} | {n} |", md_code(t))?;
        }
        writeln!(w, "\n<details><summary>{} resource(s)</summary>\n", self.resources.len())?;
        writeln!(w, "| module | type | name | mode | provider | marks |")?;
        writeln!(w, "|---|---|---|---|---|---|")?;
        self.resources.each(|r| {
            writeln!(
                w,
                "| {} | {} | {} | {} | {} | {} |",
                md_code(module_text(r)),
                md_code(&r.type_),
                md_code(&name_with_index(r)),
                md_cell(&r.mode),
                md_cell(r.provider_name.as_deref().unwrap_or("")),
                md_cell(&marks(r).join(", "))
            )
        })?;
        writeln!(w, "\n</details>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::Filter;
    use crate::query::state::{state, StateOptions};

    #[test]
    fn unknown_resource_mode_is_escaped_in_the_table() {
        let st = r#"{"format_version":"1.0","values":{"root_module":{"resources":[{"address":"a.b","mode":"managed\u009b2J","type":"a","name":"b"}]}}}"#;
        let doc = crate::read::parse("s", st.as_bytes()).unwrap();
        let r = state(&doc, &StateOptions { filter: &Filter::default(), prior: false }).unwrap();
        let mut out = Vec::new();
        r.table(&mut out, &Style::default()).unwrap();
        assert_eq!(crate::sanitize::terminal_hazard(&out, false), None);
        assert!(String::from_utf8(out).unwrap().contains("managed\\u{009B}2J"));
    }
}
