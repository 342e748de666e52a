//! The pFabric paper's claims (Alizadeh et al., SIGCOMM 2013, section 5;
//! the excerpt covers 5.1's workloads through 5.4.1's first paragraphs).

use super::{by_point, grid, mean, pct, range_checks, range_readings, span, with, Grid};
use crate::reproduce::bound::{Bound, Kind};
use crate::reproduce::claim::{Claim, Judged, Paper, Setting, Size, Variant};
use crate::reproduce::format::fmt;
use crate::reproduce::judge::Check;
use crate::reproduce::lab::{Applied, Lab};
use crate::reproduce::readings::{approx, comparable, significantly_above, Reading, Rule};
use dcsim_core::metrics::FlowRecord;
use dcsim_core::scenario::{ProtocolName, Scenario};
use dcsim_core::workload::{MatrixSpec, SizeSpec};
use std::collections::BTreeMap;
use ProtocolName as P;

// ------------------------------------------------------------ seamless

const SEAMLESS_GAP: Reading = Reading {
    key: "one-at-line-rate",
    says: "one flow grabs all the bottleneck's bandwidth (10Gbps)",
    of: "time from one flow's end to the next's, ms (one 20 MB flow at 10 Gbps: 16 ms)",
    bound: approx(16.0),
    kind: Kind::Value,
    rule: Rule::Approx,
};
const SEAMLESS_OVERHEAD: Reading = Reading {
    key: "150us-over-80ms",
    says: "only 150µs larger then the best possible completion time of 80ms",
    of: "last flow's end minus 80 ms, us",
    bound: approx(150.0),
    kind: Kind::Value,
    rule: Rule::Approx,
};

fn seamless(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pfabric], |p, _, _| with(&lab.scenario("pfabric-seamless-switching"), *p, f64::NAN), true)?;
    // Per seed: the ends in order (ms from the common start).
    let ends: Vec<Vec<f64>> = g
        .at(0, 0)
        .iter()
        .map(|o| {
            let start = o.records.iter().map(|r| r.start.as_us_f64()).fold(f64::INFINITY, f64::min);
            let mut t: Vec<f64> = o.records.iter().map(|r| r.end.map_or(f64::NAN, |e| (e.as_us_f64() - start) / 1000.0)).collect();
            t.sort_by(f64::total_cmp);
            t
        })
        .collect();
    let n = ends.iter().map(Vec::len).min().unwrap_or(0);
    let mut checks = Vec::new();
    for i in 0..n {
        let gaps: Vec<f64> = ends.iter().map(|e| if i == 0 { e[0] } else { e[i] - e[i - 1] }).collect();
        checks.push(Check::of(
            &SEAMLESS_GAP,
            format!("flow {} ends after {} (ms)", i + 1, if i == 0 { "the start".to_string() } else { format!("flow {i}") }),
            gaps,
        ));
    }
    let over: Vec<f64> = ends.iter().map(|e| 1000.0 * (e.last().copied().unwrap_or(f64::NAN) - 80.0)).collect();
    checks.push(Check::of(&SEAMLESS_OVERHEAD, "last flow's end minus 80 ms (us)", over.clone()));
    let last: Vec<f64> = ends.iter().map(|e| e.last().copied().unwrap_or(f64::NAN)).collect();
    Some(Judged { value: format!("last at {} ms ({} us over 80 ms)", span(&last), span(&over)), checks, notes: Vec::new() })
}

// -------------------------------------------------------------- incast

/// The incast scenario under `p` with `n` senders and `size.requests`
/// requests.
fn incast(lab: &Lab, p: ProtocolName, n: f64) -> Scenario {
    let mut s = with(&lab.scenario("incast"), p, f64::NAN);
    if let MatrixSpec::Incast { senders, .. } = &mut s.workload.matrix {
        *senders = n as u32;
    }
    s
}

/// Per request (over every seed's runs): its completion time (last end
/// minus first start) and its flows' mean completion time, ms.
fn requests(outcomes: &[&crate::reproduce::lab::Outcome]) -> (Vec<f64>, Vec<f64>) {
    let (mut rct, mut fct) = (Vec::new(), Vec::new());
    for o in outcomes {
        let mut by: BTreeMap<u32, Vec<&FlowRecord>> = BTreeMap::new();
        for r in o.records.iter().filter(|r| !r.background) {
            by.entry(r.request.unwrap_or(0)).or_default().push(r);
        }
        for flows in by.values() {
            let start = flows.iter().map(|r| r.start.as_us_f64()).fold(f64::INFINITY, f64::min);
            let ends: Vec<f64> = flows.iter().map(|r| r.end.map_or(f64::NAN, |e| e.as_us_f64())).collect();
            rct.push((ends.iter().copied().fold(f64::NEG_INFINITY, f64::max) - start) / 1000.0);
            fct.push(mean(flows.iter().zip(&ends).map(|(r, e)| (e - r.start.as_us_f64()) / 1000.0)));
        }
    }
    (rct, fct)
}

