//! A protocol is named in code by few files outside its own folder (issue
//! 40: "pHost, PASE, Fastpass and PDQ each named in code in at most 2
//! files outside their own folder (the registry line, the paper gallery's
//! data and the fidelity claims aside)"): read from the sources, not
//! claimed. The web app's half is `tests/unit/protocol-name-files.test.ts`.
//!
//! Every `.rs` file of `engine/core/src`, `engine/cli/src` and
//! `engine/wasm/src` is split into tokens (`proc_macro2`: comments are not
//! tokens, and doc comments, which it turns into `#[doc = "..."]`
//! attributes, are skipped too). A file names protocol P when
//! * an identifier contains P's name, case aside (`PaseParams`,
//!   `phost_flows`, `ProtocolName::Pdq`), or
//! * a string literal's value is P's name or starts with `<name>_` or
//!   `<name>-`, case aside (`"pdq"`, `"pdq_pause"`, `"fastpass-grant"`).
//!
//! Prose strings that merely mention a paper ("the pHost paper ...", "PASE
//! probe (lowest queue ...)") do not count: they name no code. Tests count
//! like any code (a test of a protocol's behaviour outside its folder is a
//! file naming it). P's own folder is `engine/core/src/protocol/<p>/`.
//!
//! The files set aside, each by path with its reason, are [`EXEMPT`] (and
//! the `pub mod <p>;` lines of `protocol/mod.rs`, the registry's
//! declarations of the folders).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// The protocols the acceptance counts, by their names in code.
const PROTOCOLS: &[&str] = &["phost", "pase", "fastpass", "pdq"];

/// Most files outside its folder that may name one of [`PROTOCOLS`].
const LIMIT: usize = 2;

/// Files set aside, by path from the repository root (a path ending in `/`
/// is a folder), each with the reason: the three exceptions.
const EXEMPT: &[(&str, &str)] = &[
    ("engine/core/src/protocol/registry.rs", "the registry: the one list of the protocols"),
    ("engine/cli/src/reproduce/claims/", "the fidelity claims: each quotes a paper about its protocols"),
    (
        "engine/cli/src/reproduce/claim.rs",
        "the fidelity claims: a claim and the paper it comes from (`Paper::PHost`, `Paper::Pdq`, `Paper::Pase` name papers, not code of the protocols)",
    ),
    (
        "engine/cli/src/reproduce/authors.rs",
        "the fidelity claims' data: the pHost authors' simulator's results, read by the claims as their \"authors' simulator\" column",
    ),
];

/// The file declaring the protocol folders: its `mod <name>` lines are the
/// registry's, the rest of it counts.
const PROTOCOL_MOD: &str = "engine/core/src/protocol/mod.rs";

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`, as a path from the repository root.
fn rust_files(dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut dirs = vec![root().join(dir)];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p.strip_prefix(root()).unwrap().to_str().unwrap().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// What a file's code names: its identifiers and its string literals'
/// values (doc attributes skipped; the identifiers right after `mod` too
/// when `skip_mod_names`).
#[derive(Default)]
struct Words {
    idents: Vec<String>,
    strings: Vec<String>,
}

fn collect(stream: TokenStream, skip_mod_names: bool, out: &mut Words) {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            // `#[doc = "..."]` / `#![doc = "..."]`: a doc comment.
            TokenTree::Punct(p) if p.as_char() == '#' => {
                let mut j = i + 1;
                if matches!(tokens.get(j), Some(TokenTree::Punct(q)) if q.as_char() == '!') {
                    j += 1;
                }
                if let Some(TokenTree::Group(g)) = tokens.get(j) {
                    let is_doc = g.delimiter() == Delimiter::Bracket && matches!(g.stream().into_iter().next(), Some(TokenTree::Ident(id)) if id == "doc");
                    if is_doc {
                        i = j + 1;
                        continue;
                    }
                }
            }
            TokenTree::Ident(id) => {
                if skip_mod_names && id == "mod" {
                    i += 2;
                    continue;
                }
                out.idents.push(id.to_string());
            }
            TokenTree::Literal(l) => {
                if let Ok(s) = syn::parse_str::<syn::LitStr>(&l.to_string()) {
                    out.strings.push(s.value());
                }
            }
            TokenTree::Group(g) => collect(g.stream(), skip_mod_names, out),
            TokenTree::Punct(_) => {}
        }
        i += 1;
    }
}

/// Whether `words` name protocol `name` (see the module's comment).
fn names(words: &Words, name: &str) -> bool {
    words.idents.iter().any(|id| id.to_lowercase().contains(name))
        || words.strings.iter().any(|s| {
            let s = s.to_lowercase();
            s == name || s.starts_with(&format!("{name}_")) || s.starts_with(&format!("{name}-"))
        })
}

/// Per protocol, the files outside its folder (and outside [`EXEMPT`])
/// whose code names it.
fn naming_files() -> BTreeMap<&'static str, Vec<String>> {
    let mut out: BTreeMap<&str, Vec<String>> = PROTOCOLS.iter().map(|p| (*p, Vec::new())).collect();
    for file in ["engine/core/src", "engine/cli/src", "engine/wasm/src"].into_iter().flat_map(rust_files) {
        if EXEMPT.iter().any(|(e, _)| if e.ends_with('/') { file.starts_with(e) } else { file == *e }) {
            continue;
        }
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        let stream = TokenStream::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut words = Words::default();
        collect(stream, file == PROTOCOL_MOD, &mut words);
        for p in PROTOCOLS {
            if !file.starts_with(&format!("engine/core/src/protocol/{p}/")) && names(&words, p) {
                out.get_mut(p).unwrap().push(file.clone());
            }
        }
    }
    out
}

#[test]
fn each_protocol_is_named_by_few_files_outside_its_folder() {
    let found = naming_files();
    let mut report = String::new();
    for (p, files) in &found {
        println!("{p}: {} files\n  {}", files.len(), files.join("\n  "));
        if files.len() > LIMIT {
            report += &format!("\n{p}: {} files outside its folder name it (at most {LIMIT}):\n  {}", files.len(), files.join("\n  "));
        }
    }
    assert!(report.is_empty(), "{report}");
}

/// The reading itself: identifiers and the protocol's own strings count;
/// comments, doc comments and prose do not.
#[test]
fn what_names_a_protocol() {
    let words = |src: &str| {
        let mut w = Words::default();
        collect(TokenStream::from_str(src).unwrap(), false, &mut w);
        w
    };
    for (src, named) in [
        ("let x: PdqParams = y;", true),
        ("fn f() { g(\"pdq_pause\") }", true),
        ("const N: &str = \"pdq\";", true),
        ("const N: &str = \"PDQ-early\";", true),
        ("// pdq in a comment\nfn f() {}", false),
        ("/// PdqParams in a doc comment\nfn f() {}", false),
        ("//! the PDQ paper\nfn f() {}", false),
        ("const T: &str = \"the PDQ paper's Table 2\";", false),
        ("const T: &str = \"pdqx\";", false),
    ] {
        assert_eq!(names(&words(src), "pdq"), named, "{src}");
    }
    let mut w = Words::default();
    collect(TokenStream::from_str("pub mod pdq; fn f() {}").unwrap(), true, &mut w);
    assert!(!names(&w, "pdq"), "a `mod` line of protocol/mod.rs is the registry's");
}
