//! The ordering sites of the queue crates: every atomic operation whose
//! memory ordering is stronger than `Relaxed`, every fence, and each of a
//! `compare_exchange`'s two orderings on its own.
//!
//! Found with a real parse (`syn`), so the enclosing function is known and
//! comments or strings never count. A site's [key](Site::key) names the
//! file, the function (with its impl type), the operation, the ordering and
//! which occurrence of that operation in that function it is; no line
//! numbers, so an unrelated edit does not change it.
//!
//! This module is plain `std` code (no loom): the `mutants` binary and the
//! fast `ordering_sites` test both use it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use proc_macro2::LineColumn;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// The crates whose orderings are mutated, in the order they are run. A
/// crate whose `src` directory does not exist (yet) is skipped.
pub const CRATES: &[&str] = &["spsc", "mpmc", "disruptor"];

/// Where `MUTANTS.md` is, relative to the workspace root.
pub const MUTANTS_MD: &str = "loom-tests/MUTANTS.md";

/// Where the allow-list is, relative to the workspace root.
pub const ALLOW_LIST: &str = "loom-tests/mutants-allow.txt";

/// The command that reruns the tool and rewrites `MUTANTS.md`.
pub const WRITE_COMMAND: &str = "cargo run --release -p hotq-loom-tests --bin mutants -- --write";

/// The workspace root, found from this crate's manifest directory (so it
/// works from any clone, wherever it is).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("loom-tests sits inside the workspace")
        .to_path_buf()
}

/// A memory ordering, as written in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Order {
    /// `Relaxed`
    Relaxed,
    /// `Acquire`
    Acquire,
    /// `Release`
    Release,
    /// `AcqRel`
    AcqRel,
    /// `SeqCst`
    SeqCst,
}

impl Order {
    fn parse(s: &str) -> Option<Order> {
        Some(match s {
            "Relaxed" => Order::Relaxed,
            "Acquire" => Order::Acquire,
            "Release" => Order::Release,
            "AcqRel" => Order::AcqRel,
            "SeqCst" => Order::SeqCst,
            _ => return None,
        })
    }

    /// The name as written in Rust.
    pub fn name(self) -> &'static str {
        match self {
            Order::Relaxed => "Relaxed",
            Order::Acquire => "Acquire",
            Order::Release => "Release",
            Order::AcqRel => "AcqRel",
            Order::SeqCst => "SeqCst",
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What kind of access an ordering argument belongs to: it decides which
/// weaker orderings are valid (a load cannot be `Release`, a fence cannot
/// be `Relaxed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// `load`, or the failure ordering of a compare-exchange (a load).
    Load,
    /// `store`.
    Store,
    /// A read-modify-write: `swap`, `fetch_*`, a compare-exchange's success.
    ReadModifyWrite,
    /// `fence` / `compiler_fence`.
    Fence,
    /// An ordering passed anywhere else: only `Relaxed` is tried.
    Other,
}

/// One ordering argument in the source.
#[derive(Clone, Debug)]
pub struct Site {
    /// The crate's directory name (`spsc`, `mpmc`, ...).
    pub krate: String,
    /// The file, relative to the workspace root, with `/` separators.
    pub file: String,
    /// The enclosing function: `Type::method`, `<Type as Trait>::method`,
    /// or a free function's name.
    pub function: String,
    /// The receiver's last field and the method (`tail.store`), or
    /// `fence`.
    pub operation: String,
    /// `success` / `failure` for the two orderings of a compare-exchange
    /// (`set` / `fetch` for `fetch_update`).
    pub role: Option<&'static str>,
    /// The ordering written there.
    pub order: Order,
    /// Which occurrence of `operation` (with `role`) in `function` this is,
    /// from 0, in source order.
    pub occurrence: usize,
    /// What kind of access this is.
    pub access: Access,
    /// 1-based line, for people (never part of the key).
    pub line: usize,
    /// Byte range of the ordering's name (`SeqCst`) in the file.
    pub order_bytes: Range<usize>,
    /// Byte range of the whole fence call, for fences.
    pub call_bytes: Option<Range<usize>>,
}

impl Site {
    /// `file:function:operation#n[:role]:Ordering`: stable under edits that
    /// do not touch this function's atomics.
    pub fn key(&self) -> String {
        let role = self.role.map(|r| format!(":{r}")).unwrap_or_default();
        format!(
            "{}:{}:{}#{}{}:{}",
            self.file, self.function, self.operation, self.occurrence, role, self.order
        )
    }