const INCAST_81: Reading = Reading {
    key: "81.1ms",
    says: "a total request completion time of 81.1ms at 50 senders",
    of: "pFabric's request completion time at 50 senders minus the 80 ms ideal, ms",
    bound: approx(1.1),
    kind: Kind::Value,
    rule: Rule::Approx,
};
const INCAST_DCTCP_80: Reading = Reading {
    key: "dctcp-80ms",
    says: "near-ideal request complete time of 80ms across all number of senders",
    of: "DCTCP's request completion time at each number of senders, ms",
    bound: approx(80.0),
    kind: Kind::Value,
    rule: Rule::Approx,
};
const INCAST_DCTCP_BEST: Reading = Reading {
    key: "dctcp-best",
    says: "DCTCP does the best",
    of: "pFabric's request completion time minus DCTCP's, ms",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
const INCAST_SERIAL: Reading = Reading {
    key: "serial-improves",
    says: "serial flow scheduling significantly improves the average individual flow completion times",
    of: "DCTCP's mean individual flow completion time over pFabric's",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};
const INCAST_SERIAL_ORDER: Reading = Reading {
    key: "serial-order",
    says: "improves the average individual flow completion times",
    of: "DCTCP's mean individual flow completion time over pFabric's",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

fn incast_81ms(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pfabric], |p, _, x| incast(lab, *p, x), true)?;
    let last = size.xs.len() - 1;
    let (rct, _) = requests(g.at(0, last));
    let over: Vec<f64> = rct.iter().map(|t| t - 80.0).collect();
    let c = Check::of(&INCAST_81, format!("{} senders: pFabric's request completion minus 80 ms (ms), one sample per request", fmt(size.xs[last])), over);
    Some(Judged { value: format!("{} ms ({} ms over the ideal)", fmt(c.interval.mean + 80.0), fmt(c.interval.mean)), checks: vec![c], notes: Vec::new() })
}

fn incast_schemes(lab: &Lab, size: &Size) -> Option<Judged> {
    let schemes = [P::Pfabric, P::Dctcp];
    let g = grid(lab, size, &schemes, |p, _, x| incast(lab, *p, x), true)?;
    let mut checks = Vec::new();
    let (mut d_all, mut ratios) = (Vec::new(), Vec::new());
    for (xi, x) in size.xs.iter().enumerate() {
        let (pf_rct, pf_fct) = requests(g.at(0, xi));
        let (dc_rct, dc_fct) = requests(g.at(1, xi));
        d_all.push(mean(dc_rct.iter().copied()));
        checks.push(Check::of(&INCAST_DCTCP_80, format!("{} senders: DCTCP's request completion (ms)", fmt(*x)), dc_rct.clone()));
        checks.push(Check::of(
            &INCAST_DCTCP_BEST,
            format!("{} senders: pFabric minus DCTCP, request completion (ms), request by request", fmt(*x)),
            pf_rct.iter().zip(&dc_rct).map(|(a, b)| a - b).collect(),
        ));
        let r: Vec<f64> = dc_fct.iter().zip(&pf_fct).map(|(d, p)| d / p).collect();
        ratios.push(mean(r.iter().copied()));
        checks.push(Check::of(&INCAST_SERIAL_ORDER, format!("{} senders: DCTCP / pFabric mean individual FCT, request by request", fmt(*x)), r.clone()));
        checks.push(Check::of(&INCAST_SERIAL, format!("{} senders: DCTCP / pFabric mean individual FCT, request by request", fmt(*x)), r));
    }
    Some(Judged {
        value: format!("DCTCP's request completion {} ms; DCTCP / pFabric individual FCT {}", span(&d_all), span(&ratios)),
        checks,
        notes: vec![format!("DCTCP / pFabric mean individual FCT by senders: {}", by_point(size.xs, &ratios))],
    })
}

const PDQ_SIMILAR: Reading = Reading {
    key: "pdq-similar",
    says: "PDQ also exhibits a similar behavior as pFabric",
    of: "PDQ's mean individual flow completion time over pFabric's, at each number of senders",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};
const PDQ_WORSE: Reading = Reading {
    key: "pdq-worse",
    says: "shows slightly worse performance as the number of flows increases",
    of: "PDQ's mean individual flow completion time over pFabric's, at the most senders",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
const PDQ_WORSENS: Reading = Reading {
    key: "pdq-worsens",
    says: "shows slightly worse performance as the number of flows increases",
    of: "PDQ / pFabric mean individual flow completion time at the most senders minus at the fewest",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

fn incast_pdq(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pfabric, P::Pdq], |p, _, x| incast(lab, *p, x), true)?;
    let mut checks = Vec::new();
    let (mut ratios, mut rct) = (Vec::new(), Vec::new());
    let mut per_x = Vec::new();
    for (xi, x) in size.xs.iter().enumerate() {
        let (pf_rct, pf_fct) = requests(g.at(0, xi));
        let (pdq_rct, pdq_fct) = requests(g.at(1, xi));
        let r: Vec<f64> = pdq_fct.iter().zip(&pf_fct).map(|(a, b)| a / b).collect();
        ratios.push(mean(r.iter().copied()));
        rct.push(mean(pdq_rct.iter().zip(&pf_rct).map(|(a, b)| a / b)));
        checks.push(Check::of(&PDQ_SIMILAR, format!("{} senders: PDQ / pFabric mean individual FCT, request by request", fmt(*x)), r.clone()));
        per_x.push(r);
    }
    let last = size.xs.len() - 1;
    checks.push(Check::of(&PDQ_WORSE, format!("{} senders: PDQ / pFabric mean individual FCT, request by request", fmt(size.xs[last])), per_x[last].clone()));
    checks.push(Check::of(
        &PDQ_WORSENS,
        format!("PDQ / pFabric mean individual FCT, {} senders minus {}, request by request", fmt(size.xs[last]), fmt(size.xs[0])),
        per_x[last].iter().zip(&per_x[0]).map(|(a, b)| a - b).collect(),
    ));
    Some(Judged {
        value: format!("PDQ / pFabric individual FCT {}", by_point(size.xs, &ratios)),
        checks,
        notes: vec![format!("PDQ / pFabric request completion time by senders: {}", by_point(size.xs, &rct))],
    })
}

