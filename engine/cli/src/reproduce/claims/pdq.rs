//! The PDQ paper's claims (Hong, Caesar, Godfrey, SIGCOMM 2012; the
//! excerpt covers section 5.1's setup and the start of 5.2: query
//! aggregation with deadlines, Figure 3).

use super::{by_point, grid, mean, span, Grid};
use crate::reproduce::bound::{Bound, Kind};
use crate::reproduce::claim::{Claim, Judged, Paper, Setting, Size};
use crate::reproduce::format::fmt;
use crate::reproduce::judge::Check;
use crate::reproduce::lab::{Applied, Lab, Outcome};
use crate::reproduce::readings::{Reading, Rule, SIMILAR_DEADLINES};
use dcsim_core::protocol::pdq::params::PdqParams;
use dcsim_core::scenario::{ProtocolName, Scenario};
use dcsim_core::workload::{MatrixSpec, SizeSpec};
use ProtocolName as P;

/// What runs on PDQ's query aggregation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scheme {
    Optimal,
    /// A PDQ variant by `PdqParams::variant`'s name.
    Pdq(&'static str),
    Base(ProtocolName),
}

impl Scheme {
    /// The paper's name: "PDQ(ES+ET)", "D3", "optimal".
    fn label(self) -> String {
        match self {
            Scheme::Optimal => "optimal".into(),
            Scheme::Pdq("basic") => "PDQ(Basic)".into(),
            Scheme::Pdq("es") => "PDQ(ES)".into(),
            Scheme::Pdq("es_et") => "PDQ(ES+ET)".into(),
            Scheme::Pdq(_) => "PDQ(Full)".into(),
            Scheme::Base(p) => p.as_str().to_uppercase(),
        }
    }
}

/// `base` under `scheme` (a PDQ variant keeps the scenario's buffers, RTT
/// and RTO).
fn under(base: Scenario, scheme: Scheme) -> Scenario {
    let mut s = base;
    s.protocol = match scheme {
        Scheme::Optimal => P::OptimalDeadline,
        Scheme::Pdq(v) => {
            let keep = s.params.pdq.clone();
            let p = PdqParams::variant(v).expect("a PDQ variant");
            s.params.pdq = PdqParams { buffer_bytes: keep.buffer_bytes, init_rtt_us: keep.init_rtt_us, rto_us: keep.rto_us, ..p };
            P::Pdq
        }
        Scheme::Base(p) => p,
    };
    s
}

/// Figure 3(a)'s schemes, in grid order.
const SCHEMES: [Scheme; 8] = [
    Scheme::Optimal,
    Scheme::Pdq("full"),
    Scheme::Pdq("es_et"),
    Scheme::Pdq("es"),
    Scheme::Pdq("basic"),
    Scheme::Base(P::D3),
    Scheme::Base(P::Rcp),
    Scheme::Base(P::Tcp),
];
const OPT: usize = 0;
const FULL: usize = 1;
const ES_ET: usize = 2;
const ES: usize = 3;
const BASIC: usize = 4;

/// Figure 3(a): query aggregation with `x` flows per query.
fn flows_grid<'a>(lab: &'a Lab, size: &Size) -> Option<Grid<'a>> {
    grid(
        lab,
        size,
        &SCHEMES,
        |sc, _, x| {
            let mut s = lab.scenario("pdq-query-aggregation");
            if let MatrixSpec::QueryAggregation { fanout, .. } = &mut s.workload.matrix {
                *fanout = x as u32;
            }
            under(s, *sc)
        },
        false,
    )
}

/// Deadlines met per seed of scheme `s` at point `x`.
fn met(g: &Grid, s: usize, x: usize) -> Vec<f64> {
    g.per_seed_outcome(s, x, Outcome::deadlines_met)
}

/// Scheme `a` minus scheme `b` in deadlines met, seed by seed.
fn minus(g: &Grid, a: usize, b: usize, x: usize) -> Vec<f64> {
    g.diff(a, b, x, Outcome::deadlines_met)
}

/// The deadlines met of `which` schemes by point, as notes.
fn rows(g: &Grid, size: &Size, which: &[usize]) -> Vec<String> {
    which
        .iter()
        .map(|&s| {
            format!(
                "{} deadlines met by flows per query: {}",
                SCHEMES[s].label(),
                by_point(size.xs, &(0..size.xs.len()).map(|x| mean(met(g, s, x))).collect::<Vec<_>>())
            )
        })
        .collect()
}

