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
    /// Whether the ordering is written as a bare imported name (`Acquire`,
    /// or a rename of it): a mutant then writes the full path of the
    /// weaker one, which the file may not import.
    pub bare: bool,
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
        let full;
        let (range, with) = match self.mutation {
            Mutation::To(order) if self.site.bare => {
                full = format!("::core::sync::atomic::Ordering::{order}");
                (self.site.order_bytes.clone(), full.as_str())
            }
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

/// Every site of crate `krate` of the workspace at `root` (its
/// `src/**/*.rs`, test-only code skipped), in file and source order; files
/// are named relative to `root` (`mpmc/src/queue.rs`).
pub fn find_sites(root: &Path, krate: &str) -> Result<Vec<Site>, String> {
    sites_under(&root.join(krate), &format!("{krate}/"), krate)
}

/// Every site of any crate, the one whose manifest is in `dir` (its
/// `src/**/*.rs`, test-only code skipped), in file and source order; files
/// are named relative to `dir` (`src/lib.rs`) and the sites' crate is
/// `name`.
pub fn find_crate_sites(dir: &Path, name: &str) -> Result<Vec<Site>, String> {
    sites_under(dir, "", name)
}

/// The sites of `<dir>/src/**/*.rs`, each file named `<prefix>src/...`.
/// A file that is the module of a test-only `mod x;` (`#[cfg(test)]`,
/// `#[cfg(all(loom, test))]`, ...), or lies under such a module's
/// directory, is skipped, as the compiler skips it outside tests.
fn sites_under(dir: &Path, prefix: &str, krate: &str) -> Result<Vec<Site>, String> {
    let src = dir.join("src");
    let mut files = Vec::new();
    collect_rs(&src, &mut files).map_err(|e| format!("reading {}: {e}", src.display()))?;
    files.sort();
    let mut parsed = Vec::new();
    let mut test_only: Vec<PathBuf> = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let rel = path
            .strip_prefix(dir)
            .expect("under the crate")
            .to_string_lossy()
            .replace('\\', "/");
        let found = scan_source(krate, &format!("{prefix}{rel}"), &text)?;
        test_only.extend(found.test_modules.iter().map(|m| module_dir(&path).join(m)));
        parsed.push((path, found.sites));
    }
    Ok(parsed
        .into_iter()
        .filter(|(path, _)| {
            !test_only
                .iter()
                .any(|m| path.starts_with(m) || *path == m.with_extension("rs"))
        })
        .flat_map(|(_, sites)| sites)
        .collect())
}

/// Where the files of the modules that `file` declares are: its own
/// directory for `lib.rs`, `main.rs` and `mod.rs`, else `<dir>/<stem>/`.
fn module_dir(file: &Path) -> PathBuf {
    let dir = file.parent().unwrap_or(Path::new(""));
    match file.file_stem().and_then(|s| s.to_str()) {
        Some("lib" | "main" | "mod") | None => dir.to_path_buf(),
        Some(stem) => dir.join(stem),
    }
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
    Ok(scan_source(krate, file, text)?.sites)
}

/// What one file holds: its sites, and the test-only modules it declares
/// out of line (their paths relative to the file's module directory:
/// `tests`, `a/tests`, or a `#[path]`).
struct Scanned {
    sites: Vec<Site>,
    test_modules: Vec<PathBuf>,
}

fn scan_source(krate: &str, file: &str, text: &str) -> Result<Scanned, String> {
    let ast = syn::parse_file(text).map_err(|e| {
        let at = e.span().start();
        format!("{file}:{}:{}: {e}", at.line, at.column + 1)
    })?;
    let mut names = Names::default();
    names.visit_file(&ast);
    let mut finder = Finder {
        krate,
        file,
        lines: LineIndex::new(text),
        names,
        scope: Vec::new(),
        modules: Vec::new(),
        counts: HashMap::new(),
        handled: HashSet::new(),
        sites: Vec::new(),
        test_modules: Vec::new(),
    };
    finder.visit_file(&ast);
    Ok(Scanned {
        sites: finder.sites,
        test_modules: finder.test_modules,
    })
}

