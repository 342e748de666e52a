//! The command line's module graph has no arrow back up and no circle:
//! read from the source (parsed with `syn`), not claimed.
//!
//! Each file under `engine/cli/src` is a module (`reproduce/lab/plan.rs`
//! is `reproduce::lab::plan`, a `mod.rs` is its folder, `main.rs` the crate
//! root). A module depends on another when it names it by a `crate::`,
//! `super::` or `self::` path: in a `use`, in code, or in a macro's
//! tokens (`#[cfg(test)]` items are skipped: a test may reach anywhere;
//! comments and doc links are not code). A folder naming its own files
//! (declaring and re-exporting them) is structure, not a dependency; a file
//! naming its folder is one.
//!
//! Two checks, with no list of exceptions:
//! * every arrow points to the same or a lower layer of [`LAYERS`]
//!   (`docs/architecture.md`, "The command line");
//! * no circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use syn::visit::Visit;

/// The modules, bottom up, each by its path; a module belongs to the
/// longest entry it starts with, and may use its own layer (without a
/// circle) and those below. The crate root (`main.rs`: the parser, `run`
/// and `bench`) is the top.
const LAYERS: &[&[&str]] = &[
    // What the command line writes: files, counts in words, progress.
    &["output"],
    // How many runs at once and the pool; scenario files as flags take them.
    &["pool", "scenario_file"],
    // A batch of runs spread over processes and machines (shards, plan.json).
    &["cluster"],
    // reproduce: numbers in words, intervals, causes of verdicts.
    &["reproduce::format", "reproduce::stats", "reproduce::cause"],
    // Bounds; the papers' words read into them; checks and verdicts.
    &["reproduce::bound"],
    &["reproduce::readings"],
    &["reproduce::judge"],
    // The lab: the runs claims ask for, run and handed back.
    &["reproduce::lab"],
    // A claim and its constructor; the registries and the authors' values.
    &["reproduce::claim"],
    &["reproduce::claims", "reproduce::authors"],
    // Planning and judging claims; a share of their runs into a directory.
    &["reproduce::lab::plan"],
    &["reproduce::lab::shard"],
    // The report's forms, and the merge of a sharded reproduction.
    &["reproduce::report"],
    // The commands.
    &["reproduce", "sweep", "serve"],
    // The crate root.
    &[""],
];

/// A module path as `a::b`, the crate root as the empty string.
type Module = String;

/// Every module file under `src`: module -> parsed source.
fn modules(src: &Path) -> BTreeMap<Module, syn::File> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(src).unwrap().with_extension("");
                let mut segs: Vec<String> = rel.iter().map(|s| s.to_str().unwrap().to_string()).collect();
                if matches!(segs.last().map(String::as_str), Some("mod" | "main")) {
                    segs.pop();
                }
                let text = std::fs::read_to_string(&p).unwrap();
                let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                out.insert(segs.join("::"), file);
            }
        }
    }
    out
}

/// Whether `attrs` hold `#[cfg(test)]`.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
}

/// The attributes of an item.
fn attrs(i: &syn::Item) -> &[syn::Attribute] {
    use syn::Item::*;
    match i {
        Const(x) => &x.attrs,
        Enum(x) => &x.attrs,
        Fn(x) => &x.attrs,
        Impl(x) => &x.attrs,
        Macro(x) => &x.attrs,
        Mod(x) => &x.attrs,
        Static(x) => &x.attrs,
        Struct(x) => &x.attrs,
        Trait(x) => &x.attrs,
        Type(x) => &x.attrs,
        Use(x) => &x.attrs,
        _ => &[],
    }
}

/// Collects the `crate::`/`super::`/`self::` paths a module names, made
/// absolute (without `crate`).
struct Paths {
    /// The module's path, then the inline modules open here.
    here: Vec<String>,
    found: Vec<Vec<String>>,
}