const NEAR_OPTIMAL: Reading = Reading {
    key: "near-optimal",
    says: "PDQ has near-optimal application throughput",
    of: "optimal minus PDQ(Full), fraction of deadlines met",
    bound: Bound::at_most(SIMILAR_DEADLINES),
    kind: Kind::Value,
    rule: Rule::SimilarDeadlines,
};

fn near_optimal(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = flows_grid(lab, size)?;
    let gaps: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| minus(&g, OPT, FULL, x)).collect();
    let checks = gaps
        .iter()
        .enumerate()
        .map(|(x, v)| Check::of(&NEAR_OPTIMAL, format!("{} flows per query: optimal minus PDQ(Full)", fmt(size.xs[x])), v.clone()))
        .collect();
    let m: Vec<f64> = gaps.iter().map(|v| 100.0 * mean(v.iter().copied())).collect();
    Some(Judged { value: format!("PDQ(Full) {} points below optimal", span(&m)), checks, notes: rows(&g, size, &[OPT, FULL]) })
}

const ES_HELPS: Reading = Reading {
    key: "es-effective",
    says: "PDQ(Basic) has much lower application throughput",
    of: "PDQ(ES) minus PDQ(Basic), fraction of deadlines met, at the most flows per query",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
const ES_MUCH: Reading = Reading {
    key: "much-lower",
    says: "much lower application throughput",
    of: "PDQ(ES) minus PDQ(Basic), fraction of deadlines met, at the most flows per query",
    bound: Bound::above(SIMILAR_DEADLINES),
    kind: Kind::Value,
    rule: Rule::Significant,
};
const ES_HEAVY: Reading = Reading {
    key: "especially-heavy",
    says: "especially during heavy system load",
    of: "PDQ(ES) minus PDQ(Basic) at the most flows per query, minus the same at the fewest",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

fn early_start(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = flows_grid(lab, size)?;
    let last = size.xs.len() - 1;
    let (hi, lo) = (minus(&g, ES, BASIC, last), minus(&g, ES, BASIC, 0));
    let at = |x: usize| format!("{} flows per query", fmt(size.xs[x]));
    Some(Judged {
        value: format!(
            "PDQ(ES) minus PDQ(Basic): {} points at {}, {} at {}",
            fmt(100.0 * mean(hi.iter().copied())),
            at(last),
            fmt(100.0 * mean(lo.iter().copied())),
            at(0)
        ),
        checks: vec![
            Check::of(&ES_HELPS, format!("{}: PDQ(ES) minus PDQ(Basic)", at(last)), hi.clone()),
            Check::of(&ES_MUCH, format!("{}: PDQ(ES) minus PDQ(Basic)", at(last)), hi.clone()),
            Check::of(&ES_HEAVY, format!("PDQ(ES) minus PDQ(Basic): at {} minus at {}", at(last), at(0)), hi.iter().zip(&lo).map(|(a, b)| a - b).collect()),
        ],
        notes: rows(&g, size, &[ES, BASIC]),
    })
}

const ET_HELPS: Reading = Reading {
    key: "et-improves",
    says: "Early Termination further improves performance",
    of: "PDQ(ES+ET) minus PDQ(ES), fraction of deadlines met, from 25 flows per query up",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

fn early_termination(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = flows_grid(lab, size)?;
    let heavy: Vec<usize> = (0..size.xs.len()).filter(|&x| size.xs[x] >= 25.0).collect();
    let checks: Vec<Check> = heavy
        .iter()
        .map(|&x| Check::of(&ET_HELPS, format!("{} flows per query: PDQ(ES+ET) minus PDQ(ES)", fmt(size.xs[x])), minus(&g, ES_ET, ES, x)))
        .collect();
    let m: Vec<f64> = heavy.iter().map(|&x| 100.0 * mean(minus(&g, ES_ET, ES, x))).collect();
    Some(Judged { value: format!("PDQ(ES+ET) {} points above PDQ(ES) from 25 flows per query", span(&m)), checks, notes: rows(&g, size, &[ES_ET, ES]) })
}

const FALLS: Reading = Reading {
    key: "decreases",
    says: "the application throughput of D3, RCP and TCP decreases significantly",
    of: "deadlines met at the fewest flows per query minus at the most, for D3, RCP and TCP",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
const FALLS_MUCH: Reading = Reading {
    key: "significantly",
    says: "decreases significantly",
    of: "deadlines met at the fewest flows per query minus at the most, for D3, RCP and TCP",
    bound: Bound::above(SIMILAR_DEADLINES),
    kind: Kind::Value,
    rule: Rule::Significant,
};

fn baselines_fall(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = flows_grid(lab, size)?;
    let last = size.xs.len() - 1;
    let mut checks = Vec::new();
    let mut value = Vec::new();
    for (s, scheme) in SCHEMES.iter().enumerate().take(8).skip(5) {
        let fall: Vec<f64> = met(&g, s, 0).iter().zip(met(&g, s, last)).map(|(a, b)| a - b).collect();
        value.push(format!("{} {}", scheme.label(), fmt(100.0 * mean(fall.iter().copied()))));
        let what = format!("{}: deadlines met at {} minus at {} flows per query", scheme.label(), fmt(size.xs[0]), fmt(size.xs[last]));
        checks.push(Check::of(&FALLS, what.clone(), fall.clone()));
        checks.push(Check::of(&FALLS_MUCH, what, fall));
    }
    Some(Judged { value: format!("falls (points): {}", value.join(", ")), checks, notes: rows(&g, size, &[5, 6, 7]) })
}

const SIZE_FALLS: Reading = Reading {
    key: "degrades",
    says: "the performance of deadline-agnostic schemes (TCP and RCP) degrades considerably",
    of: "deadlines met at the smallest mean flow size minus at the largest, for TCP and RCP",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
const SIZE_FALLS_MUCH: Reading = Reading {
    key: "considerably",
    says: "degrades considerably",
    of: "deadlines met at the smallest mean flow size minus at the largest, for TCP and RCP",
    bound: Bound::above(SIMILAR_DEADLINES),
    kind: Kind::Value,
    rule: Rule::Significant,
};

fn flow_size(lab: &Lab, size: &Size) -> Option<Judged> {
    let schemes = [Scheme::Optimal, Scheme::Pdq("full"), Scheme::Base(P::Rcp), Scheme::Base(P::Tcp)];
    let g = grid(
        lab,
        size,
        &schemes,
        |sc, _, kb| {
            let mut s = lab.scenario("pdq-query-aggregation-1000kb");
            let mean = (kb * 1000.0) as u64;
            s.workload.sizes = SizeSpec::Uniform { min_bytes: mean / 50, max_bytes: 2 * mean - mean / 50 };
            under(s, *sc)
        },
        false,
    )?;
    let last = size.xs.len() - 1;
    let mut checks = Vec::new();
    let mut value = Vec::new();
    for (s, scheme) in schemes.iter().enumerate().take(4).skip(2) {
        let fall: Vec<f64> =
            g.per_seed_outcome(s, 0, Outcome::deadlines_met).iter().zip(g.per_seed_outcome(s, last, Outcome::deadlines_met)).map(|(a, b)| a - b).collect();
        value.push(format!("{} {}", scheme.label(), fmt(100.0 * mean(fall.iter().copied()))));
        let what = format!("{}: deadlines met at mean {} KB minus at {} KB", scheme.label(), fmt(size.xs[0]), fmt(size.xs[last]));
        checks.push(Check::of(&SIZE_FALLS, what.clone(), fall.clone()));
        checks.push(Check::of(&SIZE_FALLS_MUCH, what, fall));
    }
    let notes = (0..schemes.len())
        .map(|s| {
            format!(
                "{} deadlines met by mean size (KB): {}",
                schemes[s].label(),
                by_point(size.xs, &(0..size.xs.len()).map(|x| mean(g.per_seed_outcome(s, x, Outcome::deadlines_met))).collect::<Vec<_>>())
            )
        })
        .collect();
    Some(Judged { value: format!("falls from the smallest to the largest sizes (points): {}", value.join(", ")), checks, notes })
}

// -------------------------------------------------------------- registry

const RCP_COUNTS: Applied = Applied {
    path: "params.rcp.count_flows",
    value: "true",
    why: "PDQ section 5.1: \"We implement RCP [10] and optimize it by counting the exact number of flows at switches\"",
};

const CHOICES: &str =
    "PDQ's open choices as docs/protocols/pdq.md lists them; RTOs 1 ms and the RTT settings of PDQ, RCP and D3 200 us (the tree's round trip exceeds 200 us)";
const MANY_FLOWS: &str = "beyond 11 flows per query every other server sends several flows of a query (the paper assigns f flows to n senders at random; footnote 6, cut in the excerpt)";
const PAPER_SIZE: &str = "the paper's 12-server tree; its number of queries per run is not stated";
const QUERIES: Setting = Setting {
    scenarios: &["pdq-query-aggregation"],
    axis: "flows per query",
    quick: Size { flows: &[], seeds: &[1, 2, 3], xs: &[5.0, 50.0], requests: 20, per_scenario: &[] },
    full: Size { flows: &[], seeds: &[1, 2, 3, 4, 5], xs: &[2.0, 5.0, 8.0, 11.0, 25.0, 50.0], requests: 20, per_scenario: &[] },
    paper_size: PAPER_SIZE,
    deviations: &[CHOICES, MANY_FLOWS],
};

/// The PDQ paper's claims.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim::new(Paper::Pdq, "pdq-near-optimal", "5.2.1", "Figure 3(a)")
            .says(
                "We observe that PDQ has near-optimal application throughput across a wide range of loads (Figure 3a).",
                "on deadline-constrained query aggregation PDQ(Full) meets nearly as many deadlines as the optimal scheduler at every number of flows per query",
            )
            .reads(&[NEAR_OPTIMAL])
            .on(QUERIES)
            .applying(&[RCP_COUNTS])
            .measured_by(near_optimal),
        Claim::new(Paper::Pdq, "pdq-early-start", "5.2.1", "Figure 3(a)")
            .says(
                "Figure 3a demonstrates that Early Start is very effective for short flows. By contrast, PDQ(Basic) has much lower application throughput, especially during heavy system load because of the long down time between flow switching.",
                "PDQ(Basic) meets clearly fewer deadlines than PDQ with Early Start, the more so the more flows per query",
            )
            .reads(&[ES_HELPS, ES_MUCH, ES_HEAVY])
            .on(QUERIES)
            .applying(&[RCP_COUNTS])
            .measured_by(early_start),
        Claim::new(Paper::Pdq, "pdq-early-termination", "5.2.1", "Figure 3(a)")
            .says(
                "Early Termination further improves performance by discarding flows that cannot meet their deadline.",
                "PDQ(ES+ET) meets more deadlines than PDQ(ES) under heavy load (25 and 50 flows per query)",
            )
            .reads(&[ET_HELPS])
            .on(QUERIES)
            .applying(&[RCP_COUNTS])
            .measured_by(early_termination),
        Claim::new(Paper::Pdq, "pdq-baselines-fall-with-flows", "5.2.1", "Figure 3(a)")
            .says(
                "Moreover, Figure 3a demonstrates that, as the number of concurrent flows increases, the application throughput of D3, RCP and TCP decreases significantly.",
                "D3, RCP and TCP meet clearly fewer deadlines with 50 flows per query than with a few",
            )
            .reads(&[FALLS, FALLS_MUCH])
            .on(QUERIES)
            .applying(&[RCP_COUNTS])
            .measured_by(baselines_fall),
        Claim::new(Paper::Pdq, "pdq-flow-size", "5.2.1", "Figure 3(b)")
            .says(
                "Figure 3b shows that as the flow size increases, the performance of deadline-agnostic schemes (TCP and RCP) degrades considerably",
                "with 3 flows per query and mean flow sizes from 100 KB to 1 MB, TCP and RCP meet clearly fewer deadlines as flows grow (the sentence goes on about PDQ past the end of the excerpt)",
            )
            .reads(&[SIZE_FALLS, SIZE_FALLS_MUCH])
            .on(Setting {
                scenarios: &["pdq-query-aggregation-1000kb"],
                axis: "mean flow size (KB)",
                quick: Size { flows: &[], seeds: &[1, 2, 3], xs: &[100.0, 1000.0], requests: 20, per_scenario: &[] },
                full: Size { flows: &[], seeds: &[1, 2, 3, 4, 5], xs: &[100.0, 400.0, 700.0, 1000.0], requests: 20, per_scenario: &[] },
                paper_size: PAPER_SIZE,
                deviations: &[CHOICES, "sizes uniform in [mean / 50, 2 mean - mean / 50] (the paper: uniform with the given mean)"],
            })
            .applying(&[RCP_COUNTS])
            .measured_by(flow_size),
    ]
}
