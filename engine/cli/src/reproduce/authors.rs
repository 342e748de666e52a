//! The pHost authors' simulator beside the paper and dcsim.
//!
//! NetSys/simulator (Gao, Narayan, Kumar et al.) is the simulator of every
//! figure of the pHost paper; it also runs pFabric and Fastpass.
//! `scripts/authors-sim --source DIR` builds it from the user's checkout,
//! runs it on the claims' settings and writes its per-flow results to
//! `engine/cli/data/authors-simulator/` (see the README there); this module
//! reads those files, compiled in, and computes each claim's statistic from
//! the authors' per-flow slowdowns with the same functions and the same
//! reading as dcsim's value ([`mean`], [`span`], Figure 4's long-flow
//! threshold). The report shows the result in its "authors' simulator"
//! column; a claim the simulator cannot express has none.

use super::claims::{mean, span};
use super::format::fmt;
use dcsim_core::metrics::nearest_rank;
use serde_json::Value;
use std::sync::OnceLock;

/// The manifest `scripts/authors-sim` writes: the source commit, and per
/// run its setting, command, config and summary.
const MANIFEST: &str = include_str!("../../data/authors-simulator/runs.json");

/// Each run's per-flow file (`size_bytes,slowdown`), by run id (the list
/// `scripts/authors-sim` writes).
const FLOWS: &[(&str, &str)] = include!("../../data/authors-simulator/files.rs");

/// One run of the authors' simulator.
#[derive(Debug, Clone)]
pub struct Run {
    /// The run's id (`scheme-workload-load`, then the swept setting).
    pub id: String,
    /// pfabric, phost or fastpass.
    pub protocol: String,
    /// websearch, datamining or imc10.
    pub workload: String,
    /// The offered load.
    pub load: f64,
    /// The setting beyond the default the run belongs to (`stability`,
    /// `deadlines`, `buffer_kb`, `permutation`, `permutation-long`,
    /// `bimodal`; empty for the default setting).
    pub axis: String,
    /// Its value (for example the port buffer in KB), if any.
    pub point: Option<f64>,
    /// Per finished flow: its size in bytes and its slowdown (the
    /// authors' FCT over their ideal FCT, as the simulator prints it).
    pub flows: Vec<(u64, f64)>,
    /// Packets dropped at each hop: host NIC, ToR up, spine down, ToR down
    /// (the simulator's queue locations 0-3; every packet type).
    pub drops_by_hop: [u64; 4],
    /// The simulator's own stability figure: the rise of the packets
    /// arrived but not yet sent between 50% and 100% of the flow arrivals,
    /// over the packets that arrived meanwhile.
    pub stability: f64,
    /// The fraction of flows that met their deadline (the simulator's
    /// summary; NaN for runs without deadlines).
    pub deadlines_met: f64,
}

impl Run {
    /// Mean slowdown of the flows `keep` selects (by size in bytes).
    pub fn mean_slowdown(&self, keep: impl Fn(u64) -> bool) -> f64 {
        mean(self.flows.iter().filter(|(size, _)| keep(*size)).map(|(_, s)| *s))
    }

    /// The 99th-percentile slowdown of all flows, by nearest rank as
    /// dcsim's own (`metrics::nearest_rank`).
    pub fn p99_slowdown(&self) -> f64 {
        let mut v: Vec<f64> = self.flows.iter().map(|(_, s)| *s).collect();
        v.sort_by(f64::total_cmp);
        nearest_rank(&v, 0.99)
    }
}

/// The runs and the commit they were made from.
#[derive(Debug)]
pub struct Data {
    /// The NetSys/simulator commit (40 hex digits).
    pub commit: String,
    /// Every run, in the manifest's order.
    pub runs: Vec<Run>,
}

/// A field of a manifest entry, or an error naming it.
fn field<'a>(v: &'a Value, id: &str, name: &str) -> Result<&'a Value, String> {
    v.get(name).ok_or_else(|| format!("authors-simulator/runs.json: run {id:?} has no field {name:?}"))
}