impl Paths {
    /// Records `segs` if it starts with `crate`, `super` or `self`.
    fn record(&mut self, segs: &[String]) {
        let Some(head) = segs.first() else { return };
        if !matches!(head.as_str(), "crate" | "super" | "self") {
            return;
        }
        let mut abs = if head == "crate" { vec![] } else { self.here.clone() };
        for s in segs {
            match s.as_str() {
                "crate" | "self" => {}
                "super" => {
                    abs.pop();
                }
                _ => abs.push(s.clone()),
            }
        }
        self.found.push(abs);
    }

    /// Every path a use tree names, after `prefix`.
    fn use_tree(&mut self, t: &syn::UseTree, prefix: &mut Vec<String>) {
        match t {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                let segs: Vec<String> = prefix.iter().cloned().chain((name != "self").then_some(name)).collect();
                self.record(&segs);
            }
            syn::UseTree::Rename(r) => self.record(&[prefix.clone(), vec![r.ident.to_string()]].concat()),
            syn::UseTree::Glob(_) => self.record(prefix),
            syn::UseTree::Group(g) => g.items.iter().for_each(|i| self.use_tree(i, prefix)),
        }
    }
}

impl<'a> Visit<'a> for Paths {
    fn visit_item(&mut self, i: &'a syn::Item) {
        if !is_test(attrs(i)) {
            syn::visit::visit_item(self, i);
        }
    }
    fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
    fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
        if m.content.is_some() {
            self.here.push(m.ident.to_string());
            syn::visit::visit_item_mod(self, m);
            self.here.pop();
        }
    }
    fn visit_item_use(&mut self, u: &'a syn::ItemUse) {
        self.use_tree(&u.tree, &mut Vec::new());
    }
    fn visit_path(&mut self, p: &'a syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.record(&segs);
        syn::visit::visit_path(self, p);
    }
    fn visit_macro(&mut self, m: &'a syn::Macro) {
        // `format!("{}", crate::x::f())`: paths in a macro's tokens.
        let toks: Vec<proc_macro2::TokenTree> = flatten(m.tokens.clone());
        for (k, t) in toks.iter().enumerate() {
            if let proc_macro2::TokenTree::Ident(head) = t {
                let mut segs = vec![head.to_string()];
                let mut j = k + 1;
                while let (Some(proc_macro2::TokenTree::Punct(a)), Some(proc_macro2::TokenTree::Punct(b)), Some(proc_macro2::TokenTree::Ident(s))) =
                    (toks.get(j), toks.get(j + 1), toks.get(j + 2))
                {
                    if a.as_char() != ':' || b.as_char() != ':' {
                        break;
                    }
                    segs.push(s.to_string());
                    j += 3;
                }
                let preceded_by_path = k >= 1 && matches!(&toks[k - 1], proc_macro2::TokenTree::Punct(p) if p.as_char() == ':' || p.as_char() == '$');
                if !preceded_by_path {
                    self.record(&segs);
                }
            }
        }
        syn::visit::visit_macro(self, m);
    }
}

/// The tokens of `ts`, groups opened.
fn flatten(ts: proc_macro2::TokenStream) -> Vec<proc_macro2::TokenTree> {
    ts.into_iter()
        .flat_map(|t| match t {
            proc_macro2::TokenTree::Group(g) => flatten(g.stream()),
            t => vec![t],
        })
        .collect()
}