// ---------------------------------------------------------- probe mode

const PROBE_LOW: Reading = Reading {
    key: "4.8%",
    says: "rises sharply from ∼4.8%",
    of: "loss rate without probe mode at the fewest flows",
    bound: approx(0.048),
    kind: Kind::Value,
    rule: Rule::Approx,
};
const PROBE_HIGH: Reading = Reading {
    key: "38.5%",
    says: "to ∼38.5% as the number of flows increases",
    of: "loss rate without probe mode at 50 flows",
    bound: approx(0.385),
    kind: Kind::Value,
    rule: Rule::Approx,
};
const PROBE_RISES: Reading = Reading {
    key: "rises",
    says: "rises sharply",
    of: "loss rate without probe mode, at 50 flows minus at the fewest",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
const PROBE_UNDER: Reading = Reading {
    key: "under-5.5%",
    says: "to under 5.5% with 50 flows",
    of: "loss rate with probe mode at 50 flows",
    bound: Bound::below(0.055),
    kind: Kind::Value,
    rule: Rule::Literal,
};
const PROBE_LOWERS: Reading = Reading {
    key: "significantly-lowers",
    says: "the probe mode significantly lowers the loss rate",
    of: "loss rate without probe mode over with, at 50 flows",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};

const PROBE_LOWERS_ORDER: Reading = Reading {
    key: "lowers",
    says: "the probe mode significantly lowers the loss rate",
    of: "loss rate without probe mode over with, at 50 flows",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

fn probe_mode(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &[true, false],
        |on, _, n| {
            let mut s = with(&lab.scenario("pfabric-probe-mode"), P::Pfabric, f64::NAN);
            s.params.pfabric.probe_mode = *on;
            s.with_field("workload.matrix.senders", (n as u32).into())
                .and_then(|s| s.with_field("workload.matrix.request_packets", (n as u64 * PACKETS_20MB).into()))
                .expect("the probe-mode scenario is an incast")
        },
        false,
    )?;
    let last = size.xs.len() - 1;
    let drop = |s: usize, x: usize| g.per_seed(s, x, |m| m.drop_rate);
    let (without_lo, without_hi, with_hi) = (drop(1, 0), drop(1, last), drop(0, last));
    let lowers: Vec<f64> = without_hi.iter().zip(&with_hi).map(|(a, b)| a / b).collect();
    let at = |x: f64| format!("{} flows", fmt(x));
    let checks = vec![
        Check::of(&PROBE_LOW, format!("{}: loss without probe mode", at(size.xs[0])), without_lo.clone()),
        Check::of(&PROBE_HIGH, format!("{}: loss without probe mode", at(size.xs[last])), without_hi.clone()),
        Check::of(
            &PROBE_RISES,
            format!("loss without probe mode, {} minus {}", at(size.xs[last]), at(size.xs[0])),
            without_hi.iter().zip(&without_lo).map(|(a, b)| a - b).collect(),
        ),
        Check::of(&PROBE_UNDER, format!("{}: loss with probe mode", at(size.xs[last])), with_hi.clone()),
        Check::of(&PROBE_LOWERS_ORDER, format!("{}: loss without / with probe mode", at(size.xs[last])), lowers.clone()),
        Check::of(&PROBE_LOWERS, format!("{}: loss without / with probe mode", at(size.xs[last])), lowers),
    ];
    let w: Vec<f64> = (0..size.xs.len()).map(|x| 100.0 * mean(drop(1, x))).collect();
    let p: Vec<f64> = (0..size.xs.len()).map(|x| 100.0 * mean(drop(0, x))).collect();
    Some(Judged {
        value: format!("loss without probe mode {}% to {}%, with it {}% at {}", fmt(w[0]), fmt(w[last]), fmt(p[last]), at(size.xs[last])),
        checks,
        notes: vec![
            format!("loss (%) without probe mode by flows: {}", by_point(size.xs, &w)),
            format!("loss (%) with probe mode by flows: {}", by_point(size.xs, &p)),
        ],
    })
}

/// 20 MB on the wire in full 1500-B packets (how the paper's 80 ms for
/// 100 MB comes out).
const PACKETS_20MB: u64 = 13_334;

// ------------------------------------------------------------ Figure 7

/// The schemes of Figure 7, in grid order.
const FIG7: [ProtocolName; 5] = [P::Ideal, P::Pfabric, P::Pdq, P::Dctcp, P::Tcp];

/// Figure 7's runs of `scenario` (web search or data mining leaf-spine).
fn fig7<'a>(lab: &'a Lab, size: &Size, scenario: &str) -> Option<Grid<'a>> {
    grid(lab, size, &FIG7, |p, _, x| with(&lab.scenario(scenario), *p, x), false)
}

