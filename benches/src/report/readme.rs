//! Splicing generated text into a document between two marker lines, so
//! the figures in the README and docs/performance.md are always generated,
//! never typed: the short summary into the README (`--readme`), the full
//! tables into the performance document (`--docs`).

use std::fs;
use std::path::Path;

/// The two marker lines around a generated part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Markers {
    /// The line before the generated part.
    pub begin: &'static str,
    /// The line after it.
    pub end: &'static str,
}

/// Where the full tables go (docs/performance.md, `--docs`).
pub const TABLES: Markers = Markers {
    begin: "<!-- hotq-report:begin (generated: do not edit by hand) -->",
    end: "<!-- hotq-report:end -->",
};

/// Where the short summary goes (README.md, `--readme`).
pub const SUMMARY: Markers = Markers {
    begin: "<!-- hotq-summary:begin (generated: do not edit by hand) -->",
    end: "<!-- hotq-summary:end -->",
};

/// Replaces what lies between the markers of `text` with `body`.
pub fn splice(text: &str, markers: Markers, body: &str) -> Result<String, String> {
    let Markers { begin, end } = markers;
    let missing = |m: &str| {
        format!(
            "no `{m}` line: add the two lines `{begin}` and `{end}` where the generated part goes"
        )
    };
    let b = text.find(begin).ok_or_else(|| missing(begin))?;
    let e = text.find(end).ok_or_else(|| missing(end))?;
    if e < b {
        return Err(format!("`{end}` comes before `{begin}`"));
    }
    Ok(format!(
        "{}{begin}\n\n{}\n{}",
        &text[..b],
        body.trim_end(),
        &text[e..]
    ))
}

/// Whether the file at `path` can take a part between `markers`: checked
/// before a run, so a missing marker fails in a second, not after minutes
/// of measuring.
pub fn check(path: &Path, markers: Markers) -> Result<(), String> {
    update_text(path, markers, "").map(|_| ())
}

/// The file at `path` with `body` spliced in, not written.
fn update_text(path: &Path, markers: Markers, body: &str) -> Result<String, String> {
    let at = |e: String| format!("cannot update {}: {e}", path.display());
    let text = fs::read_to_string(path).map_err(|e| at(e.to_string()))?;
    splice(&text, markers, body).map_err(at)
}

/// Splices `body` into the file at `path`, between `markers`; the error
/// names the file and what is wrong with it.
pub fn update(path: &Path, markers: Markers, body: &str) -> Result<(), String> {
    let new = update_text(path, markers, body)?;
    fs::write(path, new).map_err(|e| format!("cannot update {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_between_the_markers() {
        let Markers { begin, end } = TABLES;
        let text = format!("intro\n{begin}\nold\n{end}\noutro\n");
        let new = splice(&text, TABLES, "new table\n").unwrap();
        assert_eq!(new, format!("intro\n{begin}\n\nnew table\n{end}\noutro\n"));
        assert_eq!(
            splice(&new, TABLES, "new table\n").unwrap(),
            new,
            "idempotent"
        );
    }

    #[test]
    fn splice_refuses_text_without_markers() {
        assert!(splice("no markers", TABLES, "t").is_err());
        let backwards = format!("{}\n{}\n", TABLES.end, TABLES.begin);
        assert!(
            splice(&backwards, TABLES, "t")
                .unwrap_err()
                .contains("before")
        );
    }

    /// A file of `text` in a fresh temp folder.
    fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("hotq-readme-{}-{name}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn the_summary_and_the_tables_each_go_between_their_own_markers() {
        // A README with both kinds of markers (as in a checkout where the
        // tables have not moved yet): each writer touches its own part.
        let text = format!(
            "# hotq\n{}\nold summary\n{}\nmiddle\n{}\nold tables\n{}\nend\n",
            SUMMARY.begin, SUMMARY.end, TABLES.begin, TABLES.end
        );
        let path = temp_file("README.md", &text);
        update(&path, SUMMARY, "3 goals: 1 met\n").unwrap();
        update(&path, TABLES, "| a | b |\n").unwrap();
        let new = fs::read_to_string(&path).unwrap();
        assert_eq!(
            new,
            format!(
                "# hotq\n{}\n\n3 goals: 1 met\n{}\nmiddle\n{}\n\n| a | b |\n{}\nend\n",
                SUMMARY.begin, SUMMARY.end, TABLES.begin, TABLES.end
            )
        );
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_file_without_its_markers_is_left_alone_with_a_clear_error() {
        // The README of before the move has the tables' markers only.
        let text = format!("# hotq\n{}\ntables\n{}\n", TABLES.begin, TABLES.end);
        let path = temp_file("old-README.md", &text);
        assert_eq!(check(&path, TABLES), Ok(()));
        assert_eq!(
            check(&path, SUMMARY),
            update(&path, SUMMARY, "x").map(|_| ())
        );
        let e = update(&path, SUMMARY, "summary").unwrap_err();
        assert!(
            e.contains("old-README.md") && e.contains(SUMMARY.begin) && e.contains(SUMMARY.end),
            "{e}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), text, "untouched");
        let e = update(&path.with_file_name("absent.md"), TABLES, "t").unwrap_err();
        assert!(e.contains("absent.md"), "{e}");
        let _ = fs::remove_dir_all(path.parent().unwrap());
    }
}
