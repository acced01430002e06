//! The flags that say whether the configuration is read to locate what a
//! command lists (`--locations`, `--no-locations`; docs/source-locations.md).

use crate::config::Locations;
use crate::render::Format;
use clap::Args;

/// Where findings are declared in the configuration (`gate`, `checks`).
#[derive(Debug, Args, Default)]
pub struct LocationArgs {
    /// Read the configuration in --chdir (default `.`, the directory where
    /// `plan` ran; each root's own directory in a directory of roots) and show
    /// where each finding is declared (`file:line`) in every format. `json`,
    /// `sarif`, `gitlab-codequality` and `github` read it unasked.
    #[arg(long, conflicts_with = "no_locations")]
    pub locations: bool,
    /// Do not read the configuration: no source locations (JSON and the PR
    /// comment read it by default, where --chdir says, to locate each change).
    #[arg(long)]
    pub no_locations: bool,
}

/// Not reading the configuration (the outputs that read it by default).
#[derive(Debug, Args, Default)]
pub struct NoLocationArgs {
    /// Do not read the configuration: no source locations (JSON, the PR
    /// comment, and summary's and show's table and markdown read it by
    /// default, where --chdir says, to locate each change).
    #[arg(long)]
    pub no_locations: bool,
}

impl LocationArgs {
    /// Whether the configuration is read, in `format`.
    pub(super) fn decide(&self, format: Format) -> Locations {
        if !self.no_locations && (self.locations || locating_format(format)) {
            Locations::Asked
        } else {
            NoLocationArgs { no_locations: self.no_locations }.decide(format)
        }
    }
}

impl NoLocationArgs {
    /// JSON reads the configuration by default (quietly: none is no note).
    pub(super) fn decide(&self, format: Format) -> Locations {
        if self.no_locations || format != Format::Json {
            Locations::Off
        } else {
            Locations::Quiet
        }
    }

    /// A list of changes (`summary`, `show`): its table and markdown read the
    /// configuration by default too, for their `file:line` column.
    pub(super) fn decide_listing(&self, format: Format) -> Locations {
        match format {
            Format::Table | Format::Markdown if !self.no_locations => Locations::Quiet,
            _ => self.decide(format),
        }
    }
}

/// Formats that put findings on source lines read the configuration unasked.
pub(super) fn locating_format(format: Format) -> bool {
    matches!(format, Format::Sarif | Format::GitlabCodequality | Format::Github)
}