const WS_IDEAL: [Reading; 3] =
    range_readings(0.007, 0.178, "within ∼0.7", "17.8% of the Ideal scheme for the web search workload", "pFabric's mean normalized FCT over Ideal's, minus 1");
const DM_IDEAL: [Reading; 3] =
    range_readings(0.017, 0.106, "within ∼1.7", "10.6% for the data mining workload", "pFabric's mean normalized FCT over Ideal's, minus 1");
const WS_PDQ: [Reading; 3] =
    range_readings(0.19, 0.39, "∼19", "39% lower in the web search workload", "1 minus pFabric's mean normalized FCT over PDQ's (Figure 7's metric)");
const DM_PDQ: [Reading; 3] =
    range_readings(0.40, 0.50, "∼40", "50% lower in the data mining workload", "1 minus pFabric's mean normalized FCT over PDQ's (Figure 7's metric)");
/// The ordering of "∼x-y% lower": pFabric's below PDQ's at every load.
const fn lower_than_pdq(says: &'static str) -> Reading {
    Reading {
        key: "lower",
        says,
        of: "1 minus pFabric's mean normalized FCT over PDQ's, at every load",
        bound: Bound::above(0.0),
        kind: Kind::Order,
        rule: Rule::Ordering,
    }
}
const WS_PDQ_LOWER: Reading = lower_than_pdq("the average FCT with pFabric is ∼19-39% lower");
const DM_PDQ_LOWER: Reading = lower_than_pdq("∼40-50% lower in the data mining workload");

/// "pFabric within ∼lo-hi% of Ideal" on `scenario`.
fn near_ideal(lab: &Lab, size: &Size, scenario: &str, r: &[Reading; 3]) -> Option<Judged> {
    let g = fig7(lab, size, scenario)?;
    let gaps: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(1, 0, x, |s| s.all.mean_slowdown).iter().map(|v| v - 1.0).collect()).collect();
    let means: Vec<f64> = gaps.iter().map(|v| mean(v.iter().copied())).collect();
    let checks = range_checks(&r[0], &r[1], &r[2], "pFabric / Ideal mean normalized FCT - 1", &gaps, |i| format!("load {}", fmt(size.xs[i])));
    let nf: Vec<f64> = (0..size.xs.len()).map(|x| g.mean(1, x, |s| s.all.nfct) / g.mean(0, x, |s| s.all.nfct) - 1.0).collect();
    Some(Judged {
        value: format!("pFabric {}% above Ideal", span(&pct(&means))),
        checks,
        notes: vec![
            format!("pFabric over Ideal, mean normalized FCT, % above, by load: {}", by_point(size.xs, &pct(&means))),
            format!("the same by mean FCT over mean ideal FCT (NFCT), by load: {}", by_point(size.xs, &pct(&nf))),
        ],
    })
}

/// "pFabric's average FCT ∼lo-hi% lower than PDQ's" on `scenario`: the
/// sentence follows "Figure 7 shows the overall average flow completion
/// times ... Recall that each flow's completion time is normalized", so
/// the FCT compared is Figure 7's, the mean normalized FCT (the mean
/// unnormalized FCT is in the notes).
fn below_pdq(lab: &Lab, size: &Size, scenario: &str, r: &[Reading; 3], lower_reading: &Reading) -> Option<Judged> {
    let g = fig7(lab, size, scenario)?;
    let lower: Vec<Vec<f64>> = (0..size.xs.len()).map(|x| g.ratio(1, 2, x, |s| s.all.mean_slowdown).iter().map(|v| 1.0 - v).collect()).collect();
    let means: Vec<f64> = lower.iter().map(|v| mean(v.iter().copied())).collect();
    let mut checks = range_checks(&r[0], &r[1], &r[2], "1 - pFabric / PDQ mean normalized FCT", &lower, |i| format!("load {}", fmt(size.xs[i])));
    checks.extend(
        lower.iter().enumerate().map(|(x, v)| Check::of(lower_reading, format!("load {}: 1 - pFabric / PDQ mean normalized FCT", fmt(size.xs[x])), v.clone())),
    );
    let afct: Vec<f64> = (0..size.xs.len()).map(|x| 100.0 * (1.0 - g.mean(1, x, |s| s.all.afct_us) / g.mean(2, x, |s| s.all.afct_us))).collect();
    Some(Judged {
        value: format!("pFabric's mean normalized FCT {}% below PDQ's", span(&pct(&means))),
        checks,
        notes: vec![format!("by mean FCT, not normalized (% lower), by load: {}", by_point(size.xs, &afct))],
    })
}