/// Parses a manifest and its per-flow files; errors name the file, line
/// and field.
pub fn parse(manifest: &str, flows: &[(&str, &str)]) -> Result<Data, String> {
    let m: Value = serde_json::from_str(manifest).map_err(|e| format!("authors-simulator/runs.json: {e}"))?;
    let commit = m.pointer("/source/commit").and_then(Value::as_str).ok_or("authors-simulator/runs.json: no source.commit")?.to_string();
    let mut runs = Vec::new();
    for r in m.get("runs").and_then(Value::as_array).ok_or("authors-simulator/runs.json: no runs array")? {
        let id = r.get("id").and_then(Value::as_str).ok_or("authors-simulator/runs.json: a run without an id")?.to_string();
        let text = |name: &str| field(r, &id, name).map(|v| v.as_str().unwrap_or_default().to_string());
        let number =
            |name: &str| field(r, &id, name).and_then(|v| v.as_f64().ok_or(format!("authors-simulator/runs.json: run {id:?}: {name} is not a number")));
        let csv = flows.iter().find(|(k, _)| *k == id).map(|(_, c)| *c).ok_or(format!("authors-simulator: run {id:?} has no {id}.flows.csv compiled in"))?;
        let mut per_flow = Vec::new();
        for (i, line) in csv.lines().enumerate().skip(1) {
            let bad = |what: &str| format!("authors-simulator/{id}.flows.csv line {}: {what} in {line:?}", i + 1);
            let (size, slowdown) = line.split_once(',').ok_or_else(|| bad("no comma"))?;
            per_flow.push((size.parse().map_err(|_| bad("size_bytes is not a whole number"))?, slowdown.parse().map_err(|_| bad("slowdown is not a number"))?));
        }
        let drops = field(r, &id, "drops_by_hop")?
            .as_array()
            .filter(|a| a.len() == 4)
            .ok_or(format!("authors-simulator/runs.json: run {id:?}: drops_by_hop is not 4 counts"))?;
        let mut drops_by_hop = [0; 4];
        for (d, v) in drops_by_hop.iter_mut().zip(drops) {
            *d = v.as_u64().ok_or(format!("authors-simulator/runs.json: run {id:?}: a drop count is not a whole number"))?;
        }
        let point = r.get("point").and_then(|p| p.get("x")).and_then(Value::as_f64);
        let axis = r.get("point").and_then(|p| p.get("axis")).and_then(Value::as_str).unwrap_or_default().to_string();
        let summary = |name: &str| r.get("summary").and_then(|s| s.get(name)).and_then(Value::as_f64).unwrap_or(f64::NAN);
        let (stability, deadlines_met) = (summary("stability"), summary("deadlines_met"));
        runs.push(Run {
            protocol: text("protocol")?,
            workload: text("workload")?,
            load: number("load")?,
            axis,
            point,
            flows: per_flow,
            drops_by_hop,
            stability,
            deadlines_met,
            id,
        });
    }
    Ok(Data { commit, runs })
}

/// The compiled-in data (parsed once; a test checks it parses).
pub fn data() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| parse(MANIFEST, FLOWS).unwrap_or_else(|e| Data { commit: format!("unreadable: {e}"), runs: Vec::new() }))
}

/// The three trace workloads, as the claims name them.
const WORKLOADS: [(&str, &str); 3] = [("websearch", "web search"), ("datamining", "data mining"), ("imc10", "IMC10")];

/// Figure 4's long flows: above 10 MB for web search and data mining,
/// above 100 KB for IMC10 (the threshold of claims/phost/section_4_2.rs).
fn is_long(size: u64, workload: &str) -> bool {
    size > if workload == "imc10" { 100_000 } else { 10_000_000 }
}

impl Data {
    /// The run of `protocol` on `workload` at `load` with no swept setting.
    fn default_run(&self, protocol: &str, workload: &str, load: f64) -> Option<&Run> {
        self.runs.iter().find(|r| r.protocol == protocol && r.workload == workload && r.load == load && r.axis.is_empty())
    }

    /// The runs of setting `axis` of `protocol` on `workload`, by point.
    fn sweep(&self, protocol: &str, workload: &str, axis: &str) -> Vec<&Run> {
        let mut v: Vec<&Run> = self.runs.iter().filter(|r| r.protocol == protocol && r.workload == workload && r.axis == axis).collect();
        v.sort_by(|a, b| a.point.partial_cmp(&b.point).expect("points are numbers").then_with(|| a.id.cmp(&b.id)));
        v
    }

    /// The mean slowdown of `protocol`'s one run of setting `axis` on
    /// `workload` at point `x`.
    fn slowdown_at(&self, protocol: &str, workload: &str, axis: &str, x: f64) -> Option<f64> {
        self.sweep(protocol, workload, axis).into_iter().find(|r| r.point == Some(x)).map(|r| r.mean_slowdown(|_| true))
    }

