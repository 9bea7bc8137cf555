//! The shapes of work the report measures, each generic over a contender.

pub mod floor;
pub mod hot_path;
pub mod mpmc;
pub mod pace;
pub mod pair;
pub mod placement;
pub mod regime;
pub mod round_trip;
pub mod select;
pub mod spsc;