fn ws_near_ideal(lab: &Lab, size: &Size) -> Option<Judged> {
    near_ideal(lab, size, "websearch-leaf-spine", &WS_IDEAL)
}
fn dm_near_ideal(lab: &Lab, size: &Size) -> Option<Judged> {
    near_ideal(lab, size, "datamining-leaf-spine", &DM_IDEAL)
}
fn ws_below_pdq(lab: &Lab, size: &Size) -> Option<Judged> {
    below_pdq(lab, size, "websearch-leaf-spine", &WS_PDQ, &WS_PDQ_LOWER)
}
fn dm_below_pdq(lab: &Lab, size: &Size) -> Option<Judged> {
    below_pdq(lab, size, "datamining-leaf-spine", &DM_PDQ, &DM_PDQ_LOWER)
}

const BETTER_ORDER: Reading = Reading {
    key: "better",
    says: "is significantly better than for the other schemes",
    of: "each other scheme's mean normalized FCT over pFabric's",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
const BETTER_SIGNIFICANT: Reading = Reading {
    key: "significantly",
    says: "significantly better than for the other schemes",
    of: "each other scheme's mean normalized FCT over pFabric's",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};

fn better_than_others(lab: &Lab, size: &Size) -> Option<Judged> {
    // Both grids are asked for before either is unwrapped: in the lab's
    // collecting pass the first answer is `None`.
    let (ws, dm) = (fig7(lab, size, "websearch-leaf-spine"), fig7(lab, size, "datamining-leaf-spine"));
    let (ws, dm) = (ws?, dm?);
    let mut checks = Vec::new();
    let mut worst = Vec::new();
    for (g, w) in [(&ws, "web search"), (&dm, "data mining")] {
        for (xi, x) in size.xs.iter().enumerate() {
            for (s, p) in FIG7.iter().enumerate().skip(2) {
                let r = g.ratio(s, 1, xi, |m| m.all.mean_slowdown);
                worst.push(mean(r.iter().copied()));
                let what = format!("{w}, load {}: {} / pFabric mean normalized FCT", fmt(*x), p.as_str());
                checks.push(Check::of(&BETTER_ORDER, what.clone(), r.clone()));
                checks.push(Check::of(&BETTER_SIGNIFICANT, what, r));
            }
        }
    }
    Some(Judged { value: format!("PDQ, DCTCP and TCP {} times pFabric's mean normalized FCT", span(&worst)), checks, notes: Vec::new() })
}

const SHORT_TAIL: Reading = Reading {
    key: "short-99th",
    says: "near theoretically optimal flow completion times even at the 99th percentile for short flows",
    of: "pFabric's 99th-percentile normalized FCT of flows below 100 KB over Ideal's",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};
const LONG_MEAN: Reading = Reading {
    key: "long-mean",
    says: "while still minimizing average flow completion time for long flows",
    of: "pFabric's mean normalized FCT of flows above 10 MB over Ideal's",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};

fn short_and_long(lab: &Lab, size: &Size) -> Option<Judged> {
    // Both grids are asked for before either is unwrapped: in the lab's
    // collecting pass the first answer is `None`.
    let (ws, dm) = (fig7(lab, size, "websearch-leaf-spine"), fig7(lab, size, "datamining-leaf-spine"));
    let (ws, dm) = (ws?, dm?);
    let mut checks = Vec::new();
    let (mut tail, mut long) = (Vec::new(), Vec::new());
    for (g, w) in [(&ws, "web search"), (&dm, "data mining")] {
        for (x, l) in size.xs.iter().enumerate() {
            let t = g.ratio(1, 0, x, |s| s.short.p99_slowdown);
            let m = g.ratio(1, 0, x, |s| s.long.mean_slowdown);
            tail.push(mean(t.iter().copied()));
            long.push(mean(m.iter().copied()));
            checks.push(Check::of(&SHORT_TAIL, format!("{w}, load {}: pFabric / Ideal 99th-percentile normalized FCT, flows below 100 KB", fmt(*l)), t));
            checks.push(Check::of(&LONG_MEAN, format!("{w}, load {}: pFabric / Ideal mean normalized FCT, flows above 10 MB", fmt(*l)), m));
        }
    }
    Some(Judged {
        value: format!("pFabric / Ideal: short flows' 99th percentile {}, long flows' mean {}", span(&tail), span(&long)),
        checks,
        notes: Vec::new(),
    })
}

// -------------------------------------------------- PDQ's handshake

const TWO_RTTS: Reading = Reading {
    key: "at-least-two",
    says: "PDQ's normalized FCT is at-least two",
    of: "normalized FCT of a one-packet flow alone on the fabric under PDQ",
    bound: Bound::at_least(2.0),
    kind: Kind::Value,
    rule: Rule::Literal,
};

fn pdq_one_packet(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &[P::Pdq],
        |p, _, _| {
            let mut s = with(&lab.scenario("websearch-leaf-spine"), *p, f64::NAN);
            s.workload.flows = 1;
            s.workload.sizes = SizeSpec::Fixed { bytes: Some(1000), packets: None };
            s
        },
        false,
    )?;
    let v = g.per_seed(0, 0, |s| s.all.mean_slowdown);
    Some(Judged {
        value: format!("normalized FCT {}", span(&v)),
        checks: vec![Check::of(&TWO_RTTS, "normalized FCT of the one-packet flow (one sample per seed: its hosts and path)", v)],
        notes: Vec::new(),
    })
}