    /// `file:line`, for people.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }

    /// The mutants of this site: each weakens this one ordering.
    ///
    /// - any ordering of an access → `Relaxed`;
    /// - `SeqCst` → the strongest ordering short of it that the access
    ///   allows (`Acquire` for a load, `Release` for a store, `AcqRel` for a
    ///   read-modify-write), a distinct mutant;
    /// - fences (which cannot be `Relaxed`: std and loom panic):
    ///   `SeqCst` → `AcqRel`; `AcqRel` → `Acquire` and → `Release`; and the
    ///   fence removed, the fence's equivalent of `Relaxed`.
    pub fn mutants(&self) -> Vec<Mutant> {
        let mut to = Vec::new();
        match (self.access, self.order) {
            (_, Order::Relaxed) => {}
            (Access::Fence, Order::SeqCst) => to.push(Mutation::To(Order::AcqRel)),
            (Access::Fence, Order::AcqRel) => {
                to.push(Mutation::To(Order::Acquire));
                to.push(Mutation::To(Order::Release));
            }
            (Access::Fence, _) => {}
            (access, order) => {
                to.push(Mutation::To(Order::Relaxed));
                if order == Order::SeqCst {
                    match access {
                        Access::Load => to.push(Mutation::To(Order::Acquire)),
                        Access::Store => to.push(Mutation::To(Order::Release)),
                        Access::ReadModifyWrite => to.push(Mutation::To(Order::AcqRel)),
                        _ => {}
                    }
                }
            }
        }
        if self.access == Access::Fence {
            to.push(Mutation::RemoveFence);
        }
        to.into_iter()
            .map(|mutation| Mutant {
                site: self.clone(),
                mutation,
            })
            .collect()
    }
}

/// How a mutant changes its site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// The ordering replaced by a weaker one.
    To(Order),
    /// The fence call replaced by `()`.
    RemoveFence,
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mutation::To(order) => f.write_str(order.name()),
            Mutation::RemoveFence => f.write_str("removed"),
        }
    }
}

/// One site with one weakening.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// Where.
    pub site: Site,
    /// What.
    pub mutation: Mutation,
}

impl Mutant {
    /// `<site key> -> <mutation>`: the key the allow-list and `MUTANTS.md`
    /// use.
    pub fn key(&self) -> String {
        format!("{} -> {}", self.site.key(), self.mutation)
    }

    /// The mutated source of the site's file, given its original text.
    pub fn apply(&self, original: &str) -> String {
        let (range, with) = match self.mutation {
            Mutation::To(order) => (self.site.order_bytes.clone(), order.name()),
            Mutation::RemoveFence => (
                self.site
                    .call_bytes
                    .clone()
                    .expect("a fence site knows its call"),
                "()",
            ),
        };
        let mut out = String::with_capacity(original.len());
        out.push_str(&original[..range.start]);
        out.push_str(with);
        out.push_str(&original[range.end..]);
        out
    }
}

/// The crates of [`CRATES`] that exist under `root` (their `src` does).
pub fn present_crates(root: &Path) -> Vec<&'static str> {
    CRATES
        .iter()
        .copied()
        .filter(|c| root.join(c).join("src").is_dir())
        .collect()
}

