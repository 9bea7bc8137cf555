//! Splicing the latest tables into the README, between two markers, so
//! the README's figures are always generated, never typed.

use std::fs;
use std::io;
use std::path::Path;

/// The line before the generated part.
pub const BEGIN: &str = "<!-- hotq-report:begin (generated: do not edit by hand) -->";
/// The line after it.
pub const END: &str = "<!-- hotq-report:end -->";

/// Replaces what lies between the markers of `text` with `tables`.
pub fn splice(text: &str, tables: &str) -> Result<String, String> {
    let b = text
        .find(BEGIN)
        .ok_or_else(|| format!("no `{BEGIN}` line"))?;
    let e = text.find(END).ok_or_else(|| format!("no `{END}` line"))?;
    if e < b {
        return Err("the end marker comes before the begin marker".into());
    }
    Ok(format!(
        "{}{BEGIN}\n\n{}\n{}",
        &text[..b],
        tables.trim_end(),
        &text[e..]
    ))
}

/// Splices `tables` into the file at `path`.
pub fn update(path: &Path, tables: &str) -> io::Result<()> {
    let text = fs::read_to_string(path)?;
    let new = splice(&text, tables).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    fs::write(path, new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_between_the_markers() {
        let text = format!("intro\n{BEGIN}\nold\n{END}\noutro\n");
        let new = splice(&text, "new table\n").unwrap();
        assert_eq!(new, format!("intro\n{BEGIN}\n\nnew table\n{END}\noutro\n"));
        assert_eq!(splice(&new, "new table\n").unwrap(), new, "idempotent");
    }

    #[test]
    fn splice_refuses_text_without_markers() {
        assert!(splice("no markers", "t").is_err());
        assert!(splice(&format!("{END}\n{BEGIN}\n"), "t").is_err());
    }
}
