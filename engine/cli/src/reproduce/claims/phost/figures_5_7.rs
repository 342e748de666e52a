//! Section 4.3, Figures 5 to 7: drops at the first hop, deadlines, NFCT
//! and tail slowdown, drop rate, varying load and stability.

use super::*;

// ---------------------------------------------------- drops, Figure 5(f)

pub(super) const DROPS_FIRST: Reading = Reading {
    key: "61%",
    says: "the first (61%)",
    of: "share of pFabric's data drops at the first hop (host NIC)",
    bound: approx(0.61),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const DROPS_LAST: Reading = Reading {
    key: "39%",
    says: "and last (39%) hop queue",
    of: "share of pFabric's data drops at the last hop (ToR downlink)",
    bound: approx(0.39),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const ZERO_FIRST: Reading = Reading {
    key: "zero-first-hop",
    says: "both protocols experience zero drops at the first hop",
    of: "data drops at the first hop under pHost and Fastpass",
    bound: Bound::range(0.0, 0.0),
    kind: Kind::Value,
    rule: Rule::Literal,
};

/// Packets the paper's Figure 5(f) run injected (section 4.3: "511
/// million packets are injected into the network over the duration of the
/// simulation"): the drop counts it gives are read as fractions of these.
pub(super) const INJECTED: f64 = 511e6;
pub(super) const LAST_PHOST: Reading = Reading {
    key: "836-last-hop",
    says: "the number of last hop drops for pHost and Fastpass are 836 and 0 packets respectively",
    of: "pHost's last-hop data drops per data packet injected (836 of 511 million)",
    bound: approx(836.0 / INJECTED),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const LAST_FASTPASS: Reading = Reading {
    key: "0-last-hop",
    says: "the number of last hop drops for pHost and Fastpass are 836 and 0 packets respectively",
    of: "Fastpass's last-hop data drops",
    bound: Bound::range(0.0, 0.0),
    kind: Kind::Value,
    rule: Rule::Literal,
};
pub(super) const FABRIC_LOW: Reading = Reading {
    key: "fabric-0.00004%",
    says: "which represent less than 0.00004% of the total packets injected into the network",
    of: "data drops within the fabric (ToR up and spine down) per data packet injected, each scheme",
    bound: Bound::below(4e-7),
    kind: Kind::Value,
    rule: Rule::Literal,
};

pub(super) fn first_hop_drops(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = defaults(lab, size)?;
    let x = size.xs.iter().position(|w| *w == 0.0).expect("the web search workload is point 0");
    let share = |hop: usize| {
        g.per_seed_outcome(PF, x, move |o| {
            let d = o.counters.data_dropped;
            d[hop] as f64 / d.iter().sum::<u64>().max(1) as f64
        })
    };
    let (first, last) = (share(0), share(3));
    let ph = g.per_seed_outcome(PH, x, |o| o.counters.data_dropped[0] as f64);
    let fp = g.per_seed_outcome(FP, x, |o| o.counters.data_dropped[0] as f64);
    let hops = |s: usize| g.drops_by_hop(s, x);
    let per_packet =
        |s: usize, f: fn(&[u64; 4]) -> u64| g.per_seed_outcome(s, x, move |o| f(&o.counters.data_dropped) as f64 / o.counters.data_sent.max(1) as f64);
    let fabric = |d: &[u64; 4]| d[1] + d[2];
    let ph_last = per_packet(PH, |d| d[3]);
    let fp_last = g.per_seed_outcome(FP, x, |o| o.counters.data_dropped[3] as f64);
    let injected: u64 = g.at(PF, x).iter().map(|o| o.counters.data_sent).sum();
    Some(Judged {
        value: format!(
            "pFabric's drops {}% first hop, {}% last; first-hop drops pHost {}, Fastpass {}",
            fmt(100.0 * mean(first.iter().copied())),
            fmt(100.0 * mean(last.iter().copied())),
            fmt(mean(ph.iter().copied())),
            fmt(mean(fp.iter().copied()))
        ),
        checks: vec![
            Check::of(&DROPS_FIRST, "web search: pFabric's first-hop share of its data drops", first),
            Check::of(&DROPS_LAST, "web search: pFabric's last-hop share of its data drops", last),
            Check::of(&ZERO_FIRST, "web search: pHost's first-hop data drops", ph),
            Check::of(&ZERO_FIRST, "web search: Fastpass's first-hop data drops", fp),
            Check::of(&LAST_PHOST, "web search: pHost's last-hop data drops per data packet sent", ph_last),
            Check::of(&LAST_FASTPASS, "web search: Fastpass's last-hop data drops", fp_last),
            Check::of(&FABRIC_LOW, "web search: pHost's fabric data drops per data packet sent", per_packet(PH, fabric)),
            Check::of(&FABRIC_LOW, "web search: pFabric's fabric data drops per data packet sent", per_packet(PF, fabric)),
            Check::of(&FABRIC_LOW, "web search: Fastpass's fabric data drops per data packet sent", per_packet(FP, fabric)),
        ],
        notes: vec![
            format!(
                "data drops at hops 1 / 2 / 3 / 4 (NIC, ToR up, spine down, ToR down), all seeds: pFabric {}, pHost {}, Fastpass {}",
                hops(PF),
                hops(PH),
                hops(FP)
            ),
            format!(
                "pFabric's data packets sent, all seeds: {} (the paper's run: 511 million, so its counts scale by about {} to this size)",
                thousands(injected),
                fmt(injected as f64 / INJECTED)
            ),
        ],
    })
}

// ----------------------------------------------------- deadlines, 5(c)

pub(super) const DEADLINES_2PCT: Reading = Reading {
    key: "2%",
    says: "the maximum difference in performance between any two protocols being 2%",
    of: "largest minus smallest fraction of deadlines met among the three",
    bound: Bound::range(0.0, SIMILAR_DEADLINES),
    kind: Kind::Value,
    rule: Rule::Literal,
};

pub(super) fn deadlines(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &SCHEMES, |p, _, x| workload(with(&lab.scenario("phost-deadlines"), *p, f64::NAN), x), false)?;
    let mut checks = Vec::new();
    let mut notes = Vec::new();
    let mut spreads = Vec::new();
    for x in 0..size.xs.len() {
        let met: Vec<Vec<f64>> = (0..3).map(|s| g.per_seed_outcome(s, x, Outcome::deadlines_met)).collect();
        let spread: Vec<f64> = (0..size.seeds.len())
            .map(|k| {
                let v = [met[0][k], met[1][k], met[2][k]];
                v.iter().copied().fold(f64::NEG_INFINITY, f64::max) - v.iter().copied().fold(f64::INFINITY, f64::min)
            })
            .collect();
        spreads.push(mean(spread.iter().copied()));
        checks.push(Check::of(&DEADLINES_2PCT, format!("{}: largest minus smallest fraction of deadlines met", wl(size, x)), spread));
        notes.push(format!(
            "{}: deadlines met pFabric {}, pHost {}, Fastpass {}",
            wl(size, x),
            fmt(mean(met[0].iter().copied())),
            fmt(mean(met[1].iter().copied())),
            fmt(mean(met[2].iter().copied()))
        ));
    }
    Some(Judged { value: format!("the three {} apart in deadlines met", span(&spreads)), checks, notes })
}

// --------------------------------------------------- stability, Fig 7

pub(super) const STABLE_06: Reading = Reading {
    key: "stable-0.6",
    says: "pFabric is stable at 0.6 load",
    of:
        "pFabric at load 0.6: the bytes arrived at the sources and not yet sent, mean over the second half of the arrivals, in a run twice as long over the run",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Stability,
};
pub(super) const UNSTABLE_08: Reading = Reading {
    key: "unstable-beyond-0.7",
    says: "unstable beyond 0.7 load",
    of: "the same ratio, pFabric at load 0.8",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Stability,
};
pub(super) const SIMILAR_OTHERS: Reading = Reading {
    key: "similar-phost-fastpass",
    says: "We get similar results for pHost and Fastpass",
    of: "the same ratio, pHost and Fastpass at load 0.6",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Stability,
};
pub(super) const SIMILAR_OTHERS_HIGH: Reading = Reading {
    key: "similar-phost-fastpass-0.8",
    says: "We get similar results for pHost and Fastpass",
    of: "the same ratio, pHost and Fastpass at load 0.8",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Stability,
};

pub(super) fn stability(lab: &Lab, size: &Size) -> Option<Judged> {
    let base = |p: &P, x: f64| with(&lab.scenario("websearch-leaf-spine"), *p, x);
    // Each run of N flows again with 2N flows, seed by seed.
    let n = size.flows_at(0).expect("the stability claim gives its number of flows");
    let mut long = Vec::new();
    for p in &SCHEMES {
        for &x in size.xs {
            for &seed in size.seeds {
                let mut s = base(p, x);
                s.workload.flows = 2 * n;
                s.seed = seed;
                long.push(crate::reproduce::lab::Job::new(s));
            }
        }
    }
    let (g, long) = (grid(lab, size, &SCHEMES, |p, _, x| base(p, x), false), lab.runs(long));
    let (g, long) = (g?, long?);
    let k = size.seeds.len();
    let late = |o: &Outcome| if o.finished() { o.unsent_late } else { f64::NAN };
    let ratio = |s: usize, x: usize| -> Vec<f64> {
        let at = (s * size.xs.len() + x) * k;
        g.at(s, x).iter().zip(&long[at..at + k]).map(|(short, long)| late(long) / late(short)).collect()
    };
    let at = |l: f64| size.xs.iter().position(|x| *x == l).expect("loads 0.6 and 0.8");
    let (lo, hi) = (at(0.6), at(0.8));
    const WHAT: &str = "unsent backlog late in the run, twice as long over as long";
    let mut checks = vec![
        Check::of(&STABLE_06, format!("pFabric, load 0.6: {WHAT}"), ratio(PF, lo)),
        Check::of(&UNSTABLE_08, format!("pFabric, load 0.8: {WHAT}"), ratio(PF, hi)),
    ];
    for (s, name) in [(PH, "pHost"), (FP, "Fastpass")] {
        checks.push(Check::of(&SIMILAR_OTHERS, format!("{name}, load 0.6: {WHAT}"), ratio(s, lo)));
        checks.push(Check::of(&SIMILAR_OTHERS_HIGH, format!("{name}, load 0.8: {WHAT}"), ratio(s, hi)));
    }
    let by_load = |s: usize| by_point(size.xs, &(0..size.xs.len()).map(|x| mean(ratio(s, x))).collect::<Vec<_>>());
    let mb = |s: usize, f: &dyn Fn(usize, usize) -> f64| by_point(size.xs, &(0..size.xs.len()).map(|x| f(s, x) / 1e6).collect::<Vec<_>>());
    let short_mb = |s: usize, x: usize| mean(g.per_seed_outcome(s, x, late));
    let long_mb = |s: usize, x: usize| {
        let at = (s * size.xs.len() + x) * k;
        mean(long[at..at + k].iter().map(|o| late(o)))
    };
    let row = |s: usize, f: fn(&Outcome) -> f64| by_point(size.xs, &(0..size.xs.len()).map(|x| mean(g.per_seed_outcome(s, x, f))).collect::<Vec<_>>());
    Some(Judged {
        value: format!("unsent backlog late in the run, twice as long / as long, pFabric: {}", by_load(PF)),
        checks,
        notes: vec![
            format!("the same ratio by load: pHost {}; Fastpass {}", by_load(PH), by_load(FP)),
            format!(
                "unsent backlog late in the run (MB), {} flows; {} flows, by load: pFabric {}; {}; pHost {}; {}; Fastpass {}; {}",
                thousands(n),
                thousands(2 * n),
                mb(PF, &short_mb),
                mb(PF, &long_mb),
                mb(PH, &short_mb),
                mb(PH, &long_mb),
                mb(FP, &short_mb),
                mb(FP, &long_mb)
            ),
            format!(
                "growth of the unsent backlog through the run (fitted rise over the mean, {} flows; not judged) by load: pFabric {}; pHost {}; Fastpass {}",
                thousands(n),
                row(PF, |o| o.unsent_growth),
                row(PH, |o| o.unsent_growth),
                row(FP, |o| o.unsent_growth)
            ),
            format!(
                "mean slowdown by load, {} flows: pFabric {}",
                thousands(n),
                by_point(size.xs, &(0..size.xs.len()).map(|x| g.mean(PF, x, |s| s.all.mean_slowdown)).collect::<Vec<_>>())
            ),
        ],
    })
}

// ------------------------------------------- NFCT and tail, Figure 5(a, d)

pub(super) const NFCT_15: Reading = Reading {
    key: "15%",
    says: "the maximum difference in NFCT between any two protocols is 15%",
    of: "largest over smallest NFCT (the mean FCT over the mean ideal FCT, section 4.3's definition) among the three, each trace",
    bound: Bound::range(1.0, 1.15),
    kind: Kind::Value,
    rule: Rule::Literal,
};

/// Seed by seed, the largest of `v[0][k], v[1][k], v[2][k]` over the
/// smallest: how far apart the three schemes are (NaN where a run did not
/// finish).
pub(super) fn spread_ratio(v: &[Vec<f64>; 3]) -> Vec<f64> {
    (0..v[0].len())
        .map(|k| {
            let x = [v[0][k], v[1][k], v[2][k]];
            if x.iter().any(|v| v.is_nan()) {
                return f64::NAN;
            }
            x.iter().copied().fold(f64::NEG_INFINITY, f64::max) / x.iter().copied().fold(f64::INFINITY, f64::min)
        })
        .collect()
}

pub(super) fn nfct(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = defaults(lab, size)?;
    let mut checks = Vec::new();
    let mut notes = Vec::new();
    let mut spreads = Vec::new();
    for x in 0..size.xs.len() {
        let v = [g.per_seed(PF, x, |s| s.all.nfct), g.per_seed(PH, x, |s| s.all.nfct), g.per_seed(FP, x, |s| s.all.nfct)];
        let spread = spread_ratio(&v);
        spreads.push(mean(spread.iter().copied()));
        checks.push(Check::of(&NFCT_15, format!("{}: largest / smallest NFCT among the three", wl(size, x)), spread));
        notes.push(format!(
            "{}: NFCT pFabric {}, pHost {}, Fastpass {}",
            wl(size, x),
            fmt(mean(v[0].clone())),
            fmt(mean(v[1].clone())),
            fmt(mean(v[2].clone()))
        ));
    }
    Some(Judged { value: format!("largest / smallest NFCT among the three {}", span(&spreads)), checks, notes })
}

pub(super) const TAIL_2: Reading = Reading {
    key: "around-2",
    says: "the 99%ile slowdown is around 2",
    of: "pHost's and pFabric's 99th-percentile slowdown (nearest rank, every flow), each trace",
    bound: approx(2.0),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const TAIL_33: Reading = Reading {
    key: "33%-above-mean",
    says: "roughly 33% higher than the mean slowdown",
    of: "pHost's and pFabric's 99th-percentile slowdown over their mean slowdown, minus 1, each trace",
    bound: approx(0.33),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const TAIL_FP_2X: Reading = Reading {
    key: "fastpass-2x-mean",
    says: "for Fastpass the slowdown increases to almost 2× the mean slowdown",
    of: "Fastpass's 99th-percentile slowdown over its mean slowdown, each trace",
    bound: approx(2.0),
    kind: Kind::Value,
    rule: Rule::Approx,
};
pub(super) const TAIL_FP_INCREASES: Reading = Reading {
    key: "fastpass-increases",
    says: "while for Fastpass the slowdown increases",
    of: "Fastpass's 99th-percentile over mean slowdown minus pHost's and minus pFabric's, each trace",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn tail_slowdown(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = defaults(lab, size)?;
    let mut checks = Vec::new();
    let mut notes = Vec::new();
    let mut value = Vec::new();
    for x in 0..size.xs.len() {
        let w = wl(size, x);
        let tail_over_mean = |s: usize| g.per_seed(s, x, |m| m.all.p99_slowdown / m.all.mean_slowdown);
        let fp = tail_over_mean(FP);
        for (s, name) in [(PH, "pHost"), (PF, "pFabric")] {
            checks.push(Check::of(&TAIL_2, format!("{w}: {name}'s 99th-percentile slowdown"), g.per_seed(s, x, |m| m.all.p99_slowdown)));
            let r = tail_over_mean(s);
            checks.push(Check::of(&TAIL_33, format!("{w}: {name}'s 99th-percentile / mean slowdown - 1"), r.iter().map(|v| v - 1.0).collect()));
            checks.push(Check::of(
                &TAIL_FP_INCREASES,
                format!("{w}: Fastpass's 99th-percentile / mean slowdown minus {name}'s"),
                fp.iter().zip(&r).map(|(a, b)| a - b).collect(),
            ));
        }
        checks.push(Check::of(&TAIL_FP_2X, format!("{w}: Fastpass's 99th-percentile / mean slowdown"), fp.clone()));
        value.push(format!(
            "{w}: pHost {}, pFabric {}, Fastpass {} ({} of its mean)",
            fmt(g.mean(PH, x, |m| m.all.p99_slowdown)),
            fmt(g.mean(PF, x, |m| m.all.p99_slowdown)),
            fmt(g.mean(FP, x, |m| m.all.p99_slowdown)),
            fmt(mean(fp))
        ));
        notes.push(format!(
            "{w}: short flows' (below 100 KB) 99th-percentile slowdown pHost {}, pFabric {}, Fastpass {}",
            fmt(g.mean(PH, x, |m| m.short.p99_slowdown)),
            fmt(g.mean(PF, x, |m| m.short.p99_slowdown)),
            fmt(g.mean(FP, x, |m| m.short.p99_slowdown))
        ));
    }
    Some(Judged { value: format!("99th-percentile slowdown: {}", value.join("; ")), checks, notes })
}

// --------------------------------------------------- drop rate, Figure 5(e)

/// The largest drop count the paper gives for pHost or Fastpass at load
/// 0.6 (Figure 5(f): pHost's 836 last-hop and 33 fabric drops) over the 511
/// million packets injected: 1.7 per million.
pub(super) const PAPER_NEAR_ZERO_DROP_RATE: f64 = (836.0 + 33.0) / 511.0e6;

pub(super) const PF_DROPS_RISE: Reading = Reading {
    key: "pfabric-increases",
    says: "pFabric has a high drop rate that increases with load",
    of: "pFabric's drop rate (data packets dropped over sent) at the highest load minus at the lowest",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const PF_DROPS_HIGH: Reading = Reading {
    key: "pfabric-high",
    says: "pFabric has a high drop rate",
    of: "pFabric's drop rate minus pHost's and minus Fastpass's, at every load",
    bound: Bound::above(0.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const NEAR_ZERO: Reading = Reading {
    key: "close-to-zero",
    says: "pHost and Fastpass see drop rates consistently close to zero even as load increases",
    of: "pHost's and Fastpass's drop rate at every load: at most the paper's own largest for them, at load 0.6 (Figure 5(f): 836 + 33 of 511 million packets for pHost, 1.7 per million), plus 10%",
    bound: Bound::at_most(PAPER_NEAR_ZERO_DROP_RATE * (1.0 + APPROX)),
    kind: Kind::Value,
    rule: Rule::Approx,
};

pub(super) fn drop_rate(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &SCHEMES, |p, _, x| with(&lab.scenario("websearch-leaf-spine"), *p, x), false)?;
    let rate = |s: usize, x: usize| g.per_seed(s, x, |m| m.drop_rate);
    let last = size.xs.len() - 1;
    let at = |x: usize| format!("load {}", fmt(size.xs[x]));
    let mut checks = vec![Check::of(
        &PF_DROPS_RISE,
        format!("pFabric's drop rate, {} minus {}", at(last), at(0)),
        rate(PF, last).iter().zip(rate(PF, 0)).map(|(a, b)| a - b).collect(),
    )];
    for x in 0..size.xs.len() {
        for (s, name) in [(PH, "pHost"), (FP, "Fastpass")] {
            checks.push(Check::of(&PF_DROPS_HIGH, format!("{}: pFabric's drop rate minus {name}'s", at(x)), g.diff(PF, s, x, |o| o.get(|m| m.drop_rate))));
            checks.push(Check::of(&NEAR_ZERO, format!("{}: {name}'s drop rate", at(x)), rate(s, x)));
        }
    }
    let row = |s: usize| by_point(size.xs, &(0..size.xs.len()).map(|x| 100.0 * mean(rate(s, x))).collect::<Vec<_>>());
    Some(Judged {
        value: format!("drop rate (%) by load: pFabric {}; pHost {}; Fastpass {}", row(PF), row(PH), row(FP)),
        checks,
        notes: vec![format!(
            "data drops at hops NIC / ToR up / spine down / ToR down, all seeds, by load: {}",
            (0..size.xs.len())
                .map(|x| format!("{}: pFabric {}, pHost {}, Fastpass {}", fmt(size.xs[x]), g.drops_by_hop(PF, x), g.drops_by_hop(PH, x), g.drops_by_hop(FP, x)))
                .collect::<Vec<_>>()
                .join("; ")
        )],
    })
}

// ------------------------------------------ varying network load, Figure 6

pub(super) const LOAD_COMPARABLE: Reading = Reading {
    key: "phost-comparable",
    says: "the relative performance of the different protocols across different network loads remains consistent with our results from above",
    of: "pHost's mean slowdown over pFabric's at each load and trace (above, Figure 3: \"pHost performs comparable to pFabric\")",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};
pub(super) const LOAD_FP_WORSE: Reading = Reading {
    key: "fastpass-worse",
    says: "the relative performance of the different protocols across different network loads remains consistent with our results from above",
    of: "Fastpass's mean slowdown over pHost's at each load and trace (above, Figure 3: pHost \"1.3–4× better than Fastpass\")",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};

pub(super) fn varying_load(lab: &Lab, size: &Size) -> Option<Judged> {
    // One grid per trace, each with its own number of flows (`per_scenario`
    // names the traces); all are asked for before any is unwrapped.
    let per_trace: &'static [(&'static str, u64)] = size.per_scenario;
    let grids: Vec<Option<Grid>> = (0..WORKLOADS.len())
        .map(|w| {
            let flows = per_trace.iter().find(|(n, _)| *n == WORKLOADS[w].1).map(|p| std::slice::from_ref(&p.1)).unwrap_or(&[]);
            let sz = Size { flows, per_scenario: &[], ..*size };
            grid(lab, &sz, &SCHEMES, |p, _, x| workload(with(&lab.scenario("websearch-leaf-spine"), *p, x), w as f64), false)
        })
        .collect();
    let grids: Vec<Grid> = grids.into_iter().collect::<Option<_>>()?;
    let mut checks = Vec::new();
    let mut notes = Vec::new();
    let (mut ph_pf, mut fp_ph) = (Vec::new(), Vec::new());
    for (w, g) in grids.iter().enumerate() {
        let name = WORKLOADS[w].1;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for x in 0..size.xs.len() {
            let at = format!("{name}, load {}", fmt(size.xs[x]));
            let r = g.ratio(PH, PF, x, |s| s.all.mean_slowdown);
            a.push(mean(r.iter().copied()));
            checks.push(Check::of(&LOAD_COMPARABLE, format!("{at}: pHost / pFabric mean slowdown"), r));
            let r = g.ratio(FP, PH, x, |s| s.all.mean_slowdown);
            b.push(mean(r.iter().copied()));
            checks.push(Check::of(&LOAD_FP_WORSE, format!("{at}: Fastpass / pHost mean slowdown"), r));
        }
        notes.push(format!("{name}: pHost / pFabric mean slowdown by load {}; Fastpass / pHost {}", by_point(size.xs, &a), by_point(size.xs, &b)));
        ph_pf.extend(a);
        fp_ph.extend(b);
    }
    Some(Judged { value: format!("pHost/pFabric {}, Fastpass/pHost {} over the loads and traces", span(&ph_pf), span(&fp_ph)), checks, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_is_the_largest_over_the_smallest_seed_by_seed() {
        let v = [vec![1.0, 2.0], vec![1.1, 1.0], vec![1.05, 3.0]];
        let s = spread_ratio(&v);
        assert!((s[0] - 1.1).abs() < 1e-12 && (s[1] - 3.0).abs() < 1e-12, "{s:?}");
        // A missing run makes its seed's spread missing, not small.
        assert!(spread_ratio(&[vec![f64::NAN], vec![1.0], vec![1.0]])[0].is_nan());
    }
}