/// Every site of crate `krate` (its `src/**/*.rs`, `#[cfg(test)]` items
/// skipped), in file and source order.
pub fn find_sites(root: &Path, krate: &str) -> Result<Vec<Site>, String> {
    let mut files = Vec::new();
    collect_rs(&root.join(krate).join("src"), &mut files)
        .map_err(|e| format!("reading {krate}/src: {e}"))?;
    files.sort();
    let mut sites = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let rel = path
            .strip_prefix(root)
            .expect("under root")
            .to_string_lossy()
            .replace('\\', "/");
        sites.extend(sites_in_source(krate, &rel, &text)?);
    }
    Ok(sites)
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_rs(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The sites in one file's source text (`file` is only recorded).
pub fn sites_in_source(krate: &str, file: &str, text: &str) -> Result<Vec<Site>, String> {
    let ast = syn::parse_file(text).map_err(|e| {
        let at = e.span().start();
        format!("{file}:{}:{}: {e}", at.line, at.column + 1)
    })?;
    let mut finder = Finder {
        krate,
        file,
        lines: LineIndex::new(text),
        scope: Vec::new(),
        counts: HashMap::new(),
        handled: HashSet::new(),
        sites: Vec::new(),
    };
    finder.visit_file(&ast);
    Ok(finder.sites)
}

/// Byte offsets of line starts, to turn a span's line/column (columns
/// count chars) into byte offsets.
struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    fn offset(&self, at: LineColumn) -> usize {
        let start = self.starts[at.line - 1];
        self.text[start..]
            .char_indices()
            .nth(at.column)
            .map_or(self.text.len(), |(i, _)| start + i)
    }
}

struct Finder<'a> {
    krate: &'a str,
    file: &'a str,
    lines: LineIndex<'a>,
    /// Enclosing impl types (`Some`) and functions (`None` marks none).
    scope: Vec<Scope>,
    counts: HashMap<(String, String), usize>,
    /// Ordering arguments already recorded by their call, by position.
    handled: HashSet<(usize, usize)>,
    sites: Vec<Site>,
}

enum Scope {
    Impl(String),
    Fn(String),
}

/// `Ordering::X` (or a longer path ending so): the ordering and the span
/// of `X`.
fn ordering_of(expr: &syn::Expr) -> Option<(Order, proc_macro2::Span)> {
    match expr {
        syn::Expr::Path(p) => ordering_in_path(&p.path),
        _ => None,
    }
}

fn ordering_in_path(path: &syn::Path) -> Option<(Order, proc_macro2::Span)> {
    let segs: Vec<_> = path.segments.iter().collect();
    let [.., ty, last] = segs.as_slice() else {
        return None;
    };
    if ty.ident != "Ordering" {
        return None;
    }
    Some((Order::parse(&last.ident.to_string())?, last.ident.span()))
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map_or_else(|| "?".into(), |s| s.ident.to_string()),
        syn::Type::Reference(r) => type_name(&r.elem),
        _ => "?".into(),
    }
}

/// The last field of a receiver (`self.ring.tail` → `tail`), or `_`.
fn receiver_name(expr: &syn::Expr) -> String {
    match expr {
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(id) => id.to_string(),
            syn::Member::Unnamed(i) => i.index.to_string(),
        },
        syn::Expr::Path(p) => p
            .path
            .segments
            .last()
            .map_or_else(|| "_".into(), |s| s.ident.to_string()),
        syn::Expr::Reference(r) => receiver_name(&r.expr),
        syn::Expr::Paren(p) => receiver_name(&p.expr),
        _ => "_".into(),
    }
}

