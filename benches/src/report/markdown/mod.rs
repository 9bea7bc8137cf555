//! The Markdown the report writes: report.md (a header, how to read it,
//! the goals, one table per workload) and the tables docs/performance.md
//! carries (`--docs`).

mod cells;
mod docs;
mod floors;
mod goals_table;
mod heading;
mod how_to_read;
mod regime_grid;
mod report;
mod table;
#[cfg(test)]
mod tests;

pub use docs::docs;
pub use floors::floors;
pub use goals_table::{goals_table, rounds_cell};
pub use heading::{header, instructions};
pub use how_to_read::HOW_TO_READ;
pub use regime_grid::{grid, is_grid_goal};
pub use report::report;
pub use table::table;
