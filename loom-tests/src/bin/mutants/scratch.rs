//! The scratch copies that mutants are built in: of the hotq workspace, or
//! of any crate (`--path`).

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
        sync(source, &root)?;
        Ok(Scratch { root })
    }

    /// Brings `root`, a copy of the crate at `source` (any crate, outside
    /// the workspace), up to date the same way. Its `Cargo.toml` gets an
    /// empty `[workspace]` table when it has none, so that cargo does not
    /// take the copy (which lies under this workspace's `target/`) for a
    /// stray member of this workspace; a `Cargo.lock` that cargo wrote in
    /// the copy is kept between runs when the crate ships none.
    pub fn prepare_crate(source: &Path, root: &Path) -> Result<Scratch, String> {
        sync(source, root)?;
        let manifest = root.join("Cargo.toml");
        let text =
            fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
        if !text.lines().any(|l| l.trim() == "[workspace]") {
            fs::write(&manifest, format!("{text}\n[workspace]\n"))
                .map_err(|e| format!("{}: {e}", manifest.display()))?;
        }
        Ok(Scratch {
            root: root.to_path_buf(),
        })
    }

    /// Writes `text` to the copy's `file` (relative to the root).
    pub fn write(&self, file: &str, text: &str) -> Result<(), String> {
        let path = self.root.join(file);
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Makes `root` a copy of `source`: copies every file whose content
/// differs and removes files `source` no longer has. Unchanged files keep
/// their modification time, so cargo rebuilds only what changed.
fn sync(source: &Path, root: &Path) -> Result<(), String> {
    fs::create_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let mut wanted = Vec::new();
    walk(source, source, &mut wanted).map_err(|e| format!("reading {}: {e}", source.display()))?;
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
    walk(root, root, &mut have).map_err(|e| format!("reading the scratch copy: {e}"))?;
    for rel in have.iter().filter(|r| !wanted.contains(r)) {
        // cargo's own lock file of a crate that ships none stays, so the
        // next run resolves nothing again.
        if rel.as_os_str() != "Cargo.lock" {
            let _ = fs::remove_file(root.join(rel));
        }
    }
    Ok(())
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
