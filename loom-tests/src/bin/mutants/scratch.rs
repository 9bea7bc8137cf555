//! The scratch copy of the workspace that mutants are built in.

use std::fs;
use std::path::{Path, PathBuf};

/// `target/mutants/workspace`: a copy of the workspace's files (not its
/// `target/`, `.git` or fuzz artifacts), kept between runs together with
/// its own target dirs, so that a mutant rebuilds one crate incrementally.
pub struct Scratch {
    /// The copy's root.
    pub root: PathBuf,
}

impl Scratch {
    /// Brings the copy up to date with the workspace at `source`: copies
    /// every file whose content differs and removes files the workspace no
    /// longer has. Unchanged files keep their modification time, so cargo
    /// rebuilds only what changed.
    pub fn prepare(source: &Path) -> Result<Scratch, String> {
        let root = source.join("target").join("mutants").join("workspace");
        fs::create_dir_all(&root).map_err(|e| format!("{}: {e}", root.display()))?;
        let mut wanted = Vec::new();
        walk(source, source, &mut wanted).map_err(|e| format!("reading the workspace: {e}"))?;
        for rel in &wanted {
            let (from, to) = (source.join(rel), root.join(rel));
            let new = fs::read(&from).map_err(|e| format!("{}: {e}", from.display()))?;
            if fs::read(&to).ok().as_deref() != Some(&new[..]) {
                if let Some(dir) = to.parent() {
                    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                }
                fs::write(&to, &new).map_err(|e| format!("{}: {e}", to.display()))?;
            }
        }
        let mut have = Vec::new();
        walk(&root, &root, &mut have).map_err(|e| format!("reading the scratch copy: {e}"))?;
        for rel in have.iter().filter(|r| !wanted.contains(r)) {
            let _ = fs::remove_file(root.join(rel));
        }
        Ok(Scratch { root })
    }

    /// Writes `text` to the copy's `file` (relative to the root).
    pub fn write(&self, file: &str, text: &str) -> Result<(), String> {
        let path = self.root.join(file);
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Files under `dir`, relative to `base`, skipping build output and VCS
/// metadata.
fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if entry.file_type()?.is_dir() {
            if matches!(
                name.as_ref(),
                "target" | ".git" | "artifacts" | "corpus" | "coverage"
            ) {
                continue;
            }
            walk(base, &path, out)?;
        } else if entry.file_type()?.is_file() && name != ".git" {
            out.push(path.strip_prefix(base).expect("under base").to_path_buf());
        }
    }
    Ok(())
}
