//! The core's module graph has no back arrows and no circles: read from
//! the source, not claimed.
//!
//! Each file under `engine/core/src` is a module (`sim/fabric.rs` is
//! `sim::fabric`, a `mod.rs` is its folder). A module depends on another
//! when it names it by a `crate::`, `super::` or `self::` path, in a `use`
//! or in code (comments, strings and `#[cfg(test)]` items are skipped: a
//! test may reach anywhere). A folder's files are one unit with it: a
//! module naming its own submodules (declaring and re-exporting them) is
//! not a dependency; a submodule naming its ancestors is.
//!
//! Two checks, each with a list of known exceptions that other work
//! removes and that can only shrink (an entry no longer seen fails the
//! test, so it is deleted when its arrow goes):
//! * every arrow points to the same or a lower layer of [`LAYERS`]
//!   (`docs/architecture.md`, "The layers");
//! * no circle: the graph without the listed edges has no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level modules, bottom up; a module may use its own layer
/// (without a circle) and those below.
const LAYERS: &[&[&str]] = &[
    // Vocabulary: time, ids, random streams, storage, protocol names.
    &["units", "ids", "slab", "heap", "rng"],
    // The event list; packets.
    &["event", "packet"],
    // The network, its queue disciplines, faults on it.
    &["net", "queue", "fault"],
    // Flows offered; what is observed of a run.
    &["workload", "trace", "metrics"],
    // The protocols (sans-IO).
    &["protocol"],
    // The simulation that drives a protocol.
    &["sim"],
    // The scenario file (with its branch), reports.
    &["branch", "scenario", "report"],
    // Scenario to results; the names the page reads.
    &["run", "exports"],
    // What drives runs: threads, time travel.
    &["parallel", "timeline"],
];

/// Known arrows into a higher layer: none left (port setup moved into the
/// protocol layer, issue 29). Listed here only while other work removes one.
const ALLOWED_BACK_ARROWS: &[(&str, &str)] = &[];

/// Known edges that close a circle: none left (issue 29). Listed here only
/// while other work removes one.
const ALLOWED_CIRCLE_EDGES: &[(&str, &str)] = &[];

/// A module path as `a::b`, the crate root as the empty string.
type Module = String;

/// Every module file under `src`: path -> source.
fn modules(src: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            if p.extension().and_then(|x| x.to_str()) != Some("rs") {
                continue;
            }
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut segs: Vec<String> = rel.iter().map(|s| s.to_str().unwrap().to_string()).collect();
            if segs.last().map(String::as_str) == Some("mod") || segs == ["lib"] {
                segs.pop();
            }
            out.insert(segs.join("::"), std::fs::read_to_string(&p).unwrap());
        }
    }
    out
}

