//! The report's forms: the table on stdout, the CSV (one row per claim),
//! the Markdown (`docs/fidelity.md`) and the JSON the page's paper gallery
//! reads (`docs/fidelity.json`). All are written from the same [`Report`].

use super::authors;
use super::bound::Fit;
use super::cause::{Cause, CauseKind};
use super::claim::{Claim, Judged, Mode};
use super::format::{fmt, thousands};
use super::judge::{Check, Verdict};
use super::lab::plan::Row;
use super::readings::Rule;
use crate::output::write_file;
use serde_json::{json, Value};
use std::path::Path;

pub mod merge;

/// The whole report.
pub struct Report<'a> {
    /// Quick or full.
    pub mode: Mode,
    /// One row per claim, in registry order.
    pub rows: Vec<Row<'a>>,
    /// Distinct runs.
    pub runs: usize,
    /// Parallel runs.
    pub threads: usize,
    /// Wall time of the whole report, seconds (for a merged reproduction:
    /// the sum of its runs' wall times).
    pub wall_s: f64,
    /// The command as typed (for the Markdown's header).
    pub command: String,
}

/// Writes the report to stdout and the files asked for.
pub fn write_report(report: &Report, csv_to: Option<&Path>, markdown_to: Option<&Path>, json_to: Option<&Path>) -> Result<(), String> {
    print!("{}", table(report));
    if let Some(p) = csv_to {
        write_file(p, &csv(report)?)?;
    }
    if let Some(p) = markdown_to {
        write_file(p, &markdown(report))?;
    }
    if let Some(p) = json_to {
        write_file(p, &json(report))?;
    }
    Ok(())
}

/// How many claims have each verdict, in words: "12 claims: 5 agree, ...".
pub fn tally<'a>(rows: impl IntoIterator<Item = &'a Row<'a>>) -> String {
    let rows: Vec<&Row> = rows.into_iter().collect();
    let n = |v: Verdict| rows.iter().filter(|r| r.verdict == v).count();
    format!(
        "{} claim{}: {} agree{}, {} differ{}, {} inconclusive, {} not reproduced",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        n(Verdict::Agrees),
        if n(Verdict::Agrees) == 1 { "s" } else { "" },
        n(Verdict::Differs),
        if n(Verdict::Differs) == 1 { "s" } else { "" },
        n(Verdict::Inconclusive),
        n(Verdict::NotReproduced)
    )
}

/// The cause a row shows: its claim's, when its verdict is not "agrees".
pub fn cause_of<'a>(x: &Row<'a>) -> Option<&'a Cause> {
    if x.verdict == Verdict::Agrees {
        None
    } else {
        x.claim.cause.as_ref()
    }
}

/// The cause column's words: the kind, "none given" for a claim that does
/// not agree and has none, empty for one that agrees.
fn cause_name(x: &Row) -> &'static str {
    match (x.verdict, cause_of(x)) {
        (Verdict::Agrees, _) => "",
        (_, Some(c)) => c.kind.name(),
        (_, None) => "none given",
    }
}

/// How many of the claims that do not agree have each kind of cause, in
/// words: "21 do not agree: 0 dcsim error, fixed; 3 an open setting ...".
pub fn cause_tally<'a>(rows: impl IntoIterator<Item = &'a Row<'a>>) -> String {
    let rows: Vec<&Row> = rows.into_iter().filter(|r| r.verdict != Verdict::Agrees).collect();
    let mut parts: Vec<String> =
        CauseKind::ALL.iter().map(|k| format!("{} {}", rows.iter().filter(|r| cause_of(r).is_some_and(|c| c.kind == *k)).count(), k.name())).collect();
    parts.push(format!("{} none given", rows.iter().filter(|r| cause_of(r).is_none()).count()));
    format!("{} do{} not agree: {}", rows.len(), if rows.len() == 1 { "es" } else { "" }, parts.join("; "))
}