/// How a file names orderings, from its `use` items (wherever they are in
/// the file): the names that stand for the `Ordering` type (`Ordering`, or
/// a rename), and the bare names that stand for one ordering
/// (`use core::sync::atomic::Ordering::{Acquire, Release}`, `use
/// Ordering::*`, renames too).
struct Names {
    ordering_type: HashSet<String>,
    bare: HashMap<String, Order>,
}

impl Default for Names {
    fn default() -> Self {
        Names {
            ordering_type: HashSet::from(["Ordering".to_string()]),
            bare: HashMap::new(),
        }
    }
}

const ORDERS: [Order; 5] = [
    Order::Relaxed,
    Order::Acquire,
    Order::Release,
    Order::AcqRel,
    Order::SeqCst,
];

impl Names {
    /// Records what `tree` imports, `parent` being the segment before it.
    fn add(&mut self, parent: Option<&str>, tree: &syn::UseTree) {
        let under_ordering = parent.is_some_and(|p| self.ordering_type.contains(p));
        match tree {
            syn::UseTree::Path(p) => self.add(Some(&p.ident.to_string()), &p.tree),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.add(parent, t);
                }
            }
            syn::UseTree::Glob(_) if under_ordering => {
                for order in ORDERS {
                    self.bare.insert(order.name().to_string(), order);
                }
            }
            syn::UseTree::Glob(_) => {}
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                if let (true, Some(order)) = (under_ordering, Order::parse(&name)) {
                    self.bare.insert(name, order);
                }
            }
            syn::UseTree::Rename(r) => {
                let (name, alias) = (r.ident.to_string(), r.rename.to_string());
                if name == "Ordering" {
                    self.ordering_type.insert(alias);
                } else if let (true, Some(order)) = (under_ordering, Order::parse(&name)) {
                    self.bare.insert(alias, order);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item_use(&mut self, node: &'ast syn::ItemUse) {
        self.add(None, &node.tree);
    }
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
    names: Names,
    /// Enclosing impl types (`Some`) and functions (`None` marks none).
    scope: Vec<Scope>,
    /// The inline modules around the visitor (`mod a { ... }`).
    modules: Vec<String>,
    counts: HashMap<(String, String), usize>,
    /// Ordering arguments already recorded by their call, by position.
    handled: HashSet<(usize, usize)>,
    sites: Vec<Site>,
    test_modules: Vec<PathBuf>,
}

/// An ordering argument: which, the span of its name, and whether it is a
/// bare imported name.
type Found = (Order, proc_macro2::Span, bool);

enum Scope {
    Impl(String),
    Fn(String),
}

/// Whether `attrs` make an item test-only: a `#[cfg(...)]` whose
/// predicate needs `test` (`test`, `all(loom, test)`, ...).
fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    fn needs_test(meta: &syn::Meta) -> bool {
        match meta {
            syn::Meta::Path(p) => p.is_ident("test"),
            syn::Meta::List(l) if l.path.is_ident("all") => l
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .is_ok_and(|all| all.iter().any(needs_test)),
            _ => false,
        }
    }
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Meta>().is_ok_and(|m| needs_test(&m))
    })
}

