//! The modules of `benches/src` import one another one way only: workloads
//! and contenders at the bottom, the round scheduler above them, the
//! suites above that, the report on top. A circle of imports is how the
//! crate grew into a tangle a newcomer could not walk (issue 40 §6), so
//! this test fails on the first one it finds, naming its modules:
//!
//! `cargo test -p hotq-benches --test import_graph -- --nocapture`
//!
//! prints each file's imports, and the test
//! `a_planted_cycle_is_found` shows that the check can fail.
//!
//! The graph is read from the source text, not from rustc: a node is a
//! file (`report/goals/verdict.rs` is `report::goals::verdict`), an edge
//! is any path in it (in a `use` or in code) that starts with `crate::`,
//! `super::`, `self::` or a child module's name, resolved to the deepest
//! file module it names. `mod x;` declarations are not edges (they say
//! where a file is, not what it uses), but a `pub use x::Y` re-export is:
//! so a `mod.rs` that re-exports its children must not hold what they
//! import back (such shared items get a file of their own).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Module path (`report::goals`, `""` for the crate root) → its file.
type Modules = BTreeMap<String, PathBuf>;
/// Module → the modules it imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every file module under `src` (the library: `main.rs` is a separate
/// crate on top of it and cannot be imported back).
fn modules(src: &Path) -> Modules {
    fn walk(dir: &Path, prefix: &[String], out: &mut Modules) {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .expect("readable source folder")
            .map(|e| e.expect("readable entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let mut p = prefix.to_vec();
                p.push(name);
                walk(&path, &p, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut p = prefix.to_vec();
                match (prefix.is_empty(), name.as_str()) {
                    (true, "main") => continue,
                    (true, "lib") | (false, "mod") => {}
                    _ => p.push(name),
                }
                out.insert(p.join("::"), path);
            }
        }
    }
    let mut out = Modules::new();
    walk(src, &[], &mut out);
    out
}

/// `text` without comments, string and char literals (their contents
/// could look like paths), each replaced by a space.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // A raw string: r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push(' ');
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{1F600}'), or a lifetime ('a).
            let close = if next == Some('\\') {
                (i + 2..c.len().min(i + 12)).find(|&j| c[j] == '\'')
            } else {
                (c.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            match close {
                Some(j) => {
                    i = j + 1;
                    out.push(' ');
                }
                None => {
                    out.push(c[i]);
                    i += 1;
                }
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// A token of the little that matters here.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Path,
    Open,
    Close,
    Semi,
    Comma,
    Other,
}

fn tokens(code: &str) -> Vec<Tok> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(c[start..i].iter().collect()));
            continue;
        }
        match ch {
            ':' if c.get(i + 1) == Some(&':') => {
                out.push(Tok::Path);
                i += 1;
            }
            '{' => out.push(Tok::Open),
            '}' => out.push(Tok::Close),
            ';' => out.push(Tok::Semi),
            ',' => out.push(Tok::Comma),
            c if c.is_whitespace() => {}
            _ => out.push(Tok::Other),
        }
        i += 1;
    }
    out
}

/// The paths of a `use` tree starting at `toks[*i]` (just after `use`),
/// each as its segments, braces expanded; leaves `*i` after the `;`.
fn use_tree(toks: &[Tok], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(s)) if s == "as" => {
                // `as name`: the alias is not a path.
                *i += 2;
            }
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                *i += 1;
            }
            Some(Tok::Path) => *i += 1,
            Some(Tok::Other) => *i += 1, // `*`
            Some(Tok::Open) => {
                *i += 1;
                loop {
                    use_tree(toks, i, path.clone(), out);
                    match toks.get(*i) {
                        Some(Tok::Comma) => *i += 1,
                        Some(Tok::Close) => {
                            *i += 1;
                            break;
                        }
                        _ => break,
                    }
                    if toks.get(*i) == Some(&Tok::Close) {
                        *i += 1;
                        break;
                    }
                }
                return;
            }
            _ => {
                // `,` `}` `;` or the end: this path is complete.
                out.push(path);
                return;
            }
        }
    }
}

