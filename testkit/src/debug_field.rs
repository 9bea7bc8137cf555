//! A number from a value's `Debug`: how tests read a layout that is not
//! public API (a stamped ring's lines, items per line, `head` lag), so
//! that each test checks the premise it relies on.

use core::fmt::Debug;

/// The number that follows `name: ` in `value`'s `Debug`.
///
/// # Panics
///
/// When the `Debug` has no such field, or no number after it (with the
/// whole text, to show what it has).
///
/// ```
/// #[derive(Debug)]
/// struct Ring {
///     lines: usize,
///     per_line: usize,
/// }
///
/// let ring = Ring { lines: 3, per_line: 7 };
/// assert_eq!(hotq_testkit::debug_field(&ring, "per_line"), 7);
/// assert_eq!(hotq_testkit::debug_field(&ring, "lines"), 3);
/// ```
pub fn debug_field(value: &impl Debug, name: &str) -> usize {
    let text = format!("{value:?}");
    let from = text
        .find(&format!("{name}: "))
        .unwrap_or_else(|| panic!("no `{name}` in {text}"))
        + name.len()
        + 2;
    let digits: String = text[from..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number after `{name}` in {text}"))
}