impl Finder<'_> {
    fn function(&self) -> String {
        let mut function = None;
        let mut ty = None;
        for s in self.scope.iter().rev() {
            match s {
                Scope::Fn(f) if function.is_none() => function = Some(f.clone()),
                Scope::Impl(t) if function.is_some() => {
                    ty = Some(t.clone());
                    break;
                }
                Scope::Fn(_) => break,
                Scope::Impl(_) => {}
            }
        }
        match (ty, function) {
            (Some(t), Some(f)) => format!("{t}::{f}"),
            (None, Some(f)) => f,
            (_, None) => "<item>".into(),
        }
    }

    fn record(
        &mut self,
        operation: String,
        role: Option<&'static str>,
        order: Order,
        span: proc_macro2::Span,
        access: Access,
        call_bytes: Option<Range<usize>>,
    ) {
        let (start, end) = (span.start(), span.end());
        self.handled.insert((start.line, start.column));
        if order == Order::Relaxed {
            return;
        }
        let function = self.function();
        let slot = self
            .counts
            .entry((
                function.clone(),
                format!("{operation}{}", role.unwrap_or("")),
            ))
            .or_insert(0);
        let occurrence = *slot;
        *slot += 1;
        self.sites.push(Site {
            krate: self.krate.to_string(),
            file: self.file.to_string(),
            function,
            operation,
            role,
            order,
            occurrence,
            access,
            line: start.line,
            order_bytes: self.lines.offset(start)..self.lines.offset(end),
            call_bytes,
        });
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_mod(&mut self, node: &'ast syn::ItemMod) {
        if !is_cfg_test(&node.attrs) {
            visit::visit_item_mod(self, node);
        }
    }

    fn visit_item_impl(&mut self, node: &'ast syn::ItemImpl) {
        if is_cfg_test(&node.attrs) {
            return;
        }
        let ty = type_name(&node.self_ty);
        let name = match &node.trait_ {
            Some((path, _)) => format!(
                "<{ty} as {}>",
                path.segments
                    .last()
                    .map_or_else(|| "?".into(), |s| s.ident.to_string())
            ),
            None => ty,
        };
        self.scope.push(Scope::Impl(name));
        visit::visit_item_impl(self, node);
        self.scope.pop();
    }

    fn visit_item_fn(&mut self, node: &'ast syn::ItemFn) {
        if is_cfg_test(&node.attrs) {
            return;
        }
        self.scope.push(Scope::Fn(node.sig.ident.to_string()));
        visit::visit_item_fn(self, node);
        self.scope.pop();
    }

    fn visit_impl_item_fn(&mut self, node: &'ast syn::ImplItemFn) {
        if is_cfg_test(&node.attrs) {
            return;
        }
        self.scope.push(Scope::Fn(node.sig.ident.to_string()));
        visit::visit_impl_item_fn(self, node);
        self.scope.pop();
    }

    fn visit_trait_item_fn(&mut self, node: &'ast syn::TraitItemFn) {
        self.scope.push(Scope::Fn(node.sig.ident.to_string()));
        visit::visit_trait_item_fn(self, node);
        self.scope.pop();
    }

    fn visit_expr_method_call(&mut self, node: &'ast syn::ExprMethodCall) {
        let method = node.method.to_string();
        let operation = format!("{}.{method}", receiver_name(&node.receiver));
        for (i, arg) in node.args.iter().enumerate() {
            let Some((order, span)) = ordering_of(arg) else {
                continue;
            };
            let (role, access) = match (method.as_str(), i) {
                ("compare_exchange" | "compare_exchange_weak", 2) => {
                    (Some("success"), Access::ReadModifyWrite)
                }
                ("compare_exchange" | "compare_exchange_weak", _) => {
                    (Some("failure"), Access::Load)
                }
                ("fetch_update", 0) => (Some("set"), Access::ReadModifyWrite),
                ("fetch_update", _) => (Some("fetch"), Access::Load),
                ("load", _) => (None, Access::Load),
                ("store", _) => (None, Access::Store),
                ("swap", _) => (None, Access::ReadModifyWrite),
                (m, _) if m.starts_with("fetch_") => (None, Access::ReadModifyWrite),
                _ => (None, Access::Other),
            };
            self.record(operation.clone(), role, order, span, access, None);
        }
        visit::visit_expr_method_call(self, node);
    }

    fn visit_expr_call(&mut self, node: &'ast syn::ExprCall) {
        let is_fence = matches!(&*node.func, syn::Expr::Path(p)
            if p.path.segments.last().is_some_and(|s| s.ident == "fence" || s.ident == "compiler_fence"));
        if let (true, Some((order, span))) = (is_fence, node.args.first().and_then(ordering_of)) {
            let call = node.span();
            let bytes = self.lines.offset(call.start())..self.lines.offset(call.end());
            self.record(
                "fence".into(),
                None,
                order,
                span,
                Access::Fence,
                Some(bytes),
            );
        }
        visit::visit_expr_call(self, node);
    }

    fn visit_expr_path(&mut self, node: &'ast syn::ExprPath) {
        if let Some((order, span)) = ordering_in_path(&node.path) {
            let at = span.start();
            if !self.handled.contains(&(at.line, at.column)) {
                self.record("ordering".into(), None, order, span, Access::Other, None);
            }
        }
        visit::visit_expr_path(self, node);
    }
}