// -------------------------------------------------------------- registry

const PFABRIC_RTT: Applied = Applied {
    path: "topology.propagation_ns",
    value: "1650",
    why: "pFabric section 5.1 (outside the excerpt): a 14.6 us round trip across the spine, 10 us of it in the hosts; dcsim has no host delay, so it spreads it over the links (8 traversals of 1.65 us plus serializations)",
};
const PHOST_TIMING: Variant = Variant {
    name: "the pHost paper's link timing",
    why: "the pHost authors' simulator, which builds on pFabric's: 200 ns per link and no host delay (a round trip of a few microseconds)",
    settings: &[Applied { path: "topology.propagation_ns", value: "200", why: "pHost section 4.1" }],
};
const LEAF_SPINE: &str = "144 hosts, 9 racks of 16 under 4 spines, 10 Gbps host links and 40 Gbps fabric links, cut-through, per-packet spraying (the pHost authors' simulator, which builds on pFabric's); each port sends at its own rate once a header is in";
/// The incast claims' leaf-spine: as [`LEAF_SPINE`] but store-and-forward
/// (scenarios/incast.json) and at the topology's default link timing.
const INCAST_LEAF_SPINE: &str = "144 hosts, 9 racks of 16 under 4 spines, 10 Gbps host links and 40 Gbps fabric links, per-packet spraying (the pHost authors' simulator, which builds on pFabric's); store-and-forward switches (the scenario's choice); 200 ns per link, the topology's default, a round trip of a few microseconds rather than pFabric section 5.1's 14.6 us";
const MAX_CWND: &str =
    "pFabric's largest window 15 packets (`max_cwnd`, the pHost authors' pFabric configuration; the paper states initCwnd 12 and leaves the largest open)";
const FIG7_DEVIATIONS: &[&str] = &[LEAF_SPINE, MAX_CWND, "PDQ with Early Start, Early Termination and Suppressed Probing on the leaf-spine (per-flow paths; its open choices as docs/protocols/pdq.md lists them); TCP-DropTail is NewReno with SACK-like recovery on 225 KB ports (Table 1)"];
const ALL_LOADS: &[f64] = &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

const FIG7_WS: Setting = Setting {
    scenarios: &["websearch-leaf-spine"],
    axis: "loads",
    quick: Size { flows: &[1000], seeds: &[1, 2, 3], xs: &[0.1, 0.8], requests: 0, per_scenario: &[] },
    full: Size { flows: &[3000], seeds: &[1, 2, 3], xs: ALL_LOADS, requests: 0, per_scenario: &[] },
    paper_size: "loads 0.1 to 0.8; the number of flows per run is not stated in the excerpt",
    deviations: FIG7_DEVIATIONS,
};
const FIG7_DM: Setting = Setting {
    scenarios: &["datamining-leaf-spine"],
    quick: Size { flows: &[300], seeds: &[1, 2, 3], xs: &[0.1, 0.8], requests: 0, per_scenario: &[] },
    full: Size { flows: &[2000], seeds: &[1, 2, 3], xs: ALL_LOADS, requests: 0, per_scenario: &[] },
    ..FIG7_WS
};
const FIG7_BOTH: Setting = Setting {
    scenarios: &["websearch-leaf-spine", "datamining-leaf-spine"],
    quick: Size { per_scenario: &[("datamining-leaf-spine", FIG7_DM.quick.flows[0])], ..FIG7_WS.quick },
    full: Size { per_scenario: &[("datamining-leaf-spine", FIG7_DM.full.flows[0])], ..FIG7_WS.full },
    ..FIG7_WS
};

const INCAST_QUICK: Size = Size { flows: &[], seeds: &[1, 2], xs: &[5.0, 50.0], requests: 5, per_scenario: &[] };
const INCAST_FULL: Size = Size { flows: &[], seeds: &[1, 2, 3], xs: &[5.0, 10.0, 20.0, 30.0, 40.0, 50.0], requests: 10, per_scenario: &[] };
const INCAST: Setting = Setting {
    scenarios: &["incast"],
    axis: "senders",
    quick: INCAST_QUICK,
    full: INCAST_FULL,
    paper_size: "10,000 requests of 100 MB at each number of senders (the scenario file's default); here fewer, each request one sample",
    deviations: &[
        INCAST_LEAF_SPINE,
        "100 MB counted on the wire (66,667 packets of 1500 B), so the ideal is 80 ms",
        "a request's senders and receiver are drawn at random per request",
    ],
};

const SEAMLESS: Setting = Setting {
    scenarios: &["pfabric-seamless-switching"],
    axis: "",
    quick: Size { flows: &[], seeds: &[1, 2, 3], xs: &[], requests: 0, per_scenario: &[] },
    full: Size { flows: &[], seeds: &[1, 2, 3, 4, 5], xs: &[], requests: 0, per_scenario: &[] },
    paper_size: "the same 5 flows of 20 MB to one destination",
    deviations: &[
        "20 MB counted on the wire (13,334 packets of 1500 B), how the paper's 80 ms comes out",
        "one 10 Gbps bottleneck behind which the five senders sit (the scenario's topology), 200 ns per link, store-and-forward",
    ],
};