/// A token of Rust source, as much of it as the graph needs.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// Tokens of `src` without comments, strings and character literals.
fn tokens(src: &str) -> Vec<Tok> {
    let b: Vec<char> = src.chars().collect();
    let (mut i, mut out) = (0, Vec::new());
    while i < b.len() {
        let c = b[i];
        if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            loop {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(b.get(i + 1 + b[i + 1..].iter().take_while(|&&c| c == '#').count()), Some('"')) {
            // A raw string: r#"..."#.
            let hashes = b[i + 1..].iter().take_while(|&&c| c == '#').count();
            let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            i += 2 + hashes;
            while b[i..].iter().take(close.len()).ne(close.iter()) {
                i += 1;
            }
            i += close.len();
        } else if c == '"' {
            i += 1;
            while b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if b.get(i + 1) == Some(&'\\') {
                i += 3;
                while b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphabetic() || c == '_' {
            let s = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(b[s..i].iter().collect()));
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Tok::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// Index past the item starting at `i` (up to its `;` or its balanced
/// braces, whichever comes first).
fn skip_item(t: &[Tok], mut i: usize) -> usize {
    while i < t.len() {
        match t[i] {
            Tok::Punct(';') => return i + 1,
            Tok::Punct('{') => {
                let mut depth = 0;
                while i < t.len() {
                    match t[i] {
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    i
}

/// At `i`, the attribute `#[cfg(test)]`: the index past it, else None.
fn cfg_test_at(t: &[Tok], i: usize) -> Option<usize> {
    let want = [Tok::Punct('#'), Tok::Punct('['), Tok::Ident("cfg".into()), Tok::Punct('('), Tok::Ident("test".into()), Tok::Punct(')'), Tok::Punct(']')];
    (t.len() >= i + want.len() && t[i..i + want.len()] == want).then_some(i + want.len())
}

/// Expands the path or use tree at `i` (after its first segment `prefix`)
/// into every path it names; returns the index past it.
fn path_tree(t: &[Tok], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    while t.get(i) == Some(&Tok::Path) {
        match t.get(i + 1) {
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 2;
            }
            Some(Tok::Punct('{')) => {
                i += 2;
                out.push(path.clone());
                while t.get(i) != Some(&Tok::Punct('}')) {
                    match &t[i] {
                        Tok::Ident(s) if s == "self" => i += 1,
                        Tok::Ident(s) => i = path_tree(t, i + 1, [path.clone(), vec![s.clone()]].concat(), out),
                        _ => i += 1,
                    }
                }
                return i + 1;
            }
            _ => break,
        }
    }
    out.push(path);
    i
}

/// The `#[cfg(test)]` submodules declared in `src` (`mod x;`), by name.
fn test_only_children(t: &[Tok]) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..t.len() {
        let Some(mut j) = cfg_test_at(t, i) else { continue };
        if t.get(j) == Some(&Tok::Ident("pub".into())) {
            j += 1;
            if t.get(j) == Some(&Tok::Punct('(')) {
                j += 3;
            }
        }
        if let (Some(Tok::Ident(m)), Some(Tok::Ident(name)), Some(Tok::Punct(';'))) = (t.get(j), t.get(j + 1), t.get(j + 2)) {
            if m == "mod" {
                out.push(name.clone());
            }
        }
    }
    out
}

/// The paths module `me` names, absolute (without `crate`), outside
/// `#[cfg(test)]` items; inline modules are tracked so `super` resolves.
fn named_paths(me: &str, t: &[Tok]) -> Vec<Vec<String>> {
    let base: Vec<String> = if me.is_empty() { vec![] } else { me.split("::").map(String::from).collect() };
    // Inline modules open here: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let (mut i, mut depth, mut out) = (0, 0usize, Vec::new());
    while i < t.len() {
        if let Some(j) = cfg_test_at(t, i) {
            i = skip_item(t, j);
            continue;
        }
        match &t[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                if inline.last().is_some_and(|&(_, d)| d == depth + 1) {
                    inline.pop();
                }
            }
            Tok::Ident(m) if m == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) = (t.get(i + 1), t.get(i + 2)) {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Tok::Ident(head) if (head == "crate" || head == "super" || head == "self") && t.get(i + 1) == Some(&Tok::Path) => {
                // Not `$crate`, nor a field or method named so.
                let here: Vec<String> = base.iter().cloned().chain(inline.iter().map(|(n, _)| n.clone())).collect();
                let mut found = Vec::new();
                let next = path_tree(t, i + 1, vec![head.clone()], &mut found);
                for p in found {
                    let mut abs = if p[0] == "crate" { vec![] } else { here.clone() };
                    for s in &p {
                        match s.as_str() {
                            "crate" | "self" => {}
                            "super" => {
                                abs.pop();
                            }
                            _ => abs.push(s.clone()),
                        }
                    }
                    out.push(abs);
                }
                i = next;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Names the crate root re-exports (`pub use m::{A, B}`): name -> module.
fn root_reexports(lib: &[Tok]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for i in 0..lib.len() {
        if let (Tok::Ident(p), Some(Tok::Ident(u)), Some(Tok::Ident(m))) = (&lib[i], lib.get(i + 1), lib.get(i + 2)) {
            if p == "pub" && u == "use" {
                let mut found = Vec::new();
                path_tree(lib, i + 3, vec![m.clone()], &mut found);
                for f in found {
                    out.insert(f.last().unwrap().clone(), m.clone());
                }
            }
        }
    }
    out
}

/// The module graph: module -> the modules it depends on.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    let toks: BTreeMap<&Module, Vec<Tok>> = mods.iter().map(|(m, s)| (m, tokens(s))).collect();
    let mut test_only: BTreeSet<Module> = BTreeSet::new();
    for (m, t) in &toks {
        for c in test_only_children(t) {
            test_only.insert(if m.is_empty() { c } else { format!("{m}::{c}") });
        }
    }
    let is_test_only = |m: &str| test_only.iter().any(|t| m == t || m.starts_with(&format!("{t}::")));
    let reexports = root_reexports(&toks[&String::new()]);
    let mut g = BTreeMap::new();
    for (me, t) in &toks {
        if is_test_only(me) {
            continue;
        }
        let deps: &mut BTreeSet<Module> = g.entry((*me).clone()).or_default();
        for p in named_paths(me, t) {
            if p.is_empty() {
                // `crate::{a::X, b::Y}`: its paths follow.
                continue;
            }
            let to = (0..=p.len()).rev().map(|k| p[..k].join("::")).find(|m| mods.contains_key(m)).unwrap();
            let to = if to.is_empty() {
                reexports.get(&p[0]).cloned().unwrap_or_else(|| panic!("{me}: `crate::{}` is neither a module nor a root re-export", p.join("::")))
            } else {
                to
            };
            // Itself, or its own submodules (structure, not dependency).
            if to == **me || (!me.is_empty() && to.starts_with(&format!("{me}::"))) || me.is_empty() {
                continue;
            }
            deps.insert(to);
        }
    }
    g
}

fn layer(m: &str) -> usize {
    let top = m.split("::").next().unwrap();
    LAYERS.iter().position(|l| l.contains(&top)).unwrap_or_else(|| panic!("module `{top}` is in no layer: add it to LAYERS (and to docs/architecture.md)"))
}

#[test]
fn no_arrow_points_to_a_higher_layer() {
    let g = graph();
    let mut back = Vec::new();
    for (from, deps) in &g {
        if from.is_empty() {
            continue;
        }
        for to in deps {
            if layer(to) > layer(from) {
                back.push((from.as_str(), to.as_str()));
            }
        }
    }
    let allowed: BTreeSet<_> = ALLOWED_BACK_ARROWS.iter().copied().collect();
    let new: Vec<_> = back.iter().filter(|e| !allowed.contains(e)).collect();
    assert!(new.is_empty(), "arrows into a higher layer (see LAYERS): {new:?}");
    let gone: Vec<_> = allowed.iter().filter(|e| !back.contains(e)).collect();
    assert!(gone.is_empty(), "no longer there, delete from ALLOWED_BACK_ARROWS: {gone:?}");
}

#[test]
fn no_circles() {
    let mut g = graph();
    for &(from, to) in ALLOWED_CIRCLE_EDGES {
        let there = g.get_mut(from).is_some_and(|d| d.remove(to));
        assert!(there, "{from} -> {to} is no longer there: delete it from ALLOWED_CIRCLE_EDGES");
    }
    let cycles = strongly_connected(&g).into_iter().filter(|c| c.len() > 1).collect::<Vec<_>>();
    assert!(cycles.is_empty(), "modules that import each other (in a circle): {cycles:?}");
    // Each allowed edge still closes a circle (else it is only an arrow
    // and should leave the list).
    for &(from, to) in ALLOWED_CIRCLE_EDGES {
        assert!(reaches(&g, to, from), "{from} -> {to} no longer closes a circle: delete it from ALLOWED_CIRCLE_EDGES");
    }
}

#[test]
fn the_graph_is_read() {
    // The reader finds what is plainly there (so the checks above are not
    // vacuous).
    let g = graph();
    for (from, to) in [("sim", "protocol"), ("sim", "metrics"), ("scenario", "branch"), ("run", "sim"), ("protocol::pdq", "protocol")] {
        assert!(g.get(from).is_some_and(|d| d.contains(to)), "{from} -> {to} not read; graph: {g:#?}");
    }
    assert!(g.get("sim::fabric").is_some_and(|d| d.contains("sim")), "a file naming its folder (super::) is read");
}

/// Whether `to` is reachable from `from`.
fn reaches(g: &BTreeMap<Module, BTreeSet<Module>>, from: &str, to: &str) -> bool {
    let (mut seen, mut stack) = (BTreeSet::new(), vec![from.to_string()]);
    while let Some(m) = stack.pop() {
        if m == to {
            return true;
        }
        if seen.insert(m.clone()) {
            stack.extend(g.get(&m).into_iter().flatten().cloned());
        }
    }
    false
}

/// The strongly connected components (Tarjan).
fn strongly_connected(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct St<'a> {
        g: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a str, (usize, usize)>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut St<'a>, v: &'a str) {
        s.index.insert(v, (s.next, s.next));
        s.next += 1;
        s.stack.push(v);
        s.on.insert(v);
        for w in s.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.index[w].1.min(s.index[v].1);
                s.index.get_mut(v).unwrap().1 = low;
            } else if s.on.contains(w) {
                let low = s.index[w].0.min(s.index[v].1);
                s.index.get_mut(v).unwrap().1 = low;
            }
        }
        if s.index[v].0 == s.index[v].1 {
            let mut c = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                c.push(w.to_string());
                if w == v {
                    break;
                }
            }
            s.out.push(c);
        }
    }
    let mut s = St { g, index: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), next: 0, out: Vec::new() };
    for v in g.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}