/// The module paths (relative to the crate root) that the file of module
/// `me` refers to.
fn references(me: &str, text: &str, modules: &Modules) -> BTreeSet<String> {
    let toks = tokens(&code_only(text));
    let root: Vec<String> = if me.is_empty() {
        Vec::new()
    } else {
        me.split("::").map(String::from).collect()
    };
    // The inline modules (`mod tests { … }`) open around the current token:
    // (name, brace depth at which it closes).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut found = BTreeSet::new();
    let here = |inline: &[(String, usize)]| -> Vec<String> {
        let mut m = root.clone();
        m.extend(inline.iter().map(|(n, _)| n.clone()));
        m
    };
    let resolve = |segments: &[String], at: &[String]| -> Option<String> {
        let mut abs: Vec<String> = at.to_vec();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                abs.clear();
                rest = &rest[1..];
            }
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    abs.pop();
                    rest = &rest[1..];
                }
            }
            Some("self") => rest = &rest[1..],
            Some(first) => {
                // A child module of the current one, named directly.
                let mut child = abs.clone();
                child.push(first.to_string());
                if !modules.contains_key(&child.join("::")) {
                    return None;
                }
            }
            None => return None,
        }
        abs.extend(rest.iter().filter(|s| *s != "self").cloned());
        // The deepest file module that the path names.
        (0..=abs.len())
            .rev()
            .map(|n| abs[..n].join("::"))
            .find(|m| modules.contains_key(m))
    };
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Open => {
                depth += 1;
                i += 1;
            }
            Tok::Close => {
                depth = depth.saturating_sub(1);
                while inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
                i += 1;
            }
            Tok::Ident(k) if k == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Open)) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth + 1));
                }
                i += 1;
            }
            Tok::Ident(k) if k == "use" => {
                i += 1;
                let mut paths = Vec::new();
                use_tree(&toks, &mut i, Vec::new(), &mut paths);
                let at = here(&inline);
                found.extend(paths.iter().filter_map(|p| resolve(p, &at)));
            }
            Tok::Ident(first) if toks.get(i + 1) == Some(&Tok::Path) => {
                // A path in code: `crate::a::b(…)`, `super::X`, `child::f`;
                // not the tail of a longer one (`std::fmt::…`).
                let tail = i > 0 && toks[i - 1] == Tok::Path;
                let mut segments = vec![first.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Tok::Path) {
                    match toks.get(j + 1) {
                        Some(Tok::Ident(s)) => segments.push(s.clone()),
                        _ => break,
                    }
                    j += 2;
                }
                if !tail {
                    found.extend(resolve(&segments, &here(&inline)));
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    found.remove(me);
    found
}

/// The import graph of the library under `src`.
fn graph(src: &Path) -> Graph {
    let modules = modules(src);
    modules
        .iter()
        .map(|(m, path)| {
            let text = fs::read_to_string(path).expect("readable source file");
            (m.clone(), references(m, &text, &modules))
        })
        .collect()
}

/// A circle of imports in `g`, as the modules around it (the first one
/// repeated at the end), if there is one.
fn cycle(g: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        m: &str,
        g: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(m.to_string(), Mark::Open);
        stack.push(m.to_string());
        for next in g.get(m).into_iter().flatten() {
            match marks.get(next).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = stack.iter().position(|s| s == next).unwrap();
                    let mut c = stack[from..].to_vec();
                    c.push(next.clone());
                    return Some(c);
                }
                Mark::New => {
                    if let Some(c) = visit(next, g, marks, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(m.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for m in g.keys() {
        if marks.get(m).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(c) = visit(m, g, &mut marks, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn name(m: &str) -> &str {
    if m.is_empty() { "crate" } else { m }
}

/// Fails with the circle, if `src`'s library has one.
fn check(src: &Path) -> Result<Graph, String> {
    let g = graph(src);
    match cycle(&g) {
        Some(c) => Err(format!(
            "a circle of imports in {}: {}",
            src.display(),
            c.iter().map(|m| name(m)).collect::<Vec<_>>().join(" → ")
        )),
        None => Ok(g),
    }
}

#[test]
fn benches_src_imports_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // Every file's imports first (`--nocapture` shows them), then the verdict.
    let g = graph(&src);
    for (m, uses) in &g {
        let uses: Vec<&str> = uses.iter().map(|u| name(u)).collect();
        println!("{} → {}", name(m), uses.join(", "));
    }
    let g = check(&src).unwrap_or_else(|e| panic!("{e}"));
    println!("{} modules, no circle of imports", g.len());
}

/// A crate of files written to a fresh folder under the system's temp dir.
fn planted(files: &[(&str, &str)]) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("hotq-import-graph-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    dir
}

#[test]
fn a_planted_cycle_is_found() {
    // rounds → report::goals (in code, not a `use`), report::goals →
    // suites (braced `use`), suites → rounds (through `super` in a test
    // module it is not: that one is the file's own).
    let dir = planted(&[
        (
            "lib.rs",
            "pub mod report;\npub mod rounds;\npub mod suites;\n",
        ),
        (
            "rounds.rs",
            "//! use crate::suites; (a comment: no edge)\npub fn run() { let s = \"crate::suites\"; crate::report::goals::decide(); }\n#[cfg(test)]\nmod tests { use super::*; }\n",
        ),
        ("report/mod.rs", "pub mod goals;\n"),
        (
            "report/goals.rs",
            "use crate::{suites::{self, params}, rounds as r};\npub fn decide() {}\n",
        ),
        ("suites.rs", "use crate::rounds::run;\npub fn params() {}\n"),
    ]);
    let e = check(&dir).unwrap_err();
    let _ = fs::remove_dir_all(&dir);
    println!("{e}");
    assert!(
        e.contains("report::goals → rounds → report::goals")
            || e.contains("report::goals → suites → rounds → report::goals"),
        "{e}"
    );
}

#[test]
fn a_layered_crate_passes_and_a_mod_rs_reexport_counts() {
    let ok = planted(&[
        ("lib.rs", "pub mod a;\npub mod b;\n"),
        ("a/mod.rs", "mod inner;\npub use inner::X;\n"),
        ("a/inner.rs", "pub struct X;\n"),
        ("b.rs", "use crate::a::X;\nfn f() -> X { X }\n"),
    ]);
    let g = check(&ok).unwrap();
    assert_eq!(g["a"], BTreeSet::from(["a::inner".to_string()]));
    assert_eq!(g["b"], BTreeSet::from(["a".to_string()]));
    // A child that imports what its mod.rs holds, while the mod.rs
    // re-exports the child: a circle.
    let bad = planted(&[
        ("lib.rs", "pub mod a;\n"),
        (
            "a/mod.rs",
            "mod inner;\npub use inner::X;\npub trait T {}\n",
        ),
        (
            "a/inner.rs",
            "use super::T;\npub struct X;\nimpl T for X {}\n",
        ),
    ]);
    let e = check(&bad).unwrap_err();
    let _ = fs::remove_dir_all(&ok);
    let _ = fs::remove_dir_all(&bad);
    assert!(
        e.contains("a → a::inner → a") || e.contains("a::inner → a → a::inner"),
        "{e}"
    );
}