/// One row of `MUTANTS.md`'s mutant table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The crate.
    pub krate: String,
    /// The site's key.
    pub site: String,
    /// The mutation (`Relaxed`, `AcqRel`, `removed`...).
    pub mutation: String,
    /// `file:line` when it ran.
    pub location: String,
    /// `killed`, `timeout`, `survived`, ...
    pub result: String,
    /// What killed it, or why it survived.
    pub detail: String,
    /// Seconds the mutant took.
    pub seconds: String,
}

impl Row {
    /// The mutant key (`<site> -> <mutation>`).
    pub fn key(&self) -> String {
        format!("{} -> {}", self.site, self.mutation)
    }
}

/// The mutant rows of a `MUTANTS.md` text: lines of the table under
/// `## Mutants` (`| crate | `site` | mutation | ... |`).
pub fn parse_rows(md: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in md.lines() {
        if line.starts_with("## ") {
            in_table = line.trim() == "## Mutants";
            continue;
        }
        if !in_table || !line.starts_with('|') || line.starts_with("|---") {
            continue;
        }
        let cells: Vec<String> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        let code = |c: &String| c.trim_matches('`').to_string();
        if cells.len() != 7 || cells[0] == "crate" {
            continue;
        }
        rows.push(Row {
            krate: cells[0].clone(),
            site: code(&cells[1]),
            mutation: code(&cells[2]),
            location: cells[3].clone(),
            result: cells[4].clone(),
            detail: cells[5].clone(),
            seconds: cells[6].clone(),
        });
    }
    rows
}

/// The allow-list: mutant key → reason. Lines are `<mutant key> | reason`;
/// blank lines and lines starting with `#` are ignored.
pub fn parse_allow_list(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut allowed = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, reason)) = line.split_once(" | ") else {
            return Err(format!(
                "{ALLOW_LIST}:{}: expected `<mutant key> | <reason>`",
                n + 1
            ));
        };
        if reason.trim().is_empty() {
            return Err(format!("{ALLOW_LIST}:{}: the reason is empty", n + 1));
        }
        allowed.insert(key.trim().to_string(), reason.trim().to_string());
    }
    Ok(allowed)
}