const PROBE: Setting = Setting {
    scenarios: &["pfabric-probe-mode"],
    axis: "flows",
    quick: Size { flows: &[], seeds: &[1, 2], xs: &[5.0, 50.0], requests: 0, per_scenario: &[] },
    full: Size { flows: &[], seeds: &[1, 2, 3], xs: &[5.0, 10.0, 20.0, 30.0, 40.0, 50.0], requests: 0, per_scenario: &[] },
    paper_size: "up to 50 flows of 20 MB to one destination port; the fewest flows of Figure 5(b) are not stated in the excerpt (5 here)",
    deviations: &[
        "20 MB counted on the wire (13,334 packets of 1500 B)",
        "probe mode after 5 consecutive timeouts (the paper says \"several\")",
        "one 10 Gbps bottleneck, store-and-forward",
    ],
};

const ONE_PACKET: Setting = Setting {
    scenarios: &["websearch-leaf-spine"],
    axis: "",
    quick: Size { flows: &[], seeds: &[1, 2, 3], xs: &[], requests: 0, per_scenario: &[] },
    full: Size { flows: &[], seeds: &[1, 2, 3, 4, 5], xs: &[], requests: 0, per_scenario: &[] },
    paper_size: "not a measured setting: a property of the handshake",
    deviations: &["one 1000-B flow alone on the leaf-spine (the seed picks its hosts and path)"],
};