    /// Per workload with both runs: `a`'s statistic over `b`'s.
    fn ratios(&self, a: &str, b: &str, stat: impl Fn(&Run) -> f64) -> Vec<(&'static str, f64)> {
        WORKLOADS.iter().filter_map(|(w, name)| Some((*name, stat(self.default_run(a, w, 0.6)?) / stat(self.default_run(b, w, 0.6)?)))).collect()
    }

    /// The authors' value of claim `id` in the words of dcsim's value, or
    /// None when no run expresses it.
    pub fn value(&self, id: &str) -> Option<String> {
        let list = |v: &[(&str, f64)]| v.iter().map(|(w, x)| format!("{w} {}", fmt(*x))).collect::<Vec<_>>().join(", ");
        let all = |r: &Run| r.mean_slowdown(|_| true);
        let nonempty = |s: String, v: &[(&str, f64)]| if v.is_empty() { None } else { Some(s) };
        match id {
            "phost-near-pfabric" => {
                let r = self.ratios("phost", "pfabric", all);
                nonempty(format!("pHost/pFabric {}", list(&r)), &r)
            }
            "phost-vs-fastpass" => {
                let r = self.ratios("fastpass", "phost", all);
                nonempty(format!("Fastpass/pHost {}", list(&r)), &r)
            }
            "phost-short-and-long-flows" => {
                let split = |long: bool| move |r: &Run| r.mean_slowdown(|s| is_long(s, &r.workload) == long);
                let short_fp = self.ratios("fastpass", "phost", split(false));
                let short_pf = self.ratios("phost", "pfabric", split(false));
                let long_pf = self.ratios("pfabric", "phost", split(true));
                let long_fp = self.ratios("fastpass", "phost", split(true));
                let v = |r: &[(&str, f64)]| span(&r.iter().map(|x| x.1).collect::<Vec<_>>());
                nonempty(
                    format!(
                        "short flows: Fastpass/pHost {} (pHost/pFabric {}; long flows: pFabric/pHost {}, Fastpass/pHost {})",
                        v(&short_fp),
                        v(&short_pf),
                        v(&long_pf),
                        v(&long_fp)
                    ),
                    &short_fp,
                )
            }
            "phost-tail-slowdown" => {
                // In the words of dcsim's value: per trace, the three
                // 99th-percentile slowdowns, each also over its mean (the
                // paper's "33% higher than the mean slowdown").
                let per: Vec<String> = WORKLOADS
                    .iter()
                    .filter_map(|(w, name)| {
                        let (ph, pf, fp) = (self.default_run("phost", w, 0.6)?, self.default_run("pfabric", w, 0.6)?, self.default_run("fastpass", w, 0.6)?);
                        let of_mean = |r: &Run| {
                            let p99 = r.p99_slowdown();
                            format!("{} ({} of its mean)", fmt(p99), fmt(p99 / all(r)))
                        };
                        Some(format!("{name}: pHost {}, pFabric {}, Fastpass {}", of_mean(ph), of_mean(pf), of_mean(fp)))
                    })
                    .collect();
                (!per.is_empty()).then(|| format!("99th-percentile slowdown: {}", per.join("; ")))
            }
            "phost-first-hop-drops" => {
                let pf = self.default_run("pfabric", "websearch", 0.6)?;
                let (ph, fp) = (self.default_run("phost", "websearch", 0.6)?, self.default_run("fastpass", "websearch", 0.6)?);
                let total = pf.drops_by_hop.iter().sum::<u64>().max(1) as f64;
                Some(format!(
                    "pFabric's drops {}% first hop, {}% last; first-hop drops pHost {}, Fastpass {} (all packet types)",
                    fmt(100.0 * pf.drops_by_hop[0] as f64 / total),
                    fmt(100.0 * pf.drops_by_hop[3] as f64 / total),
                    ph.drops_by_hop[0],
                    fp.drops_by_hop[0]
                ))
            }
            "phost-stability" => {
                // The simulator's own measure of Figure 7: the rise of the
                // packets arrived and not yet sent between half and all of
                // the flow arrivals, over the packets arrived meanwhile.
                let row = |p: &str| {
                    let v = self.sweep(p, "websearch", "stability");
                    (!v.is_empty()).then(|| v.iter().map(|r| format!("{}: {}", fmt(r.load), fmt(r.stability))).collect::<Vec<_>>().join(", "))
                };
                let pf = row("pfabric")?;
                let others: Vec<String> = [("pHost", "phost"), ("Fastpass", "fastpass")].iter().filter_map(|(n, p)| Some(format!("{n} {}", row(p)?))).collect();
                let rest = if others.is_empty() { String::new() } else { format!("; {}", others.join("; ")) };
                Some(format!("rise of the unsent packets over the packets arrived (second half of the arrivals), pFabric: {pf}{rest}"))
            }
            "phost-deadlines" => {
                let per: Vec<String> = WORKLOADS
                    .iter()
                    .filter_map(|(w, name)| {
                        let met: Vec<f64> =
                            ["pfabric", "phost", "fastpass"].iter().filter_map(|p| self.sweep(p, w, "deadlines").first().map(|r| r.deadlines_met)).collect();
                        (met.len() == 3).then(|| {
                            let gap = met.iter().copied().fold(f64::NEG_INFINITY, f64::max) - met.iter().copied().fold(f64::INFINITY, f64::min);
                            format!("{name} {} apart (pFabric {}, pHost {}, Fastpass {})", fmt(gap), fmt(met[0]), fmt(met[1]), fmt(met[2]))
                        })
                    })
                    .collect();
                let srpt = self
                    .sweep("phost", "websearch", "deadlines-srpt")
                    .first()
                    .map(|r| format!("; pHost granting by remaining size instead of deadline: {}", fmt(r.deadlines_met)));
                (!per.is_empty()).then(|| format!("deadlines met: {}{}", per.join("; "), srpt.unwrap_or_default()))
            }
            "phost-permutation" => {
                let at = |p: &str| self.slowdown_at(p, "websearch", "permutation", 1.0);
                let (pf, ph, fp) = (at("pfabric")?, at("phost")?, at("fastpass")?);
                Some(format!("web search: pFabric/pHost {}, Fastpass/pHost {}", fmt(pf / ph), fmt(fp / ph)))
            }
            "phost-permutation-long-flows" => {
                let at = |p: &str| self.slowdown_at(p, "websearch", "permutation-long", 1.0);
                let (pf, ph, fp) = (at("pfabric")?, at("phost")?, at("fastpass")?);
                Some(format!("pFabric/pHost {}, pFabric/Fastpass {}", fmt(pf / ph), fmt(pf / fp)))
            }
            "phost-bimodal" => {
                let points: Vec<String> = self
                    .sweep("phost", "bimodal", "bimodal")
                    .iter()
                    .filter_map(|r| {
                        let x = r.point?;
                        let ph = r.mean_slowdown(|_| true);
                        let (pf, fp) = (self.slowdown_at("pfabric", "bimodal", "bimodal", x)?, self.slowdown_at("fastpass", "bimodal", "bimodal", x)?);
                        Some(format!("{}% short: pHost/pFabric {}, Fastpass/pHost {}", fmt(100.0 * x), fmt(ph / pf), fmt(fp / ph)))
                    })
                    .collect();
                (!points.is_empty()).then(|| points.join("; "))
            }
            "phost-buffer-size" => {
                let per: Vec<String> = ["pfabric", "phost", "fastpass"]
                    .iter()
                    .filter_map(|p| {
                        let v = self.sweep(p, "datamining", "buffer_kb");
                        let m: Vec<f64> = v.iter().map(|r| r.mean_slowdown(|_| true)).collect();
                        let kb: Vec<String> = v.iter().map(|r| fmt(r.point.unwrap_or(f64::NAN))).collect();
                        (m.len() >= 2).then(|| {
                            let spread = m.iter().copied().fold(f64::NEG_INFINITY, f64::max) / m.iter().copied().fold(f64::INFINITY, f64::min);
                            format!("{p} {} (buffers {} KB)", fmt(spread), kb.join(", "))
                        })
                    })
                    .collect();
                (!per.is_empty()).then(|| format!("largest / smallest over buffer sizes: {}", per.join(", ")))
            }
            _ => None,
        }
    }
}