/// The module graph: module -> the modules it depends on.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let mods = modules(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    // Files declared `#[cfg(test)] mod x;` are tests' own.
    let mut test_only = BTreeSet::new();
    for (m, f) in &mods {
        for i in &f.items {
            if let syn::Item::Mod(x) = i {
                if x.content.is_none() && is_test(&x.attrs) {
                    test_only.insert(if m.is_empty() { x.ident.to_string() } else { format!("{m}::{}", x.ident) });
                }
            }
        }
    }
    let mut g = BTreeMap::new();
    for (me, f) in mods.iter().filter(|(m, _)| !test_only.contains(*m)) {
        let mut v = Paths { here: if me.is_empty() { vec![] } else { me.split("::").map(String::from).collect() }, found: Vec::new() };
        v.visit_file(f);
        let deps: &mut BTreeSet<Module> = g.entry(me.clone()).or_default();
        for p in v.found {
            // The longest prefix that is a module file (an item of the root: the root).
            let to = (0..=p.len()).rev().map(|k| p[..k].join("::")).find(|m| mods.contains_key(m)).unwrap();
            // Itself, or its own files (structure, not dependency).
            let own = to == *me || me.is_empty() || to.starts_with(&format!("{me}::"));
            if !own {
                deps.insert(to);
            }
        }
    }
    g
}

/// The layer of module `m`: its longest entry in [`LAYERS`].
fn layer(m: &str) -> usize {
    let mut best: Option<(usize, usize)> = None;
    for (i, l) in LAYERS.iter().enumerate() {
        for e in *l {
            let fits = m == *e || (!e.is_empty() && m.starts_with(&format!("{e}::")));
            if fits && best.is_none_or(|(len, _)| e.len() >= len) {
                best = Some((e.len(), i));
            }
        }
    }
    best.unwrap_or_else(|| panic!("module `{m}` is in no layer: add it to LAYERS (and to docs/architecture.md)")).1
}

#[test]
fn no_arrow_points_to_a_higher_layer() {
    let g = graph();
    let back: Vec<(&str, &str)> =
        g.iter().flat_map(|(from, deps)| deps.iter().map(move |to| (from.as_str(), to.as_str()))).filter(|(from, to)| layer(to) > layer(from)).collect();
    assert!(back.is_empty(), "arrows into a higher layer (see LAYERS; \"\" is main.rs): {back:?}");
}

#[test]
fn no_circles() {
    let g = graph();
    // Depth first; a module met again while still open closes a circle.
    fn visit<'a>(g: &'a BTreeMap<Module, BTreeSet<Module>>, m: &'a str, open: &mut Vec<&'a str>, done: &mut BTreeSet<&'a str>) -> Option<Vec<String>> {
        if let Some(k) = open.iter().position(|o| *o == m) {
            return Some(open[k..].iter().map(|s| s.to_string()).chain([m.to_string()]).collect());
        }
        if !done.insert(m) {
            return None;
        }
        open.push(m);
        for d in g.get(m).into_iter().flatten() {
            if let Some(c) = visit(g, d, open, done) {
                return Some(c);
            }
        }
        open.pop();
        None
    }
    let mut done = BTreeSet::new();
    for m in g.keys() {
        let circle = visit(&g, m, &mut Vec::new(), &mut done);
        assert!(circle.is_none(), "modules that import each other (in a circle): {}", circle.unwrap().join(" -> "));
    }
}

#[test]
fn every_module_is_in_a_layer_and_the_graph_is_read() {
    let g = graph();
    for m in g.keys() {
        layer(m);
    }
    // The reader finds what is plainly there (so the checks above are not
    // vacuous): a `use crate::`, a `use super::*` of a file's folder, a
    // path in code, a path in a macro's tokens.
    for (from, to) in [
        ("sweep", "cluster"),
        ("reproduce::lab::shard", "cluster"),
        ("reproduce::claims::phost::section_4_2", "reproduce::claims::phost"),
        ("reproduce::claims::phost", "reproduce::claim"),
        ("reproduce::report::merge", "reproduce::lab::plan"),
        ("reproduce::lab", "crate::pool"),
    ] {
        let to = to.trim_start_matches("crate::");
        assert!(g.get(from).is_some_and(|d| d.contains(to)), "{from} -> {to} not read; graph: {g:#?}");
    }
    // A file's arrows to its own folder's files are structure.
    assert!(!g[""].contains("sweep") && !g["reproduce"].contains("reproduce::lab"), "{g:#?}");
}