/// Recomputes the sites of every present crate and compares them with the
/// sites `MUTANTS.md` records; also checks that every allow-list entry
/// names a mutant that exists. `Err` names each difference and the command
/// that brings `MUTANTS.md` up to date.
pub fn check(root: &Path) -> Result<usize, String> {
    let md = fs::read_to_string(root.join(MUTANTS_MD)).unwrap_or_default();
    let recorded: BTreeSet<String> = parse_rows(&md).into_iter().map(|r| r.site).collect();
    let mut current = BTreeSet::new();
    let mut mutants = BTreeSet::new();
    let mut problems = Vec::new();
    for krate in present_crates(root) {
        match find_sites(root, krate) {
            Ok(sites) => {
                for site in sites {
                    mutants.extend(site.mutants().iter().map(Mutant::key));
                    current.insert(site.key());
                }
            }
            Err(e) => problems.push(format!("cannot parse: {e}")),
        }
    }
    let added: Vec<_> = current.difference(&recorded).collect();
    let removed: Vec<_> = recorded.difference(&current).collect();
    for site in &added {
        problems.push(format!(
            "ordering site not in {MUTANTS_MD} (new or changed): {site}"
        ));
    }
    for site in &removed {
        problems.push(format!(
            "{MUTANTS_MD} lists a site the sources no longer have (removed or changed): {site}"
        ));
    }
    let allow = fs::read_to_string(root.join(ALLOW_LIST)).unwrap_or_default();
    match parse_allow_list(&allow) {
        Ok(allowed) => {
            for key in allowed.keys() {
                if !mutants.contains(key) {
                    problems.push(format!(
                        "{ALLOW_LIST} allows a mutant that no longer exists: {key}"
                    ));
                }
            }
        }
        Err(e) => problems.push(e),
    }
    if problems.is_empty() {
        return Ok(current.len());
    }
    let mut crates_hint: Vec<&str> = present_crates(root)
        .into_iter()
        .filter(|c| {
            added
                .iter()
                .chain(removed.iter())
                .any(|s| s.starts_with(&format!("{c}/")))
        })
        .collect();
    crates_hint.dedup();
    let only = crates_hint
        .iter()
        .map(|c| format!(" --crate {c}"))
        .collect::<String>();
    Err(format!(
        "{}\n\nThe ordering sites changed since {MUTANTS_MD} was written. Rerun the mutants of \
         the changed crates and rewrite it:\n    {WRITE_COMMAND}{only}\n(then justify any new \
         survivor in {ALLOW_LIST}, or kill it with a model). `--list` prints the sites as the \
         sources have them now.",
        problems.join("\n")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"
use core::sync::atomic::{AtomicUsize, Ordering, fence};
struct Q { head: AtomicUsize }
impl Q {
    fn pop(&self) {
        // Ordering::SeqCst in a comment is not a site
        let s = "Ordering::Acquire";
        let h = self.head.load(Ordering::Acquire);
        self.head.load(Ordering::Relaxed);
        let _ = self.head.compare_exchange(h, 1, Ordering::SeqCst, Ordering::Acquire);
        fence(Ordering::SeqCst);
        let f = || self.head.load(core::sync::atomic::Ordering::Acquire);
    }
}
impl Drop for Q {
    fn drop(&mut self) { self.head.store(0, Ordering::Release); }
}
#[cfg(test)]
mod tests { fn t(q: &super::Q) { q.head.load(Ordering::SeqCst); } }
"#;

    #[test]
    fn finds_each_ordering_with_a_stable_key() {
        let sites = sites_in_source("q", "q/src/lib.rs", SRC).unwrap();
        let keys: Vec<_> = sites.iter().map(Site::key).collect();
        assert_eq!(
            keys,
            [
                "q/src/lib.rs:Q::pop:head.load#0:Acquire",
                "q/src/lib.rs:Q::pop:head.compare_exchange#0:success:SeqCst",
                "q/src/lib.rs:Q::pop:head.compare_exchange#0:failure:Acquire",
                "q/src/lib.rs:Q::pop:fence#0:SeqCst",
                "q/src/lib.rs:Q::pop:head.load#1:Acquire",
                "q/src/lib.rs:<Q as Drop>::drop:head.store#0:Release",
            ]
        );
        assert_eq!(sites[0].line, 8);
    }

    #[test]
    fn mutants_replace_exactly_one_ordering() {
        let sites = sites_in_source("q", "q/src/lib.rs", SRC).unwrap();
        let cas: Vec<_> = sites[1].mutants().iter().map(|m| m.apply(SRC)).collect();
        assert_eq!(cas.len(), 2);
        assert!(cas[0].contains("compare_exchange(h, 1, Ordering::Relaxed, Ordering::Acquire)"));
        assert!(cas[1].contains("compare_exchange(h, 1, Ordering::AcqRel, Ordering::Acquire)"));
        let fence: Vec<_> = sites[3].mutants().iter().map(|m| m.apply(SRC)).collect();
        assert_eq!(fence.len(), 2);
        assert!(fence[0].contains("fence(Ordering::AcqRel);"));
        assert!(fence[1].contains("        ();\n"));
        let load = sites[0].mutants();
        assert_eq!(load.len(), 1);
        assert_eq!(
            load[0].key(),
            "q/src/lib.rs:Q::pop:head.load#0:Acquire -> Relaxed"
        );
        for m in sites.iter().flat_map(Site::mutants) {
            syn::parse_file(&m.apply(SRC)).expect("a mutant still parses");
        }
    }

    #[test]
    fn rows_and_allow_list_parse_back() {
        let md = "## Mutants\n\n| crate | site | mutation | where | result | by | time |\n|---|---|---|---|---|---|---|\n| q | `q/src/lib.rs:Q::pop:head.load#0:Acquire` | `Relaxed` | q/src/lib.rs:8 | killed | loom `m` | 3 s |\n\n## Other\n| a | b | c | d | e | f | g |\n";
        let rows = parse_rows(md);
        assert_eq!(rows.len(), 1);
        assert_eq!(
            rows[0].key(),
            "q/src/lib.rs:Q::pop:head.load#0:Acquire -> Relaxed"
        );
        let allow = parse_allow_list("# c\n\na -> Relaxed | equivalent: a hint\n").unwrap();
        assert_eq!(allow["a -> Relaxed"], "equivalent: a hint");
        assert!(parse_allow_list("no reason here").is_err());
    }
}