/// The pFabric paper's claims.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim::new(Paper::PFabric, "pfabric-seamless-switching", "5.3", "Figure 5(a)")
            .says(
                "We observe that the flows are indeed scheduled one-by-one and at each time, one flow grabs all the bottleneck's bandwidth (10Gbps). [...] The last of the 5 flows completes after ∼80.15ms. This is only 150µs larger then the best possible completion time of 80ms for a 100MB transfer at 10Gbps.",
                "5 flows of 20 MB start together towards one 10 Gbps port; pFabric serves them one after another at line rate, and the last ends 150 us after the 80 ms ideal",
            )
            .reads(&[SEAMLESS_GAP, SEAMLESS_OVERHEAD])
            .on(SEAMLESS)
            .measured_by(seamless),
        Claim::new(Paper::PFabric, "pfabric-incast-81ms", "5.3", "Figure 6(a)")
            .says(
                "pFabric is almost as good achieving a total request completion time of 81.1ms at 50 senders. The small increase is due to the slight [...] overhead of serially scheduling flows with pFabric.",
                "a 100 MB request striped over 50 senders completes 1.1 ms after the 80 ms the receiver's link needs: the overhead of switching between flows",
            )
            .reads(&[INCAST_81])
            .on(Setting { quick: Size { xs: &[50.0], ..INCAST_QUICK }, full: Size { xs: &[50.0], ..INCAST_FULL }, ..INCAST })
            .measured_by(incast_81ms),
        Claim::new(Paper::PFabric, "pfabric-incast-dctcp-and-serial", "5.3", "Figure 6")
            .says(
                "DCTCP does the best and achieves a near-ideal request complete time of 80ms across all number of senders. [...] However, as expected, serial flow scheduling significantly improves the average individual flow completion times (Figure 6(b)) for pFabric compared to DCTCP and TCP-DropTail which are more fair across flows.",
                "on incast DCTCP completes requests in about 80 ms and no later than pFabric, while pFabric's serial scheduling gives the individual flows clearly lower completion times than DCTCP's fair sharing",
            )
            .reads(&[INCAST_DCTCP_80, INCAST_DCTCP_BEST, INCAST_SERIAL_ORDER, INCAST_SERIAL])
            .on(INCAST)
            .measured_by(incast_schemes),
        Claim::new(Paper::PFabric, "pfabric-incast-pdq", "5.3", "Figure 6(b)")
            .says(
                "PDQ also exhibits a similar behavior as pFabric since it aims to mimic the same kind of flow scheduling, however it has slightly higher overhead in flow switching and consequently shows slightly worse performance as the number of flows increases.",
                "on incast PDQ's individual flow completion times are comparable to pFabric's, slightly worse at the most senders and more so as the senders grow",
            )
            .reads(&[PDQ_SIMILAR, PDQ_WORSE, PDQ_WORSENS])
            .on(Setting {
                deviations: &[
                    INCAST_LEAF_SPINE,
                    "100 MB counted on the wire (66,667 packets of 1500 B), so the ideal is 80 ms",
                    "a request's senders and receiver are drawn at random per request",
                    "PDQ with Early Start, Early Termination and Suppressed Probing (per-flow paths; its open choices as docs/protocols/pdq.md lists them); \"performance\" read as Figure 6(b)'s individual flow completion times, which the sentence before discusses (request completion times in the notes)",
                ],
                ..INCAST
            })
            .measured_by(incast_pdq),
        Claim::new(Paper::PFabric, "pfabric-probe-mode", "5.3", "Figure 5(b)")
            .says(
                "We observe that without probe mode, the loss rate rises sharply from ∼4.8% to ∼38.5% as the number of flows increases. [...] As expected, the probe mode significantly lowers the loss rate (to under 5.5% with 50 flows)",
                "with up to 50 flows of 20 MB towards one port, the loss rate without probe mode rises from about 4.8% to about 38.5%; probe mode keeps it under 5.5% at 50 flows",
            )
            .reads(&[PROBE_LOW, PROBE_HIGH, PROBE_RISES, PROBE_UNDER, PROBE_LOWERS_ORDER, PROBE_LOWERS])
            .on(PROBE)
            .measured_by(probe_mode),
        Claim::new(Paper::PFabric, "pfabric-websearch-near-ideal", "5.4.1", "Figure 7(a)")
            .says(
                "pFabric's performance is within ∼0.7-17.8% of the Ideal scheme for the web search workload",
                "web search on the leaf-spine, loads 0.1 to 0.8: pFabric's mean normalized FCT is 0.7% above Ideal's at its closest and 17.8% at its farthest",
            )
            .reads(&WS_IDEAL)
            .on(FIG7_WS)
            .applying(&[PFABRIC_RTT])
            .with_variants(&[PHOST_TIMING])
            .measured_by(ws_near_ideal),
        Claim::new(Paper::PFabric, "pfabric-datamining-near-ideal", "5.4.1", "Figure 7(b)")
            .says(
                "pFabric's performance is within ∼0.7-17.8% of the Ideal scheme for the web search workload and within ∼1.7–10.6% for the data mining workload",
                "data mining on the leaf-spine, loads 0.1 to 0.8: pFabric's mean normalized FCT is 1.7% above Ideal's at its closest and 10.6% at its farthest",
            )
            .reads(&DM_IDEAL)
            .on(FIG7_DM)
            .applying(&[PFABRIC_RTT])
            .with_variants(&[PHOST_TIMING])
            .measured_by(dm_near_ideal),
        Claim::new(Paper::PFabric, "pfabric-websearch-below-pdq", "5.4.1", "Figure 7(a)")
            .says(
                "Compared to PDQ, the average FCT with pFabric is ∼19-39% lower in the web search workload",
                "web search, loads 0.1 to 0.8: pFabric's average FCT is 19% to 39% below PDQ's",
            )
            .reads(&[WS_PDQ[0], WS_PDQ[1], WS_PDQ[2], WS_PDQ_LOWER])
            .on(FIG7_WS)
            .applying(&[PFABRIC_RTT])
            .with_variants(&[PHOST_TIMING])
            .measured_by(ws_below_pdq),
        Claim::new(Paper::PFabric, "pfabric-datamining-below-pdq", "5.4.1", "Figure 7(b)")
            .says(
                "Compared to PDQ, the average FCT with pFabric is ∼19-39% lower in the web search workload and ∼40-50% lower in the data mining workload",
                "data mining, loads 0.1 to 0.8: pFabric's average FCT is 40% to 50% below PDQ's",
            )
            .reads(&[DM_PDQ[0], DM_PDQ[1], DM_PDQ[2], DM_PDQ_LOWER])
            .on(FIG7_DM)
            .applying(&[PFABRIC_RTT])
            .with_variants(&[PHOST_TIMING])
            .measured_by(dm_below_pdq),
        Claim::new(Paper::PFabric, "pfabric-better-than-others", "5.4.1", "Figure 7")
            .says(
                "We observe that for both workloads the average FCT with pFabric is very close to that of the Ideal flow scheduling scheme and is significantly better than for the other schemes.",
                "on both workloads at every load, PDQ, DCTCP and TCP-DropTail have clearly higher mean normalized FCT than pFabric",
            )
            .reads(&[BETTER_ORDER, BETTER_SIGNIFICANT])
            .on(FIG7_BOTH)
            .applying(&[PFABRIC_RTT])
            .with_variants(&[PHOST_TIMING])
            .measured_by(better_than_others),
        Claim::new(Paper::PFabric, "pfabric-short-and-long-flows", "abstract; 5.4.1", "Figures 8-9")
            .says(
                "In this paper we present pFabric, a minimalistic datacenter transport design that provides near theoretically optimal flow completion times even at the 99th percentile for short flows, while still minimizing average flow completion time for long flows.",
                "on both workloads at every load, pFabric's 99th-percentile normalized FCT of short flows (below 100 KB) and its mean normalized FCT of long flows (above 10 MB) are comparable to Ideal's (Figures 8 and 9 break the FCT down by these sizes; their discussion is past the end of the excerpt)",
            )
            .reads(&[SHORT_TAIL, LONG_MEAN])
            .on(FIG7_BOTH)
            .applying(&[PFABRIC_RTT])
            .with_variants(&[PHOST_TIMING])
            .cited()
            .measured_by(short_and_long),
        Claim::new(Paper::PFabric, "pfabric-pdq-one-packet-two-rtts", "5.4.1", "")
            .says(
                "It is important to note that PDQ always requires one extra RTT of overhead for ﬂow initiation (SYN/SYN-ACK exchange) before a ﬂow can transmit. Because of this, PDQ's normalized FCT is at-least two for very small ﬂows that can ideally complete in one RTT.",
                "PDQ's flows start with a SYN round trip, so a one-packet flow's normalized FCT is at least 2",
            )
            .reads(&[TWO_RTTS])
            .on(ONE_PACKET)
            .applying(&[PFABRIC_RTT])
            .measured_by(pdq_one_packet),
    ]
}
