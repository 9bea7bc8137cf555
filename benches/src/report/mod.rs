//! Turning workloads into the report: Markdown tables, JSON, SVG plots.

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
