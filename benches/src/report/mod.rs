//! Turning workloads into the report: Markdown tables, JSON, SVG plots,
//! and the summary of the verdicts.

pub mod bootstrap;
pub mod compare;
pub mod floor;
pub mod goals;
pub mod header;
pub mod json;
pub mod markdown;
pub mod plot;
pub mod readme;
pub mod stats;
pub mod verdicts;