/// The authors' simulator's value of claim `id`, if a run expresses it.
pub fn value(id: &str) -> Option<String> {
    data().value(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_files_parse_and_every_run_has_flows() {
        let d = parse(MANIFEST, FLOWS).expect("the committed data parse");
        assert_eq!(d.commit.len(), 40, "a full commit hash");
        assert!(!d.runs.is_empty());
        for r in &d.runs {
            assert!(r.flows.len() > 100, "{}: {} flows", r.id, r.flows.len());
            assert!(r.flows.iter().all(|(size, s)| *size > 0 && *s >= 0.999), "{}: a slowdown below 1", r.id);
        }
        // Every compiled-in file belongs to a run of the manifest.
        for (id, _) in FLOWS {
            assert!(d.runs.iter().any(|r| r.id == *id), "{id}.flows.csv is not in runs.json");
        }
    }

    #[test]
    fn bad_lines_name_the_file_line_and_field() {
        let m =
            r#"{"source": {"commit": "x"}, "runs": [{"id": "a", "protocol": "phost", "workload": "websearch", "load": 0.6, "drops_by_hop": [0, 0, 0, 0]}]}"#;
        let e = parse(m, &[("a", "size_bytes,slowdown\n1460,1.2\n2920,fast\n")]).unwrap_err();
        assert!(e.contains("a.flows.csv line 3") && e.contains("slowdown"), "{e}");
        let e = parse(m, &[]).unwrap_err();
        assert!(e.contains("no a.flows.csv"), "{e}");
    }

    /// The claims this module can give a value for.
    const KNOWN: [&str; 11] = [
        "phost-near-pfabric",
        "phost-tail-slowdown",
        "phost-vs-fastpass",
        "phost-short-and-long-flows",
        "phost-first-hop-drops",
        "phost-stability",
        "phost-deadlines",
        "phost-buffer-size",
        "phost-permutation",
        "phost-permutation-long-flows",
        "phost-bimodal",
    ];

    #[test]
    fn each_value_lands_in_its_claims_row() {
        use super::super::claim::Mode;
        use super::super::judge::Verdict;
        use super::super::lab::plan::Row;
        use super::super::report::{self, Report};
        let registry = super::super::claims::registry();
        for id in KNOWN {
            assert!(registry.iter().any(|c| c.id == id), "{id} is not a claim of the registry");
        }
        let rows: Vec<Row> = registry.iter().map(|c| Row { claim: c, judged: Default::default(), verdict: Verdict::Differs, variants: Vec::new() }).collect();
        let r = Report { mode: Mode::Full, rows, runs: 0, threads: 1, wall_s: 0.0, command: "test".into() };
        let (md, csv, json) = (report::markdown(&r), report::csv(&r).expect("the CSV"), report::json(&r));
        let json: Value = serde_json::from_str(&json).expect("the JSON parses");
        let mut csv = csv::Reader::from_reader(csv.as_bytes());
        let column = csv.headers().expect("a header").iter().position(|h| h == "authors_simulator_value").expect("the column");
        let csv_rows: Vec<csv::StringRecord> = csv.records().map(|r| r.expect("a CSV row")).collect();
        let mut shown = 0;
        for c in &registry {
            let v = value(c.id);
            let row = md.lines().find(|l| l.starts_with(&format!("| [{}](#{})", c.id, c.id))).expect("the claim's table row");
            let in_csv = csv_rows.iter().find(|r| &r[0] == c.id).expect("the claim's CSV row")[column].to_string();
            let in_json = json["claims"].as_array().expect("claims").iter().find(|j| j["id"] == c.id).expect("the claim's JSON")["authors_simulator"].clone();
            match v {
                Some(v) => {
                    shown += 1;
                    println!("{}: {v}", c.id);
                    assert!(row.contains(&v.replace('|', "\\|")), "{}: {row}", c.id);
                    assert_eq!(in_csv, v);
                    assert_eq!(in_json, Value::String(v.clone()));
                    assert!(md.contains(&format!("): {v}\n")), "{}: the claim's section names the value", c.id);
                }
                None => {
                    assert!(in_csv.is_empty() && in_json.is_null(), "{}", c.id);
                }
            }
        }
        // Every run of the data gives at least the default setting's claims.
        assert!(shown >= 4, "{shown} claims with a value");
    }

    #[test]
    fn the_99th_percentile_is_the_nearest_rank() {
        let run = |n: u64| Run {
            id: "r".into(),
            protocol: "phost".into(),
            workload: "websearch".into(),
            load: 0.6,
            axis: String::new(),
            point: None,
            flows: (1..=n).map(|i| (1460, i as f64)).collect(),
            drops_by_hop: [0; 4],
            stability: 0.0,
            deadlines_met: 0.0,
        };
        // 200 flows: rank ceil(198) = the 198th smallest; 50 flows: the 50th.
        assert_eq!(run(200).p99_slowdown(), 198.0);
        assert_eq!(run(50).p99_slowdown(), 50.0);
    }
}