/// A `#[path = "..."]` attribute's value.
fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
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
    /// `Ordering::X` (or a longer path ending so, `Ordering` being any name
    /// the file gives the type), or a bare `X` the file imported: the
    /// ordering and the span of `X`.
    fn ordering_of(&self, expr: &syn::Expr) -> Option<Found> {
        match expr {
            syn::Expr::Path(p) if p.qself.is_none() => self.ordering_in_path(&p.path),
            syn::Expr::Paren(p) => self.ordering_of(&p.expr),
            _ => None,
        }
    }

    /// ... and whether it is a bare name.
    fn ordering_in_path(&self, path: &syn::Path) -> Option<Found> {
        let segs: Vec<_> = path.segments.iter().collect();
        match segs.as_slice() {
            [one] if path.leading_colon.is_none() => {
                let order = *self.names.bare.get(&one.ident.to_string())?;
                Some((order, one.ident.span(), true))
            }
            [.., ty, last] if self.names.ordering_type.contains(&ty.ident.to_string()) => {
                let order = Order::parse(&last.ident.to_string())?;
                Some((order, last.ident.span(), false))
            }
            _ => None,
        }
    }

    /// Visits what a macro call holds, when it parses as Rust: arguments
    /// (`test_dbg!(x.load(Acquire))`, `assert!(...)`), items or
    /// statements. Spans are the source's, so sites in them are rewritten
    /// in place like any other. A body that does not parse (a
    /// `macro_rules!` definition) is skipped.
    fn visit_macro_body(&mut self, mac: &syn::Macro) {
        use syn::parse::Parser;
        let tokens = mac.tokens.clone();
        let exprs = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(args) = exprs.parse2(tokens.clone()) {
            for e in &args {
                self.visit_expr(e);
            }
        } else if let Ok(file) = syn::parse2::<syn::File>(tokens.clone()) {
            for item in &file.items {
                self.visit_item(item);
            }
        } else if let Ok(stmts) = syn::Block::parse_within.parse2(tokens) {
            for s in &stmts {
                self.visit_stmt(s);
            }
        }
    }

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
        (order, span, bare): Found,
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
            bare,
        });
    }
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_mod(&mut self, node: &'ast syn::ItemMod) {
        if is_cfg_test(&node.attrs) {
            if node.content.is_none() {
                let mut at: PathBuf = self.modules.iter().collect();
                at.push(path_attr(&node.attrs).unwrap_or_else(|| node.ident.to_string()));
                self.test_modules.push(at);
            }
            return;
        }
        self.modules.push(node.ident.to_string());
        visit::visit_item_mod(self, node);
        self.modules.pop();
    }

    fn visit_macro(&mut self, node: &'ast syn::Macro) {
        self.visit_macro_body(node);
        visit::visit_macro(self, node);
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
            let Some(found) = self.ordering_of(arg) else {
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
            self.record(operation.clone(), role, found, access, None);
        }
        visit::visit_expr_method_call(self, node);
    }

    fn visit_expr_call(&mut self, node: &'ast syn::ExprCall) {
        let is_fence = matches!(&*node.func, syn::Expr::Path(p)
            if p.path.segments.last().is_some_and(|s| s.ident == "fence" || s.ident == "compiler_fence"));
        if let (true, Some(found)) = (
            is_fence,
            node.args.first().and_then(|a| self.ordering_of(a)),
        ) {
            let call = node.span();
            let bytes = self.lines.offset(call.start())..self.lines.offset(call.end());
            self.record("fence".into(), None, found, Access::Fence, Some(bytes));
        }
        visit::visit_expr_call(self, node);
    }

    fn visit_expr_path(&mut self, node: &'ast syn::ExprPath) {
        if let Some(found) = self
            .ordering_in_path(&node.path)
            .filter(|_| node.qself.is_none())
        {
            let at = found.1.start();
            if !self.handled.contains(&(at.line, at.column)) {
                self.record("ordering".into(), None, found, Access::Other, None);
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
    parse_allow_list_in(text, ALLOW_LIST)
}

/// [`parse_allow_list`] of the allow-list `file` (named in errors).
pub fn parse_allow_list_in(text: &str, file: &str) -> Result<BTreeMap<String, String>, String> {
    let mut allowed = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, reason)) = line.split_once(" | ") else {
            return Err(format!(
                "{file}:{}: expected `<mutant key> | <reason>`",
                n + 1
            ));
        };
        if reason.trim().is_empty() {
            return Err(format!("{file}:{}: the reason is empty", n + 1));
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

    /// Written as concurrent-queue and thingbuf write theirs: the type
    /// through a shim (`crate::sync::atomic::Ordering`), a longer path,
    /// a rename, bare names imported by list and by glob, orderings inside
    /// a macro's arguments, and loom tests under `cfg(all(loom, test))`.
    const FOREIGN: &str = r#"
use crate::loom::atomic::{AtomicUsize, Ordering::{self, *}};
use core::sync::atomic::Ordering as O;
use std::sync::atomic::Ordering::{Acquire as Acq, Release};
struct Q { head: AtomicUsize }
impl Q {
    fn push(&self) {
        let a = test_dbg!(self.head.load(Acquire));
        self.head.store(a, Release);
        let _ = self.head.compare_exchange_weak(a, 1, SeqCst, Acq);
        self.head.fetch_add(1, O::AcqRel);
        self.head.load(core::sync::atomic::Ordering::SeqCst);
        test_dbg!(crate::loom::atomic::fence(SeqCst));
        self.head.load(Relaxed);
        assert!(self.head.load(Ordering::Acquire) > 0, "{}", 1);
    }
}
#[cfg(all(loom, test))]
mod tests { fn t(q: &super::Q) { q.head.load(SeqCst); } }
#[cfg(all(loom, test))]
mod model;
#[cfg(not(test))]
fn not_a_test(q: &Q) { q.head.load(Acquire); }
"#;

    #[test]
    fn finds_orderings_however_they_are_named() {
        let sites = scan_source("q", "src/lib.rs", FOREIGN).unwrap();
        let keys: Vec<_> = sites.sites.iter().map(Site::key).collect();
        assert_eq!(
            keys,
            [
                "src/lib.rs:Q::push:head.load#0:Acquire",
                "src/lib.rs:Q::push:head.store#0:Release",
                "src/lib.rs:Q::push:head.compare_exchange_weak#0:success:SeqCst",
                "src/lib.rs:Q::push:head.compare_exchange_weak#0:failure:Acquire",
                "src/lib.rs:Q::push:head.fetch_add#0:AcqRel",
                "src/lib.rs:Q::push:head.load#1:SeqCst",
                "src/lib.rs:Q::push:fence#0:SeqCst",
                "src/lib.rs:Q::push:head.load#2:Acquire",
                "src/lib.rs:not_a_test:head.load#0:Acquire",
            ]
        );
        assert_eq!(sites.test_modules, [PathBuf::from("model")]);
        // A bare ordering (renamed or not) becomes a full path, which
        // needs no import.
        let cas = sites.sites[3].mutants()[0].apply(FOREIGN);
        assert!(cas.contains(
            "compare_exchange_weak(a, 1, SeqCst, ::core::sync::atomic::Ordering::Relaxed)"
        ));
        let store = sites.sites[4].mutants()[0].apply(FOREIGN);
        assert!(store.contains("fetch_add(1, O::Relaxed)"));
        let fence = sites.sites[6].mutants();
        assert!(fence[1].apply(FOREIGN).contains("test_dbg!(());"));
        for m in sites.sites.iter().flat_map(Site::mutants) {
            syn::parse_file(&m.apply(FOREIGN)).expect("a mutant still parses");
        }
    }

    #[test]
    fn a_test_only_modules_files_are_skipped() {
        let dir = std::env::temp_dir().join(format!("hotq-sites-{}", std::process::id()));
        let write = |rel: &str, text: &str| {
            let path = dir.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        let load = "pub fn f(a: &core::sync::atomic::AtomicUsize) { a.load(Ordering::Acquire); }\n";
        write(
            "src/lib.rs",
            &format!("mod queue;\n#[cfg(test)]\nmod tests;\n{load}"),
        );
        write(
            "src/queue.rs",
            &format!("#[cfg(all(loom, test))]\nmod tests;\n{load}"),
        );
        write("src/queue/tests.rs", &format!("mod deep;\n{load}"));
        write("src/queue/tests/deep.rs", load);
        write("src/tests.rs", load);
        let files: Vec<String> = find_crate_sites(&dir, "q")
            .unwrap()
            .into_iter()
            .map(|s| s.file)
            .collect();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(files, ["src/lib.rs", "src/queue.rs"]);
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