/// The source papers' rows, then the other papers'.
fn groups<'a, 'b>(r: &'b Report<'a>) -> [(&'static str, Vec<&'b Row<'a>>); 2] {
    [
        ("Claims of the source papers (pFabric, pHost, PDQ, PASE)", r.rows.iter().filter(|x| x.claim.paper.is_source()).collect()),
        ("Claims from other papers (D2TCP, L2DCT), held by the tests", r.rows.iter().filter(|x| !x.claim.paper.is_source()).collect()),
    ]
}

/// A check's number and interval in words: "1.052 [1.041, 1.063] (n = 5)".
pub fn interval_text(c: &Check) -> String {
    let i = &c.interval;
    if i.is_nan() {
        "missing (a run did not finish)".into()
    } else if i.n == 1 {
        format!("{} (1 run: no interval)", fmt(i.mean))
    } else {
        format!("{} [{}, {}] (n = {})", fmt(i.mean), fmt(i.lo), fmt(i.hi), i.n)
    }
}

/// The table on stdout: claim | paper | dcsim value | verdict.
pub fn table(r: &Report) -> String {
    let head = ["claim", "paper", "dcsim value", "verdict"];
    let cells: Vec<[String; 4]> = r
        .rows
        .iter()
        .map(|x| [x.claim.id.to_string(), format!("{} {}", x.claim.paper.short(), x.claim.source()), x.judged.value.clone(), x.verdict.name().to_string()])
        .collect();
    let width = |i: usize| cells.iter().map(|c| c[i].chars().count()).chain([head[i].len()]).max().unwrap_or(0).min(90);
    let w: Vec<usize> = (0..4).map(width).collect();
    let line = |c: &[String]| c.iter().zip(&w).map(|(s, w)| format!("{s:<w$}")).collect::<Vec<_>>().join(" | ").trim_end().to_string() + "\n";
    let mut out = line(&head.map(String::from));
    out += &(w.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("-+-") + "\n");
    for c in &cells {
        out += &line(c);
    }
    let [(_, source), (_, other)] = groups(r);
    out + &format!("\nsource papers: {}; other papers: {} ({} size, {})\n", tally(source), tally(other), r.mode.name(), how_run(r))
}

/// The CSV: one row per claim.
pub fn csv(r: &Report) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| e.to_string();
    w.write_record([
        "claim",
        "paper",
        "source",
        "in_excerpt",
        "quote",
        "statement",
        "readings",
        "dcsim_value",
        "authors_simulator_value",
        "verdict",
        "checks_holding",
        "checks_undecided",
        "checks",
        "variants",
        "size",
        "seeds",
        "deviations",
        "discussion",
        "cause",
        "cause_why",
    ])
    .map_err(err)?;
    for x in &r.rows {
        let c = x.claim;
        let count = |f: Fit| x.judged.checks.iter().filter(|k| k.fit() == f).count().to_string();
        let readings = c.readings.iter().map(|g| format!("{}: {} {}", g.says, g.of, g.bound.describe())).collect::<Vec<_>>().join("; ");
        let variants = x.variants.iter().map(|v| format!("{}: {}", v.variant.name, v.verdict.name())).collect::<Vec<_>>().join("; ");
        let size = c.size(r.mode);
        w.write_record([
            c.id,
            c.paper.cite(),
            &c.source(),
            if c.in_excerpt { "yes" } else { "no" },
            c.quote,
            c.statement,
            &readings,
            &x.judged.value,
            &authors::value(c.id).unwrap_or_default(),
            x.verdict.name(),
            &count(Fit::Holds),
            &count(Fit::Straddles),
            &x.judged.checks.len().to_string(),
            &variants,
            &format!("{}: {}", r.mode.name(), size.describe(c.setting.axis)),
            &size.seeds.len().to_string(),
            &if c.setting.deviations.is_empty() { "none".to_string() } else { c.setting.deviations.join("; ") },
            c.discussion,
            cause_name(x),
            cause_of(x).map_or("", |k| k.why),
        ])
        .map_err(err)?;
    }
    String::from_utf8(w.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

/// Escapes a table cell for Markdown.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Today's date (UTC), from the system clock.
fn today() -> String {
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!("{y:04}-{m:02}-{d:02}")
}

/// Where the quote stands: in the excerpts or cited from the paper.
fn excerpt_flag(c: &Claim) -> &'static str {
    if c.in_excerpt {
        "in the excerpts (`../shared/papers/`)"
    } else {
        "outside the excerpts: cited from the paper"
    }
}

/// The checks table of a judgement.
fn checks_table(checks: &[Check]) -> String {
    let mut s = String::from("| check | reading | kind | dcsim: mean [95% interval] | bound | holds |\n|---|---|---|---|---|---|\n");
    for k in checks {
        s +=
            &format!("| {} | {} | {} | {} | {} | {} |\n", cell(&k.what), k.reading, k.kind.name(), interval_text(k), cell(&k.bound.describe()), k.fit().name());
    }
    s
}

/// How the runs were made: on how many threads in how long, or, for a
/// report merged from shards (no thread count), the runs' summed time.
fn how_run(r: &Report) -> String {
    if r.threads == 0 {
        format!("{} distinct runs merged from shards, {:.0} s of run time summed over them", thousands(r.runs as u64), r.wall_s)
    } else {
        format!("{} distinct runs on {} threads, {:.0} s wall time", thousands(r.runs as u64), r.threads, r.wall_s)
    }
}

/// The Markdown report: how it was made and how to read it, the tables of
/// verdicts, then each claim.
pub fn markdown(r: &Report) -> String {
    let mut s = String::from("# Fidelity report\n\n");
    s += &format!(
        "Generated by `{}` ({} size) with dcsim {} on {}: {}. \
         Do not edit this file: regenerate it with the command (`dcsim reproduce --help`).\n\n",
        r.command,
        r.mode.name(),
        env!("CARGO_PKG_VERSION"),
        today(),
        how_run(r)
    );
    let [(source_title, source), (other_title, other)] = groups(r);
    s += &format!(
        "**Source papers (pFabric, pHost, PDQ, PASE): {}.** Other papers (D2TCP, L2DCT): {}.\n\n",
        tally(source.iter().copied()),
        tally(other.iter().copied())
    );
    s += &format!(
        "**Causes** (why a claim does not agree; see how to read it): source papers: {}. Other papers: {}.\n\n",
        cause_tally(source.iter().copied()),
        cause_tally(other.iter().copied())
    );
    s += "## How to read it\n\n\
          Each claim quotes the sentence it tests, with the paper's section and figure, and says whether the sentence is in the \
          excerpts this project was given or cited from the paper. Its **readings** turn the sentence's words into bounds by the \
          rules below, the same rules for every claim. Each **check** is a mean over independent samples (seeds, or requests) \
          with its 95% confidence interval (Student's t); a check **holds** when the whole interval lies inside the bound, \
          **fails** when it lies wholly outside, and **cannot tell** otherwise (a bound of one value, such as \"zero drops\", \
          holds only when every sample is that value and fails on any other). A claim **agrees** when every check holds, is \
          **not reproduced** when an ordering or direction the paper states fails, **differs** when a value fails, and is \
          **inconclusive** when nothing fails but an interval straddles a bound. Noise is met with more seeds, never with a \
          wider bound. Where a verdict depends on a choice the paper leaves open, the claim is judged again under each \
          reasonable reading (its sensitivity table). Where a claim is not reproduced, or differs for a reason the checks \
          alone do not show, a paragraph says what was checked and what the data suggest. Every claim that does not agree \
          names its **cause**, one of: *dcsim error, fixed* (the mechanism or default that was wrong, the commit that fixed \
          it, the verdict before and after); *the authors' simulator agrees with dcsim* (the paper's own simulator on the same \
          setting gives dcsim's answer, not the paper's); *an open setting decides it* (the sensitivity row whose reading flips \
          the verdict, with the paper's sentence that leaves it open); *unexplained* (what was checked, what the data \
          suggest); \"none given\" where no cause is established yet.\n\n\
          | rule | the papers' words | reading | why |\n|---|---|---|---|\n";
    for rule in Rule::ALL {
        s += &format!("| {} | {} | {} | {} |\n", rule.name(), cell(rule.words()), cell(rule.reading()), cell(rule.reason()));
    }
    for (title, rows) in [(source_title, &source), (other_title, &other)] {
        if rows.is_empty() {
            continue;
        }
        s += &format!("\n## {title}\n\n| claim | paper | authors' simulator | dcsim | verdict | cause |\n|---|---|---|---|---|---|\n");
        for x in rows.iter() {
            let c = x.claim;
            let authors = authors::value(c.id).unwrap_or_default();
            s += &format!(
                "| [{}](#{}) | {}, {} | {} | {} | **{}** | {} |\n",
                c.id,
                c.id,
                c.paper.short(),
                cell(&c.source()),
                cell(&authors),
                cell(&x.judged.value),
                x.verdict.name(),
                cause_name(x)
            );
        }
    }
    for x in &r.rows {
        s += &claim_section(r.mode, x);
    }
    s
}

/// One claim's section of the Markdown report.
fn claim_section(mode: Mode, x: &Row) -> String {
    let c = x.claim;
    let mut s = format!("\n<a id=\"{}\"></a>\n## {} ({})\n\n", c.id, c.id, x.verdict.name());
    s += &format!("> {}\n\n{}, {}; {}.\n\n", c.quote, c.paper.cite(), c.source(), excerpt_flag(c));
    s += &format!("{}\n\n", c.statement);
    s += "| reading | of | bound | rule |\n|---|---|---|---|\n";
    for g in c.readings {
        s += &format!("| \"{}\" | {} | {} | {} |\n", cell(g.says), cell(g.of), g.bound.describe(), g.rule.name());
    }
    let files: Vec<String> = c.setting.scenarios.iter().map(|n| format!("`scenarios/{n}.json`")).collect();
    s += &format!("\n* Scenario: {}\n", files.join(", "));
    s += &format!("* Size ({}): {}\n", mode.name(), c.size(mode).describe(c.setting.axis));
    let other = if mode == Mode::Full { Mode::Quick } else { Mode::Full };
    s += &format!("* Size ({}): {}\n", other.name(), c.size(other).describe(c.setting.axis));
    s += &format!("* The paper's size: {}\n", c.setting.paper_size);
    if c.setting.deviations.is_empty() {
        s += "* Deviations from the paper's setting: none\n";
    } else {
        s += "* Deviations from the paper's setting:\n";
        for d in c.setting.deviations {
            s += &format!("  * {d}\n");
        }
    }
    for a in c.applied {
        s += &format!("* Setting beyond the scenario file: `{}` = `{}`: {}\n", a.path, a.value, a.why);
    }
    if let Some(v) = authors::value(c.id) {
        s += &format!(
            "* The pHost authors' simulator ([NetSys/simulator](authors-simulator.md) at {}, one run per setting): {v}\n",
            authors::data().commit.get(..7).unwrap_or_default()
        );
    }
    s += &format!("* dcsim: {}\n", x.judged.value);
    for n in &x.judged.notes {
        s += &format!("* Note: {n}\n");
    }
    s += "\n";
    s += &checks_table(&x.judged.checks);
    if !c.discussion.is_empty() {
        s += &format!("\n**What was checked, what the data suggest.** {}\n", c.discussion);
    }
    match cause_of(x) {
        Some(k) => s += &format!("\n**Cause: {}.** {}\n", k.kind.name(), k.why),
        None if x.verdict != Verdict::Agrees => s += "\n**Cause: none given.** No cause of this verdict is established yet.\n",
        None => {}
    }
    if !x.variants.is_empty() {
        s += &format!("\nSensitivity: the verdict under each reasonable reading of the open choices.\n\n| reading | settings | verdict | dcsim |\n|---|---|---|---|\n| as above (the default) | none beyond the above | **{}** | {} |\n", x.verdict.name(), cell(&x.judged.value));
        for v in &x.variants {
            let settings = v.variant.settings.iter().map(|a| format!("`{}` = `{}`", a.path, a.value)).collect::<Vec<_>>().join(", ");
            s += &format!(
                "| {}: {} | {} | **{}** | {} |\n",
                cell(v.variant.name),
                cell(v.variant.why),
                cell(&settings),
                v.verdict.name(),
                cell(&v.judged.value)
            );
        }
    }
    s
}

/// A judgement as JSON.
fn judged_json(j: &Judged, verdict: Verdict) -> Value {
    let checks: Vec<Value> = j
        .checks
        .iter()
        .map(|k| json!({"what": k.what, "reading": k.reading, "kind": k.kind, "samples": k.samples, "interval": k.interval, "bound": {"lo": finite(k.bound.lo), "hi": finite(k.bound.hi), "lo_open": k.bound.lo_open, "hi_open": k.bound.hi_open, "text": k.bound.describe()}, "fit": k.fit(), "fit_text": k.fit().name()}))
        .collect();
    json!({"value": j.value, "verdict": verdict, "verdict_text": verdict.name(), "checks": checks, "notes": j.notes})
}

/// A number for JSON: infinite ends as null (JSON has no infinity).
fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// The whole report as JSON: what the page's paper gallery shows.
pub fn json(r: &Report) -> String {
    let rules: Vec<Value> =
        Rule::ALL.iter().map(|g| json!({"rule": g, "name": g.name(), "words": g.words(), "reading": g.reading(), "reason": g.reason()})).collect();
    let claims: Vec<Value> = r
        .rows
        .iter()
        .map(|x| {
            let c = x.claim;
            let readings: Vec<Value> = c
                .readings
                .iter()
                .map(|g| json!({"key": g.key, "says": g.says, "of": g.of, "bound": g.bound.describe(), "kind": g.kind, "rule": g.rule}))
                .collect();
            let variants: Vec<Value> = x
                .variants
                .iter()
                .map(|v| json!({"name": v.variant.name, "why": v.variant.why, "settings": v.variant.settings, "judged": judged_json(&v.judged, v.verdict)}))
                .collect();
            json!({
                "id": c.id, "paper": c.paper.short(), "cite": c.paper.cite(), "source_paper": c.paper.is_source(),
                "section": c.section, "figure": c.figure, "quote": c.quote, "in_excerpt": c.in_excerpt,
                "statement": c.statement, "readings": readings,
                "scenarios": c.setting.scenarios, "size": c.size(r.mode).describe(c.setting.axis), "paper_size": c.setting.paper_size,
                "deviations": c.setting.deviations, "applied": c.applied, "discussion": c.discussion,
                "cause": cause_of(x).map(|k| json!({"kind": k.kind, "name": k.kind.name(), "why": k.why})),
                "judged": judged_json(&x.judged, x.verdict), "variants": variants,
                "authors_simulator": authors::value(c.id),
            })
        })
        .collect();
    let [(_, source), (_, other)] = groups(r);
    let v = json!({
        "generated_by": r.command, "mode": r.mode, "engine": env!("CARGO_PKG_VERSION"), "date": today(), "runs": r.runs, "threads": r.threads, "wall_s": r.wall_s,
        "tally": {"source": tally(source.iter().copied()), "other": tally(other.iter().copied()), "source_causes": cause_tally(source.iter().copied()), "other_causes": cause_tally(other.iter().copied())},
        "rules": rules, "claims": claims,
    });
    serde_json::to_string_pretty(&v).expect("the report serializes") + "\n"
}
