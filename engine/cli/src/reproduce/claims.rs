//! The registry: every claim `dcsim reproduce` measures, each with the
//! paper's statement and number, its tolerance and where that comes from,
//! its sizes, its deviations from the paper's setting, and the function
//! that measures it. The statements, numbers and tolerances are the ones
//! the tests in `engine/core/tests/` (paper_pfabric.rs, paper_phost.rs,
//! pdq.rs, pase.rs, d2tcp_l2dct.rs) and the gallery
//! (`web/src/gallery/published.ts`) quote; where the two differ, the
//! claim says which it uses. No dcsim number is written here: they come
//! from the runs.
//!
//! To add a claim: a `Claim` in [`registry`] and its `measure` function,
//! which builds its runs from the lab's scenarios, asks `lab.runs(jobs)?`
//! once for all of them, and returns the checks.

use super::{fmt, Bound, Check, Claim, Judged, Job, Lab, Outcome, Paper, Pending, Setting, Size};
use dcsim_core::protocol::params::PdqParams;
use dcsim_core::scenario::{ProtocolName, Scenario};
use dcsim_core::workload::{MatrixSpec, NamedCdf, SizeSpec};
use ProtocolName as P;

/// Mean of `v` (NaN when empty or when any value is NaN).
fn mean(v: impl IntoIterator<Item = f64>) -> f64 {
    let (mut s, mut n) = (0.0, 0usize);
    for x in v {
        s += x;
        n += 1;
    }
    if n == 0 {
        f64::NAN
    } else {
        s / n as f64
    }
}

/// "a to b" over `v` (or the one value).
fn span(v: &[f64]) -> String {
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if v.iter().any(|x| x.is_nan()) {
        return format!("{} (a run unfinished)", v.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join(", "));
    }
    if lo == hi {
        fmt(lo)
    } else {
        format!("{} to {}", fmt(lo), fmt(hi))
    }
}

/// "0.1: 1.01, 0.5: 1.04" (point: value).
fn by_point(xs: &[f64], v: &[f64]) -> String {
    xs.iter().zip(v).map(|(x, y)| format!("{}: {}", fmt(*x), fmt(*y))).collect::<Vec<_>>().join(", ")
}

/// Outcomes of a grid of runs: [scheme][point][seed].
struct Grid<'a> {
    out: Vec<&'a Outcome>,
    points: usize,
    seeds: usize,
}

impl<'a> Grid<'a> {
    /// The runs of scheme `s` at point `x`, one per seed.
    fn at(&self, s: usize, x: usize) -> &[&'a Outcome] {
        let i = (s * self.points + x) * self.seeds;
        &self.out[i..i + self.seeds]
    }
    /// Mean over seeds of `f` of the summary.
    fn mean(&self, s: usize, x: usize, f: impl Fn(&dcsim_core::metrics::Summary) -> f64) -> f64 {
        mean(self.at(s, x).iter().map(|o| o.get(&f)))
    }
}

/// Runs every scheme at every point of `size` with every seed: `make`
/// builds the scenario of (scheme, point index, point, flows, seed).
fn grid<'a, S>(lab: &'a Lab, size: &Size, schemes: &[S], make: impl Fn(&S, usize, f64) -> Scenario, records: bool) -> Option<Grid<'a>> {
    let points = size.points();
    let mut jobs = Vec::new();
    for s in schemes {
        for (i, &x) in points.iter().enumerate() {
            for &seed in size.seeds {
                let mut sc = make(s, i, x);
                if let Some(f) = size.flows_at(i) {
                    sc.workload.flows = f;
                }
                sc.seed = seed;
                let j = Job::new(sc);
                jobs.push(if records { j.with_records() } else { j });
            }
        }
    }
    Some(Grid { out: lab.runs(jobs)?, points: points.len(), seeds: size.seeds.len() })
}

/// `base` with protocol `p` (and load `x` when `x` is a number).
fn with(base: &Scenario, p: ProtocolName, load: f64) -> Scenario {
    let mut s = base.clone();
    s.protocol = p;
    if !load.is_nan() {
        s.workload.load = load;
    }
    s
}

// ---------------------------------------------------------------- pFabric

fn seamless(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pfabric], |p, _, _| with(&lab.scenario("pfabric-seamless-switching"), *p, f64::NAN), true)?;
    let o = g.at(0, 0)[0];
    // Times in ms: the common start, then each end in order; a gap is
    // the time from one to the next.
    let start = o.records.iter().map(|r| r.start.as_us_f64() / 1000.0).fold(f64::INFINITY, f64::min);
    let mut times: Vec<f64> = o.records.iter().map(|r| r.end.map_or(f64::NAN, |e| e.as_us_f64() / 1000.0)).collect();
    times.sort_by(f64::total_cmp);
    times.insert(0, start);
    let gaps: Vec<f64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    let ends = &times[1..];
    let last = ends.last().copied().unwrap_or(f64::NAN);
    let mut checks = vec![Check::order("flows end one at a time: smallest gap between ends (ms)", gaps.iter().copied().fold(f64::INFINITY, f64::min), Bound::above(0.0))];
    checks.extend(gaps.iter().enumerate().map(|(i, g)| Check::value(format!("flow {} ends after the previous (ms)", i + 1), *g, Bound::within(16.0, 0.02))));
    checks.push(Check::value("last flow ends (ms)", last, Bound::within(80.0, 0.005)));
    Some(Judged { value: format!("last at {} ms, gaps {} ms", fmt(last), span(&gaps)), checks, notes: Vec::new() })
}

/// The incast scenario under `p` with `n` senders.
fn incast(lab: &Lab, p: ProtocolName, n: f64) -> Scenario {
    let mut s = with(&lab.scenario("incast-one-request"), p, f64::NAN);
    if let MatrixSpec::Incast { senders, .. } = &mut s.workload.matrix {
        *senders = n as u32;
    }
    s
}

fn incast_81ms(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pfabric], |p, _, x| incast(lab, *p, x), false)?;
    let ms = g.mean(0, 0, |s| s.mean_request_us.unwrap_or(f64::NAN) / 1000.0);
    Some(Judged { value: format!("{} ms", fmt(ms)), checks: vec![Check::value("pFabric, 50 senders: request completion (ms)", ms, Bound::within(81.1, 0.03))], notes: Vec::new() })
}

fn incast_near_ideal(lab: &Lab, size: &Size) -> Option<Judged> {
    let schemes = [P::Pfabric, P::Dctcp];
    let g = grid(lab, size, &schemes, |p, _, x| incast(lab, *p, x), false)?;
    let mut checks = Vec::new();
    let mut all = Vec::new();
    for (si, p) in schemes.iter().enumerate() {
        for (xi, x) in size.xs.iter().enumerate() {
            let ms = g.mean(si, xi, |s| s.mean_request_us.unwrap_or(f64::NAN) / 1000.0);
            all.push(ms);
            checks.push(Check::value(format!("{}, {} senders: request completion (ms)", p.as_str(), fmt(*x)), ms, Bound::range(80.0, 80.0 * 1.03)));
        }
    }
    Some(Judged { value: format!("{} ms", span(&all)), checks, notes: Vec::new() })
}

fn probe_mode(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &[true, false],
        |on, _, _| {
            let mut s = with(&lab.scenario("pfabric-probe-mode"), P::Pfabric, f64::NAN);
            s.params.pfabric.probe_mode = *on;
            s
        },
        false,
    )?;
    let (with_, without) = (g.mean(0, 0, |s| s.drop_rate), g.mean(1, 0, |s| s.drop_rate));
    Some(Judged {
        value: format!("loss {}% with, {}% without", fmt(100.0 * with_), fmt(100.0 * without)),
        checks: vec![
            Check::order("loss without probe mode / with", without / with_, Bound::above(1.0)),
            Check::value("loss with probe mode", with_, Bound::at_most(0.10)),
            Check::value("loss without probe mode", without, Bound::at_least(0.30)),
        ],
        notes: Vec::new(),
    })
}

/// Web search on the default leaf-spine under `p` at load `x`.
fn websearch(lab: &Lab, p: ProtocolName, x: f64) -> Scenario {
    with(&lab.scenario("websearch-leaf-spine"), p, x)
}

const WS_SCHEMES: [ProtocolName; 4] = [P::Ideal, P::Pfabric, P::Dctcp, P::Tcp];

fn websearch_order(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &WS_SCHEMES, |p, _, x| websearch(lab, *p, x), false)?;
    let mut checks = Vec::new();
    let mut ratios = [Vec::new(), Vec::new(), Vec::new()];
    for (xi, x) in size.xs.iter().enumerate() {
        let m: Vec<f64> = (0..4).map(|s| g.mean(s, xi, |s| s.all.mean_slowdown)).collect();
        for (k, (a, b)) in [(1, 0), (2, 1), (3, 2)].into_iter().enumerate() {
            let r = m[a] / m[b];
            ratios[k].push(r);
            let bound = if k == 0 { Bound::at_least(1.0) } else { Bound::above(1.0) };
            checks.push(Check::order(format!("load {}: {} / {} mean slowdown", fmt(*x), WS_SCHEMES[a].as_str(), WS_SCHEMES[b].as_str()), r, bound));
        }
    }
    Some(Judged {
        value: format!("pFabric/Ideal {}, DCTCP/pFabric {}, TCP/DCTCP {}", span(&ratios[0]), span(&ratios[1]), span(&ratios[2])),
        checks,
        notes: Vec::new(),
    })
}

/// pFabric against Ideal at each load: the paper's metric is each flow's
/// FCT over its best possible FCT, averaged (dcsim's mean slowdown); mean
/// FCT over mean ideal FCT (dcsim's `nfct`) is reported beside it.
fn near_ideal_on(lab: &Lab, size: &Size, edit: impl Fn(Scenario) -> Scenario) -> Option<Judged> {
    let g = grid(lab, size, &WS_SCHEMES[..2], |p, _, x| edit(websearch(lab, *p, x)), false)?;
    let sl: Vec<f64> = (0..size.xs.len()).map(|x| g.mean(1, x, |s| s.all.mean_slowdown) / g.mean(0, x, |s| s.all.mean_slowdown)).collect();
    let nf: Vec<f64> = (0..size.xs.len()).map(|x| g.mean(1, x, |s| s.all.nfct) / g.mean(0, x, |s| s.all.nfct)).collect();
    let checks = size.xs.iter().zip(&sl).map(|(x, r)| Check::value(format!("load {}: pFabric / Ideal mean slowdown", fmt(*x)), *r, Bound::range(1.007, 1.178).slack(0.05))).collect();
    Some(Judged {
        value: format!("pFabric/Ideal {}", span(&sl)),
        checks,
        notes: vec![
            format!("pFabric / Ideal mean slowdown by load: {}", by_point(size.xs, &sl)),
            format!("pFabric / Ideal by mean FCT over mean ideal FCT (nfct), by load: {}", by_point(size.xs, &nf)),
        ],
    })
}

fn near_ideal(lab: &Lab, size: &Size) -> Option<Judged> {
    near_ideal_on(lab, size, |s| s)
}

/// Link propagation that gives the pFabric paper's 14.6 us round trip
/// across the spine on the 10/40 Gbps leaf-spine: 8 link traversals of
/// 1.65 us plus a 1500-B packet at 10 Gbps (1.2 us) and the ACK's
/// serializations.
const PFABRIC_RTT_PROPAGATION_NS: f64 = 1650.0;

fn near_ideal_paper_rtt(lab: &Lab, size: &Size) -> Option<Judged> {
    near_ideal_on(lab, size, |s| s.with_field("topology.propagation_ns", PFABRIC_RTT_PROPAGATION_NS.into()).expect("a leaf-spine has propagation_ns"))
}

fn pdq_one_packet(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(
        lab,
        size,
        &[P::Pdq],
        |p, _, _| {
            let mut s = with(&lab.scenario("pdq-query-aggregation"), *p, f64::NAN);
            s.workload.matrix = MatrixSpec::QueryAggregation { fanout: 1, queries: 1 };
            s.workload.sizes = SizeSpec::Fixed { bytes: Some(1000), packets: None };
            s.workload.deadlines = None;
            s
        },
        false,
    )?;
    let v: Vec<f64> = g.at(0, 0).iter().map(|o| o.get(|s| s.all.mean_slowdown)).collect();
    let checks = size.seeds.iter().zip(&v).map(|(seed, x)| Check::value(format!("seed {seed}: normalized FCT of the one-packet flow"), *x, Bound::at_least(2.0))).collect();
    Some(Judged { value: format!("normalized FCT {}", span(&v)), checks, notes: Vec::new() })
}

// ------------------------------------------------------------------ pHost

const WORKLOADS: [(NamedCdf, &str); 3] = [(NamedCdf::Websearch, "web search"), (NamedCdf::Datamining, "data mining"), (NamedCdf::Imc10, "IMC10")];

/// pFabric, pHost, Fastpass sending at its slot's start, Fastpass sending
/// as the grant arrives (the pHost authors' simulator).
const PHOST_SCHEMES: [(ProtocolName, bool); 4] = [(P::Pfabric, false), (P::Phost, false), (P::Fastpass, false), (P::Fastpass, true)];

/// The default leaf-spine at load 0.6 with workload `WORKLOADS[x]`.
fn phost_workloads<'a>(lab: &'a Lab, size: &Size) -> Option<Grid<'a>> {
    grid(
        lab,
        size,
        &PHOST_SCHEMES,
        |&(p, on_grant), _, x| {
            let mut s = with(&lab.scenario("websearch-leaf-spine"), p, f64::NAN);
            s.workload.sizes = SizeSpec::Cdf { name: Some(WORKLOADS[x as usize].0), points: None };
            s.params.fastpass.start_on_grant = on_grant;
            s
        },
        false,
    )
}

fn phost_near_pfabric(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = phost_workloads(lab, size)?;
    let r: Vec<f64> = (0..size.xs.len()).map(|x| g.mean(1, x, |s| s.all.mean_slowdown) / g.mean(0, x, |s| s.all.mean_slowdown)).collect();
    let names: Vec<&str> = size.xs.iter().map(|x| WORKLOADS[*x as usize].1).collect();
    let checks = names.iter().zip(&r).map(|(w, v)| Check::value(format!("{w}: pHost / pFabric mean slowdown"), *v, Bound::at_most(1.04).slack(0.05))).collect();
    let value = names.iter().zip(&r).map(|(w, v)| format!("{w} {}", fmt(*v))).collect::<Vec<_>>().join(", ");
    Some(Judged { value: format!("pHost/pFabric {value}"), checks, notes: Vec::new() })
}

fn phost_first_hop(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = phost_workloads(lab, size)?;
    let mut checks = Vec::new();
    let mut vals = Vec::new();
    for (xi, x) in size.xs.iter().enumerate() {
        let w = WORKLOADS[*x as usize].1;
        let ph: f64 = mean(g.at(1, xi).iter().map(|o| o.counters.data_dropped[0] as f64 / o.counters.data_sent.max(1) as f64));
        let pf: f64 = mean(g.at(0, xi).iter().map(|o| {
            let d = o.counters.data_dropped;
            let total: u64 = d.iter().sum();
            if total == 0 {
                1.0
            } else {
                (d[0] + d[3]) as f64 / total as f64
            }
        }));
        vals.push(format!("{w}: pHost {}, pFabric {}", fmt(ph), fmt(pf)));
        checks.push(Check::value(format!("{w}: pHost's first-hop drops / data packets sent"), ph, Bound::at_most(1e-4)));
        checks.push(Check::value(format!("{w}: share of pFabric's drops at the first and last hops"), pf, Bound::at_least(0.75)));
    }
    Some(Judged { value: vals.join("; "), checks, notes: Vec::new() })
}

fn fastpass_ratio(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = phost_workloads(lab, size)?;
    let mut checks = Vec::new();
    let (mut slot, mut grant) = (Vec::new(), Vec::new());
    for (xi, x) in size.xs.iter().enumerate() {
        let w = WORKLOADS[*x as usize].1;
        let ph = g.mean(1, xi, |s| s.all.mean_slowdown);
        let r = g.mean(2, xi, |s| s.all.mean_slowdown) / ph;
        slot.push(format!("{w} {}", fmt(r)));
        grant.push(format!("{w} {}", fmt(g.mean(3, xi, |s| s.all.mean_slowdown) / ph)));
        checks.push(Check::value(format!("{w}: Fastpass / pHost mean slowdown"), r, Bound::range(1.3, 4.0).slack(0.05)));
        let short = g.mean(2, xi, |s| s.short.mean_slowdown) / g.mean(1, xi, |s| s.short.mean_slowdown);
        checks.push(Check::order(format!("{w}: Fastpass / pHost mean slowdown of short flows"), short, Bound::above(1.0)));
    }
    Some(Judged {
        value: format!("Fastpass/pHost {}", slot.join(", ")),
        checks,
        notes: vec![format!("Fastpass sending as the grant arrives (`params.fastpass.start_on_grant`, the pHost authors' simulator): Fastpass/pHost {}", grant.join(", "))],
    })
}

/// Mean slowdown on the permutation matrix of pFabric, pHost, Fastpass.
fn permutation(lab: &Lab, size: &Size) -> Option<Vec<f64>> {
    let schemes = [P::Pfabric, P::Phost, P::Fastpass];
    let g = grid(lab, size, &schemes, |p, _, _| with(&lab.scenario("phost-permutation"), *p, f64::NAN), false)?;
    Some((0..3).map(|s| g.mean(s, 0, |s| s.all.mean_slowdown)).collect())
}

fn permutation_vs_fastpass(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = permutation(lab, size)?;
    Some(Judged {
        value: format!("pHost {}, Fastpass {}", fmt(m[1]), fmt(m[2])),
        checks: vec![Check::order("Fastpass / pHost mean slowdown", m[2] / m[1], Bound::above(1.0))],
        notes: Vec::new(),
    })
}

fn permutation_vs_pfabric(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = permutation(lab, size)?;
    Some(Judged {
        value: format!("pHost {}, pFabric {}", fmt(m[1]), fmt(m[0])),
        checks: vec![Check::order("pFabric / pHost mean slowdown", m[0] / m[1], Bound::above(1.0))],
        notes: Vec::new(),
    })
}

/// When the two tenants' shares are compared: the first 4 ms, while both
/// are backlogged (the test's window).
const TENANT_WINDOW_US: f64 = 4000.0;

fn tenant_fair(lab: &Lab, size: &Size) -> Option<Judged> {
    let schemes = [(P::Phost, "tenant_fair"), (P::Phost, "srpt"), (P::Pfabric, "srpt")];
    let mut jobs = Vec::new();
    for &(p, policy) in &schemes {
        for &seed in size.seeds {
            let mut s = lab.scenario("phost-two-tenants").with_field("params.phost.policy", policy.into()).expect("a pHost policy");
            s.protocol = p;
            s.seed = seed;
            if let Some(f) = size.flows_at(0) {
                s.workload.flows = f;
            }
            jobs.push(Job::new(s).until_us(TENANT_WINDOW_US));
        }
    }
    let out = lab.runs(jobs)?;
    let share = |o: &Outcome| o.tenant_bytes[0] as f64 / (o.tenant_bytes[0] + o.tenant_bytes[1]).max(1) as f64;
    let n = size.seeds.len();
    let m: Vec<f64> = (0..3).map(|i| mean(out[i * n..(i + 1) * n].iter().map(|o| share(o)))).collect();
    Some(Judged {
        value: format!("IMC10 tenant's share: tenant-fair pHost {}, SRPT pHost {}, pFabric {}", fmt(m[0]), fmt(m[1]), fmt(m[2])),
        checks: vec![
            Check::value("tenant-fair pHost: IMC10 tenant's share of bytes in the first 4 ms", m[0], Bound::range(0.45, 0.55)),
            Check::order("SRPT pHost: IMC10 tenant's share", m[1], Bound::above(0.5)),
            Check::order("pFabric: IMC10 tenant's share", m[2], Bound::above(0.5)),
            Check::value("SRPT pHost: IMC10 tenant's share", m[1], Bound::at_least(0.65)),
            Check::value("pFabric: IMC10 tenant's share", m[2], Bound::at_least(0.65)),
        ],
        notes: Vec::new(),
    })
}

// -------------------------------------------------------------------- PDQ

/// What runs on PDQ's query aggregation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scheme {
    Optimal,
    Pdq(&'static str),
    Base(ProtocolName),
}

impl Scheme {
    fn label(self) -> String {
        match self {
            Scheme::Optimal => "optimal".into(),
            Scheme::Pdq(v) => {
                // "full" -> "PDQ(Full)", as the paper names its variants.
                let mut c = v.chars();
                format!("PDQ({}{})", c.next().map_or(String::new(), |f| f.to_uppercase().collect()), c.as_str())
            }
            Scheme::Base(p) => p.as_str().to_uppercase(),
        }
    }
}

/// `base` under `scheme` (a PDQ variant keeps the scenario's buffers, RTT
/// and RTO, as `engine/core/tests/pdq.rs` does).
fn pdq_scheme(base: Scenario, scheme: Scheme) -> Scenario {
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

/// Query aggregation with `fanout` flows per query on PDQ's 12-server
/// tree, or (`own_senders`) beyond 11 flows on the same tree with 13 hosts
/// per ToR, so that every flow has its own sender (the setting of
/// `engine/core/tests/pdq.rs`).
fn query(lab: &Lab, scheme: Scheme, fanout: f64, own_senders: bool) -> Scenario {
    let mut s = lab.scenario("pdq-query-aggregation");
    s.workload.matrix = MatrixSpec::QueryAggregation { fanout: fanout as u32, queries: 20 };
    if own_senders && fanout > 11.0 {
        s = s.with_field("topology.branching", serde_json::json!([4, 13])).expect("a tree has branching");
    }
    pdq_scheme(s, scheme)
}

const PDQ_SCHEMES: [Scheme; 6] = [Scheme::Optimal, Scheme::Pdq("full"), Scheme::Pdq("basic"), Scheme::Base(P::D3), Scheme::Base(P::Rcp), Scheme::Base(P::Tcp)];

/// Deadlines met, mean over seeds: [scheme of PDQ_SCHEMES][point], on
/// the 12-server tree.
fn pdq_met(lab: &Lab, size: &Size) -> Option<Vec<Vec<f64>>> {
    pdq_met_on(lab, size, false)
}

/// [`pdq_met`], with every flow from its own sender when `own_senders`.
fn pdq_met_on(lab: &Lab, size: &Size, own_senders: bool) -> Option<Vec<Vec<f64>>> {
    let g = grid(lab, size, &PDQ_SCHEMES, |sc, _, x| query(lab, *sc, x, own_senders), false)?;
    Some((0..PDQ_SCHEMES.len()).map(|s| (0..size.xs.len()).map(|x| mean(g.at(s, x).iter().map(|o| o.deadlines_met()))).collect()).collect())
}

fn pdq_rows(size: &Size, m: &[Vec<f64>], which: &[usize]) -> Vec<String> {
    which.iter().map(|&i| format!("{} {}", PDQ_SCHEMES[i].label(), by_point(size.xs, &m[i]))).collect()
}

fn pdq_full_near_optimal(lab: &Lab, size: &Size) -> Option<Judged> {
    full_near_optimal(size, pdq_met(lab, size)?)
}

fn pdq_full_near_optimal_own_senders(lab: &Lab, size: &Size) -> Option<Judged> {
    full_near_optimal(size, pdq_met_on(lab, size, true)?)
}

fn full_near_optimal(size: &Size, m: Vec<Vec<f64>>) -> Option<Judged> {
    let gap: Vec<f64> = (0..size.xs.len()).map(|x| m[0][x] - m[1][x]).collect();
    let checks = size.xs.iter().zip(&gap).map(|(x, g)| Check::value(format!("{} flows per query: optimal minus PDQ(Full), deadlines met", fmt(*x)), *g, Bound::at_most(0.05))).collect();
    Some(Judged { value: format!("{} points below optimal", span(&gap.iter().map(|g| 100.0 * g).collect::<Vec<_>>())), checks, notes: pdq_rows(size, &m, &[0, 1]) })
}

fn pdq_baselines_below_full(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = pdq_met(lab, size)?;
    let mut checks = Vec::new();
    for b in 3..6 {
        let name = PDQ_SCHEMES[b].label();
        for (x, fx) in size.xs.iter().enumerate().filter(|(_, f)| **f >= 5.0) {
            checks.push(Check::order(format!("{} flows per query: PDQ(Full) minus {name}", fmt(*fx)), m[1][x] - m[b][x], Bound::above(0.0)));
        }
        let fall = m[b][0] - m[b][size.xs.len() - 1];
        let (a, z) = (fmt(size.xs[0]), fmt(size.xs[size.xs.len() - 1]));
        checks.push(Check::order(format!("{name} falls: at {a} minus at {z} flows per query"), fall, Bound::above(0.0)));
        checks.push(Check::value(format!("{name} falls by: at {a} minus at {z} flows per query"), fall, Bound::at_least(0.1)));
    }
    Some(Judged { value: format!("at {} flows: PDQ(Full) {}, D3 {}, RCP {}, TCP {}", fmt(*size.xs.last().unwrap()), fmt(*m[1].last().unwrap()), fmt(*m[3].last().unwrap()), fmt(*m[4].last().unwrap()), fmt(*m[5].last().unwrap())), checks, notes: pdq_rows(size, &m, &[1, 3, 4, 5]) })
}

fn pdq_early_termination(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = pdq_met(lab, size)?;
    let last = size.xs.len() - 1;
    let d = m[1][last] - m[2][last];
    let at = fmt(size.xs[last]);
    Some(Judged {
        value: format!("at {at} flows: PDQ(Full) {}, PDQ(Basic) {}", fmt(m[1][last]), fmt(m[2][last])),
        checks: vec![
            Check::order(format!("{at} flows per query: PDQ(Full) minus PDQ(Basic)"), d, Bound::above(0.0)),
            Check::value(format!("{at} flows per query: PDQ(Full) minus PDQ(Basic)"), d, Bound::at_least(0.1)),
        ],
        notes: pdq_rows(size, &m, &[1, 2]),
    })
}

fn pdq_basic_above_baselines(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = pdq_met(lab, size)?;
    let mut checks = Vec::new();
    for b in 3..6 {
        for (x, fx) in size.xs.iter().enumerate() {
            checks.push(Check::order(format!("{} flows per query: PDQ(Basic) minus {}", fmt(*fx), PDQ_SCHEMES[b].label()), m[2][x] - m[b][x], Bound::above(0.0)));
        }
    }
    let show = |i: usize| format!("{} {}", PDQ_SCHEMES[i].label(), m[i].iter().map(|v| fmt(*v)).collect::<Vec<_>>().join("/"));
    Some(Judged { value: format!("at {} flows: {}", size.xs.iter().map(|x| fmt(*x)).collect::<Vec<_>>().join("/"), [2, 3, 4, 5].map(show).join(", ")), checks, notes: Vec::new() })
}

fn pdq_flow_sizes(lab: &Lab, size: &Size) -> Option<Judged> {
    let schemes = [Scheme::Optimal, Scheme::Pdq("full"), Scheme::Base(P::D3), Scheme::Base(P::Rcp), Scheme::Base(P::Tcp)];
    let g = grid(
        lab,
        size,
        &schemes,
        |sc, _, kb| {
            let mut s = lab.scenario("pdq-query-aggregation-1000kb");
            let mean = (kb * 1000.0) as u64;
            s.workload.sizes = SizeSpec::Uniform { min_bytes: mean / 50, max_bytes: 2 * mean - mean / 50 };
            pdq_scheme(s, *sc)
        },
        false,
    )?;
    let m: Vec<Vec<f64>> = (0..schemes.len()).map(|s| (0..size.xs.len()).map(|x| mean(g.at(s, x).iter().map(|o| o.deadlines_met()))).collect()).collect();
    let mut checks = Vec::new();
    for (x, kb) in size.xs.iter().enumerate() {
        checks.push(Check::value(format!("mean {} KB: optimal minus PDQ(Full)", fmt(*kb)), m[0][x] - m[1][x], Bound::at_most(0.05)));
        if *kb > 100.0 {
            for b in 2..5 {
                checks.push(Check::order(format!("mean {} KB: PDQ(Full) minus {}", fmt(*kb), schemes[b].label()), m[1][x] - m[b][x], Bound::above(0.0)));
            }
        }
    }
    let notes = (0..schemes.len()).map(|i| format!("{} {}", schemes[i].label(), by_point(size.xs, &m[i]))).collect();
    let gap: Vec<f64> = (0..size.xs.len()).map(|x| 100.0 * (m[0][x] - m[1][x])).collect();
    Some(Judged { value: format!("PDQ(Full) {} points below optimal", span(&gap)), checks, notes })
}

// ------------------------------------------------------------------- PASE

/// The PASE testbed at load `x` under `p`.
fn testbed(lab: &Lab, p: ProtocolName, x: f64) -> Scenario {
    with(&lab.scenario("pase-testbed"), p, x)
}

fn pase_testbed_afct(lab: &Lab, size: &Size) -> Option<Judged> {
    let g = grid(lab, size, &[P::Pase, P::Dctcp], |p, _, x| testbed(lab, *p, x), false)?;
    let r: Vec<f64> = (0..size.xs.len()).map(|x| g.mean(0, x, |s| s.all.afct_us) / g.mean(1, x, |s| s.all.afct_us)).collect();
    let mut checks: Vec<Check> = size.xs.iter().zip(&r).map(|(x, v)| Check::order(format!("load {}: PASE / DCTCP AFCT", fmt(*x)), *v, Bound::at_most(1.0))).collect();
    checks.extend(size.xs.iter().zip(&r).map(|(x, v)| Check::value(format!("load {}: PASE / DCTCP AFCT", fmt(*x)), *v, Bound::range(0.4, 0.5).slack(0.05))));
    let below: Vec<f64> = r.iter().map(|v| 100.0 * (1.0 - v)).collect();
    Some(Judged { value: format!("PASE/DCTCP AFCT {} ({}% below)", span(&r), span(&below)), checks, notes: vec![format!("PASE / DCTCP AFCT by load: {}", by_point(size.xs, &r))] })
}

/// AFCT and arbitration messages on the left-right tree, optimizations
/// (early pruning and delegation) on and off: [on, off][point] of
/// (AFCT us, messages summed over seeds).
fn left_right(lab: &Lab, size: &Size) -> Option<[Vec<(f64, f64)>; 2]> {
    let g = grid(
        lab,
        size,
        &[true, false],
        |on, _, x| {
            let mut s = with(&lab.scenario("pase-left-right"), P::Pase, x);
            s.params.pase.early_pruning = *on;
            s.params.pase.delegation = *on;
            s
        },
        false,
    )?;
    let at = |s: usize| (0..size.xs.len()).map(|x| (g.mean(s, x, |s| s.all.afct_us), g.at(s, x).iter().map(|o| o.arbitration_messages.unwrap_or(0) as f64).sum())).collect();
    Some([at(0), at(1)])
}

fn pase_messages(lab: &Lab, size: &Size) -> Option<Judged> {
    let [on, off] = left_right(lab, size)?;
    let saved: Vec<f64> = on.iter().zip(&off).map(|(a, b)| 1.0 - a.1 / b.1).collect();
    let mut checks: Vec<Check> = size.xs.iter().zip(&saved).map(|(x, s)| Check::order(format!("load {}: messages saved by the optimizations (fraction)", fmt(*x)), *s, Bound::above(0.0))).collect();
    let last = saved.len() - 1;
    checks.push(Check::value(format!("load {} (highest): messages saved (fraction)", fmt(size.xs[last])), saved[last], Bound::at_least(0.25)));
    Some(Judged {
        value: format!("{}% fewer messages", span(&saved.iter().map(|s| 100.0 * s).collect::<Vec<_>>())),
        checks,
        notes: vec![format!("messages with / without the optimizations by load: {}", size.xs.iter().zip(on.iter().zip(&off)).map(|(x, (a, b))| format!("{}: {} / {}", fmt(*x), fmt(a.1), fmt(b.1))).collect::<Vec<_>>().join(", "))],
    })
}

fn pase_optimizations_afct(lab: &Lab, size: &Size) -> Option<Judged> {
    let [on, off] = left_right(lab, size)?;
    let gain: Vec<f64> = on.iter().zip(&off).map(|(a, b)| b.0 / a.0 - 1.0).collect();
    let mut checks: Vec<Check> = size.xs.iter().zip(&gain).map(|(x, g)| Check::order(format!("load {}: AFCT without / with the optimizations, minus 1", fmt(*x)), *g, Bound::at_least(0.0))).collect();
    checks.extend(size.xs.iter().zip(&gain).map(|(x, g)| Check::value(format!("load {}: AFCT gain from the optimizations", fmt(*x)), *g, Bound::range(0.04, 0.10))));
    Some(Judged {
        value: format!("AFCT {}% lower with them (negative: higher)", span(&gain.iter().map(|g| 100.0 * g).collect::<Vec<_>>())),
        checks,
        notes: vec![format!("AFCT (us) with / without by load: {}", size.xs.iter().zip(on.iter().zip(&off)).map(|(x, (a, b))| format!("{}: {} / {}", fmt(*x), fmt(a.0), fmt(b.0))).collect::<Vec<_>>().join(", "))],
    })
}

/// PASE's AFCT on the testbed with 8, 4 and 1 queues: [queues][point].
fn pase_queues(lab: &Lab, size: &Size) -> Option<Vec<Vec<f64>>> {
    let queues = [8u32, 4, 1];
    let g = grid(
        lab,
        size,
        &queues,
        |q, _, x| {
            let mut s = testbed(lab, P::Pase, x);
            s.params.pase.queues = *q;
            s.params.pase.pruning_queues = s.params.pase.pruning_queues.min(*q);
            s
        },
        false,
    )?;
    Some((0..3).map(|q| (0..size.xs.len()).map(|x| g.mean(q, x, |s| s.all.afct_us)).collect()).collect())
}

fn pase_four_queues(lab: &Lab, size: &Size) -> Option<Judged> {
    let a = pase_queues(lab, size)?;
    let r: Vec<f64> = a[1].iter().zip(&a[0]).map(|(four, eight)| four / eight).collect();
    let checks = size.xs.iter().zip(&r).map(|(x, v)| Check::value(format!("load {}: AFCT with 4 queues / with 8", fmt(*x)), *v, Bound::range(0.9, 1.1))).collect();
    Some(Judged { value: format!("4/8 queues AFCT {}", span(&r)), checks, notes: vec![format!("AFCT 4 / 8 queues by load: {}", by_point(size.xs, &r))] })
}

fn pase_one_queue(lab: &Lab, size: &Size) -> Option<Judged> {
    let a = pase_queues(lab, size)?;
    let last = size.xs.len() - 1;
    let r = a[2][last] / a[0][last];
    let at = fmt(size.xs[last]);
    Some(Judged {
        value: format!("1/8 queues AFCT {} at load {at}", fmt(r)),
        checks: vec![Check::order(format!("load {at}: AFCT with 1 queue / with 8"), r, Bound::above(1.0)), Check::value(format!("load {at}: AFCT with 1 queue / with 8"), r, Bound::at_least(1.2))],
        notes: Vec::new(),
    })
}

// ----------------------------------------------------------- D2TCP, L2DCT

const DEADLINE_SCHEMES: [ProtocolName; 4] = [P::Dctcp, P::D2tcp, P::L2dct, P::Pfabric];

/// Deadlines met on the deadline scenario, mean over seeds: [scheme][point].
fn deadlines(lab: &Lab, size: &Size) -> Option<Vec<Vec<f64>>> {
    let g = grid(lab, size, &DEADLINE_SCHEMES, |p, _, x| with(&lab.scenario("d2tcp-deadlines"), *p, x), false)?;
    Some((0..4).map(|s| (0..size.xs.len()).map(|x| mean(g.at(s, x).iter().map(|o| o.deadlines_met()))).collect()).collect())
}

fn deadline_notes(size: &Size, m: &[Vec<f64>]) -> Vec<String> {
    DEADLINE_SCHEMES.iter().zip(m).map(|(p, v)| format!("{} deadlines met by load: {}", p.as_str(), by_point(size.xs, v))).collect()
}

fn d2tcp_low_load(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = deadlines(lab, size)?;
    let checks = size.xs.iter().enumerate().map(|(x, l)| Check::order(format!("load {}: D2TCP minus DCTCP, deadlines met", fmt(*l)), m[1][x] - m[0][x], Bound::at_least(0.0))).collect();
    Some(Judged { value: format!("D2TCP {}, DCTCP {}", m[1].iter().map(|v| fmt(*v)).collect::<Vec<_>>().join("/"), m[0].iter().map(|v| fmt(*v)).collect::<Vec<_>>().join("/")), checks, notes: deadline_notes(size, &m) })
}

fn d2tcp_high_load(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = deadlines(lab, size)?;
    let d: Vec<f64> = (0..size.xs.len()).map(|x| (m[1][x] - m[0][x]).abs()).collect();
    let checks = size.xs.iter().zip(&d).map(|(l, v)| Check::value(format!("load {}: |D2TCP minus DCTCP|, deadlines met", fmt(*l)), *v, Bound::at_most(0.02))).collect();
    Some(Judged { value: format!("D2TCP and DCTCP {} apart", span(&d)), checks, notes: deadline_notes(size, &m) })
}

fn pfabric_most_deadlines(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = deadlines(lab, size)?;
    let d: Vec<f64> = (0..size.xs.len()).map(|x| m[3][x] - m[0][x].max(m[1][x]).max(m[2][x])).collect();
    let checks = size.xs.iter().zip(&d).map(|(l, v)| Check::order(format!("load {}: pFabric minus the best of DCTCP, D2TCP, L2DCT", fmt(*l)), *v, Bound::at_least(0.0))).collect();
    Some(Judged { value: format!("pFabric ahead by {}", span(&d)), checks, notes: deadline_notes(size, &m) })
}

fn l2dct_vs_d2tcp(lab: &Lab, size: &Size) -> Option<Judged> {
    let m = deadlines(lab, size)?;
    let d: Vec<f64> = (0..size.xs.len()).map(|x| m[2][x] - m[1][x]).collect();
    let checks = size.xs.iter().zip(&d).map(|(l, v)| Check::order(format!("load {}: L2DCT minus D2TCP, deadlines met", fmt(*l)), *v, Bound::at_least(0.0))).collect();
    Some(Judged { value: format!("L2DCT ahead by {}", span(&d)), checks, notes: deadline_notes(size, &m) })
}

// --------------------------------------------------------------- registry

/// The deviations of every run on the pHost paper's default leaf-spine.
const FASTPASS_READING: &str = "Fastpass sends at its granted slot's start (the Fastpass paper); the pHost authors' simulator starts on the grant (shown in the notes of phost-fastpass-1.3-4x; the test in engine/core/tests/paper_phost.rs takes the two readings as brackets)";
const FASTPASS_EPOCHS: &str = "Fastpass epochs of 8 slots plus half a slot of guard (the pHost authors' simulator), zero arbiter processing, no clock skew";
const LEAF_SPINE_CHOICES: &str = "the 144-host leaf-spine as the pHost authors' simulator runs it: 200 ns per link, cut-through in which each port sends at its own rate once the header is in (issue 21), per-packet round-robin spraying";
/// pFabric's own fabric timing against the scenario's.
const PFABRIC_RTT: &str = "link timing of the pHost paper (a base RTT of a few microseconds), not pFabric's own 14.6 us round trip (10 us of it in the hosts), for which its initCwnd 12 (one BDP) and 45 us RTO (about 3 RTTs) were set; claim pfabric-near-ideal-paper-rtt runs the paper's round trip";
const PFABRIC_MAX_CWND: &str = "pFabric's largest window 15 packets (`max_cwnd`, the pHost authors' pFabric configuration; the paper leaves it open)";
const PHOST_CHOICES: &str = "pHost's downgrade time 25 and receiver timeout 9 MTU-times (the authors' experiment scripts; PROTOCOLS.md reads 8 and 24), tokens paced at 1540 B, free tokens for every flow and never expiring";
const PDQ_CHOICES: &str = "PDQ's seven choices where the paper is open (engine/ARCHITECTURE.md, \"PDQ and D3\"), all on; RTOs 1 ms and the RTT settings of PDQ, RCP and D3 200 us (the tree's round trip exceeds 200 us; pFabric Table 1's values are for a 10 Gbps fabric); 20 queries per run";
const PDQ_MANY_FLOWS: &str = "beyond 11 flows per query every other server sends several flows (12 servers): `workload.matrix.fanout` spreads them evenly";
const PASE_TESTBED: &str = "the long-lived flow runs from client 0 (which client is the scenario's choice); 750 us minimum RTO (about 3 RTTs) for the window transports; DCTCP's initial alpha 1 (RFC 8257 and Linux; the paper gives none)";
const PASE_CHOICES: &str = "PASE's choices where the paper is open (engine/ARCHITECTURE.md, \"PASE's parts\"): queue numbering floor(ADH / C), demand the line rate, update period 1 RTT, expiry 3 updates, pruning depth 2, delegation every 4 RTTs with reserve 0.5";
const LEFT_RIGHT: &str = "the tree (a core, 2 aggregation switches, 2 ToRs each, 10 hosts per ToR; 1 Gbps hosts, 10 Gbps above; 10 us per link) is the scenario's choice: the paper's exact inter-rack topology could not be confirmed";
const DEADLINE_SETTING: &str = "PASE's testbed rack (10 hosts, 1 Gbps, 250 us RTT) with D2TCP's flows and deadlines; pFabric Table 1 rescaled to that RTT by its own rules (initCwnd 21, max 26, queue 63 KB, RTO 750 us; DCTCP, D2TCP, L2DCT minimum RTO 750 us); two long-lived background flows, host 0 to 8 and 1 to 9 (the papers do not say which hosts)";
const L2DCT_THRESHOLDS: &str = "L2DCT's bytes-sent thresholds (full weight up to 200 segments, the least from 1000) from the ns-3 port; D2TCP's B is the bytes never sent and d = 0.5 past the deadline (the ns-3 port's choices)";

const ONE_RUN: Size = Size { flows: &[], seeds: &[1], xs: &[] };
const PAPER_SIZE_UNKNOWN: &str = "not known here";
const PDQ_PAPER_SIZE: &str = "the paper's 12-server tree; its number of queries is not known here";
const WORKLOAD_AXIS: &str = "workloads (0 web search, 1 data mining, 2 IMC10)";
const ALL_LOADS: &[f64] = &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];

/// A setting of one run of one scenario.
const fn single(scenario: &'static [&'static str], paper_size: &'static str, deviations: &'static [&'static str]) -> Setting {
    Setting { scenarios: scenario, axis: "", quick: ONE_RUN, full: ONE_RUN, paper_size, deviations }
}

const SEAMLESS: Setting = single(&["pfabric-seamless-switching"], "the same 5 flows", &["20 MB counted on the wire (13,334 packets of 1500 B), how the paper's 80 ms comes out"]);

/// The incast request over `quick` and `full` numbers of senders.
const fn incast_setting(quick: &'static [f64], full: &'static [f64]) -> Setting {
    Setting {
        scenarios: &["incast-one-request"],
        axis: "senders",
        quick: Size { flows: &[], seeds: &[1], xs: quick },
        full: Size { flows: &[], seeds: &[1], xs: full },
        paper_size: "one request of 100 MB over 5 to 50 senders, as here",
        deviations: &["100 MB counted on the wire (66,667 packets of 1500 B)", "store-and-forward switches (the scenario's choice)"],
    }
}

const PROBE: Setting = single(&["pfabric-probe-mode"], "50 flows, as here", &["probe mode after 5 consecutive timeouts (the paper says \"several\")"]);

const WEBSEARCH: Setting = Setting {
    scenarios: &["websearch-leaf-spine"],
    axis: "loads",
    quick: Size { flows: &[2000], seeds: &[1], xs: &[0.1, 0.5, 0.8] },
    full: Size { flows: &[10_000], seeds: &[1, 2], xs: ALL_LOADS },
    paper_size: "loads 0.1 to 0.8; the paper's number of flows per run is not known here",
    deviations: &[LEAF_SPINE_CHOICES, PFABRIC_RTT, PFABRIC_MAX_CWND],
};

const WEBSEARCH_PAPER_RTT: Setting = Setting {
    quick: Size { flows: &[2000], seeds: &[1], xs: &[0.8] },
    full: Size { flows: &[10_000], seeds: &[1], xs: ALL_LOADS },
    deviations: &[
        "the paper's 10 us in the hosts spread over the links: 1.65 us per link (`topology.propagation_ns` 1650), so a full packet and its ACK take about 14.6 us across the spine; dcsim has no host delay",
        "cut-through and spraying as the pHost authors' simulator (issue 21)",
        PFABRIC_MAX_CWND,
    ],
    ..WEBSEARCH
};

const PDQ_ONE_PACKET: Setting = Setting {
    quick: Size { flows: &[], seeds: &[1, 2, 3, 4, 5], xs: &[] },
    full: Size { flows: &[], seeds: &[1, 2, 3, 4, 5], xs: &[] },
    ..single(&["pdq-query-aggregation"], "not a measured setting: a property of the handshake", &["one 1000-B flow alone on PDQ's 12-server tree (any path; the seed picks it)"])
};

const PHOST_WORKLOADS: Setting = Setting {
    scenarios: &["websearch-leaf-spine"],
    axis: WORKLOAD_AXIS,
    quick: Size { flows: &[3000, 1500, 6000], seeds: &[1], xs: &[0.0, 1.0, 2.0] },
    full: Size { flows: &[10_000], seeds: &[1], xs: &[0.0, 1.0, 2.0] },
    paper_size: "not known here (10,000 flows is the scenarios' default)",
    deviations: &[LEAF_SPINE_CHOICES, PHOST_CHOICES, PFABRIC_MAX_CWND, FASTPASS_READING, FASTPASS_EPOCHS],
};

const PERMUTATION: Setting = Setting {
    scenarios: &["phost-permutation"],
    axis: "",
    quick: Size { flows: &[3000], seeds: &[1], xs: &[] },
    full: Size { flows: &[30_000], seeds: &[1], xs: &[] },
    paper_size: PAPER_SIZE_UNKNOWN,
    deviations: &[LEAF_SPINE_CHOICES, PHOST_CHOICES, PFABRIC_MAX_CWND, FASTPASS_READING, "web search sizes at load 0.6"],
};

const TENANTS: Setting = Setting {
    quick: Size { flows: &[20_000], seeds: &[1], xs: &[] },
    full: Size { flows: &[20_000], seeds: &[1, 2, 3], xs: &[] },
    ..single(&["phost-two-tenants"], PAPER_SIZE_UNKNOWN, &[LEAF_SPINE_CHOICES, "every flow injected at time zero (20,000: about 14 web search flows per host); the share is of the bytes delivered in the first 4 ms, while both tenants are backlogged"])
};

/// Query aggregation at `quick` and `full` flows per query, seeds 1 to 3.
const fn queries(quick: &'static [f64], full: &'static [f64], deviations: &'static [&'static str]) -> Setting {
    Setting {
        scenarios: &["pdq-query-aggregation"],
        axis: "flows per query",
        quick: Size { flows: &[], seeds: &[1, 2, 3], xs: quick },
        full: Size { flows: &[], seeds: &[1, 2, 3], xs: full },
        paper_size: PDQ_PAPER_SIZE,
        deviations,
    }
}

const PDQ_FANOUTS: &[f64] = &[2.0, 5.0, 8.0, 11.0, 25.0, 50.0];
const PDQ_QUERIES: Setting = queries(&[5.0, 25.0, 50.0], PDQ_FANOUTS, &[PDQ_CHOICES, PDQ_MANY_FLOWS]);
const PDQ_OWN_SENDERS: Setting = queries(
    &[25.0, 50.0],
    PDQ_FANOUTS,
    &[PDQ_CHOICES, "beyond 11 flows per query, 13 hosts per ToR instead of 3 (52 servers instead of the paper's 12), so that no server sends two flows of a query: the setting of engine/core/tests/pdq.rs"],
);
const PDQ_MANY: Setting = queries(&[25.0, 50.0], &[25.0, 50.0], &[PDQ_CHOICES, PDQ_MANY_FLOWS]);
const PDQ_SIZES: Setting = Setting {
    scenarios: &["pdq-query-aggregation-1000kb"],
    axis: "mean flow size (KB)",
    quick: Size { flows: &[], seeds: &[1, 2, 3], xs: &[100.0, 1000.0] },
    full: Size { flows: &[], seeds: &[1, 2, 3], xs: &[100.0, 400.0, 700.0, 1000.0] },
    paper_size: PDQ_PAPER_SIZE,
    deviations: &[PDQ_CHOICES, "sizes uniform in [mean / 50, 2 mean - mean / 50]"],
};

const PASE_AFCT: Setting = Setting {
    scenarios: &["pase-testbed"],
    axis: "loads",
    quick: Size { flows: &[1000], seeds: &[1], xs: &[0.1, 0.5, 0.9] },
    full: Size { flows: &[1000], seeds: &[1, 2, 3], xs: &[0.1, 0.3, 0.5, 0.7, 0.9] },
    paper_size: "1,000 flows per load, as here; the paper's exact loads are not known here",
    deviations: &[PASE_TESTBED, PASE_CHOICES],
};

const PASE_LEFT_RIGHT: Setting = Setting {
    scenarios: &["pase-left-right"],
    axis: "loads",
    quick: Size { flows: &[1500], seeds: &[1], xs: &[0.2, 0.45] },
    full: Size { flows: &[1500], seeds: &[1, 2], xs: &[0.2, 0.3, 0.4, 0.45] },
    paper_size: PAPER_SIZE_UNKNOWN,
    deviations: &[LEFT_RIGHT, PASE_CHOICES],
};

const PASE_QUEUES: Setting = Setting {
    quick: Size { flows: &[1500], seeds: &[1], xs: &[0.5, 0.9] },
    full: Size { flows: &[1500], seeds: &[1, 2], xs: &[0.1, 0.3, 0.5, 0.7, 0.9] },
    paper_size: PAPER_SIZE_UNKNOWN,
    deviations: &[PASE_TESTBED, PASE_CHOICES, "the lowest queue holds one packet (`lowest_queue_grows` off; PROTOCOLS.md's reading)"],
    ..PASE_AFCT
};

/// The deadline scenario at `loads`, 5,000 flows; seeds 1 to 3 in full,
/// `quick_seeds` in quick.
const fn deadline_setting(loads: &'static [f64], quick_seeds: &'static [u64]) -> Setting {
    Setting {
        scenarios: &["d2tcp-deadlines"],
        axis: "loads",
        quick: Size { flows: &[5000], seeds: quick_seeds, xs: loads },
        full: Size { flows: &[5000], seeds: &[1, 2, 3], xs: loads },
        paper_size: PAPER_SIZE_UNKNOWN,
        deviations: &[DEADLINE_SETTING, L2DCT_THRESHOLDS],
    }
}

/// Every claim, in report order.
pub fn registry() -> Vec<Claim> {
    vec![
        Claim {
            id: "pfabric-seamless-switching",
            paper: Paper::PFabric,
            source: "section 5 (seamless switching)",
            statement: "5 flows of 20 MB start together towards one 10 Gbps port; pFabric serves them one after another at line rate, so each ends one flow-time (16 ms) after the previous and the last at 80.15 ms",
            paper_value: "last at 80.15 ms",
            tolerance: "last within 0.5% of 80 ms, each gap within 2% of 16 ms (engine/core/tests/paper_pfabric.rs)",
            setting: SEAMLESS,
            pending: &[],
            measure: seamless,
        },
        Claim {
            id: "pfabric-incast-81ms",
            paper: Paper::PFabric,
            source: "section 5, Figure 6 (incast)",
            statement: "a 100 MB request striped over 50 senders to one receiver completes in 81.1 ms under pFabric (80 ms is the receiver link's minimum)",
            paper_value: "81.1 ms",
            tolerance: "within 3% (web/src/gallery/published.ts)",
            setting: incast_setting(&[50.0], &[50.0]),
            pending: &[],
            measure: incast_81ms,
        },
        Claim {
            id: "pfabric-incast-near-ideal",
            paper: Paper::PFabric,
            source: "section 5, Figure 6 (incast)",
            statement: "pFabric and DCTCP keep the bottleneck busy with the request: completion within 3% of the 80 ms ideal for 5 to 50 senders",
            paper_value: "close to 80 ms (81.1 ms for pFabric at 50)",
            tolerance: "in [80, 82.4] ms (engine/core/tests/paper_pfabric.rs)",
            setting: incast_setting(&[5.0, 20.0, 50.0], &[5.0, 10.0, 20.0, 30.0, 40.0, 50.0]),
            pending: &[],
            measure: incast_near_ideal,
        },
        Claim {
            id: "pfabric-probe-mode",
            paper: Paper::PFabric,
            source: "section 5, Figure 5(b)",
            statement: "with 50 long flows on one 10 Gbps port, probe mode keeps the loss rate low where it would be high without it",
            paper_value: "loss 5.5% with probe mode, 38.5% without",
            tolerance: "below 10% with, above 30% without (engine/core/tests/paper_pfabric.rs)",
            setting: PROBE,
            pending: &[],
            measure: probe_mode,
        },
        Claim {
            id: "pfabric-websearch-ordering",
            paper: Paper::PFabric,
            source: "section 5, Figure 8",
            statement: "web search on the leaf-spine: Ideal <= pFabric < DCTCP < TCP-DropTail in mean normalized FCT at every load",
            paper_value: "Ideal <= pFabric < DCTCP < TCP",
            tolerance: "orderings, no slack",
            setting: WEBSEARCH,
            pending: &[],
            measure: websearch_order,
        },
        Claim {
            id: "pfabric-near-ideal",
            paper: Paper::PFabric,
            source: "section 5, Figure 8 and its discussion",
            statement: "web search: pFabric's mean normalized FCT (each flow's FCT over its best possible FCT, averaged over all flows: dcsim's mean slowdown) is within 0.7% to 17.8% of Ideal's at every load from 0.1 to 0.8",
            paper_value: "1.007 to 1.178 times Ideal",
            tolerance: "5% past the range (web/src/gallery/published.ts)",
            setting: WEBSEARCH,
            pending: &[],
            measure: near_ideal,
        },
        Claim {
            id: "pfabric-near-ideal-paper-rtt",
            paper: Paper::PFabric,
            source: "section 5, Figure 8 and its discussion",
            statement: "the same claim on a fabric with the pFabric paper's own 14.6 us round trip across the spine",
            paper_value: "1.007 to 1.178 times Ideal",
            tolerance: "5% past the range (web/src/gallery/published.ts)",
            setting: WEBSEARCH_PAPER_RTT,
            pending: &[],
            measure: near_ideal_paper_rtt,
        },
        Claim {
            id: "pdq-one-packet-two-rtts",
            paper: Paper::PFabric,
            source: "section 5 (on PDQ)",
            statement: "PDQ's flows start with a SYN round trip, so a one-packet flow's normalized FCT is at least 2",
            paper_value: "at least 2",
            tolerance: "at least 2, no slack (engine/core/tests/pdq.rs)",
            setting: PDQ_ONE_PACKET,
            pending: &[],
            measure: pdq_one_packet,
        },
        Claim {
            id: "phost-near-pfabric",
            paper: Paper::PHost,
            source: "section 4.2, Figure 3; abstract",
            statement: "at load 0.6 on the leaf-spine pHost's mean slowdown is within 4% of pFabric's for web search, data mining and IMC10 (the abstract: \"for typical conditions\"; the tests allow 10%)",
            paper_value: "within 4%",
            tolerance: "pHost / pFabric at most 1.04, 5% slack (web/src/gallery/published.ts); engine/core/tests/paper_phost.rs allows 1.10",
            setting: PHOST_WORKLOADS,
            pending: &[],
            measure: phost_near_pfabric,
        },
        Claim {
            id: "phost-first-hop-drops",
            paper: Paper::PHost,
            source: "section 4.2 (drops)",
            statement: "pHost paces its sources and drops almost nothing at the first hop, where pFabric's drops are at the first hop (61%) and the last (39%)",
            paper_value: "pHost: almost none at the first hop; pFabric: all at the first and last hops",
            tolerance: "pHost below 0.01% of its data packets; at least 75% of pFabric's at those hops (spraying also fills ToR uplinks now and then; engine/core/tests/paper_phost.rs)",
            setting: PHOST_WORKLOADS,
            pending: &[],
            measure: phost_first_hop,
        },
        Claim {
            id: "phost-fastpass-1.3-4x",
            paper: Paper::PHost,
            source: "section 4.2, Figure 3; abstract (3.8x)",
            statement: "Fastpass's mean slowdown is 1.3 to 4 times pHost's, most of it on short flows, which wait for an epoch and a round trip",
            paper_value: "1.3 to 4 times",
            tolerance: "5% past the range (web/src/gallery/published.ts); short flows slower than pHost's",
            setting: PHOST_WORKLOADS,
            pending: &[],
            measure: fastpass_ratio,
        },
        Claim {
            id: "phost-permutation-vs-fastpass",
            paper: Paper::PHost,
            source: "section 4.2 (permutation traffic matrix)",
            statement: "on a permutation matrix (each host sends to one fixed other host) pHost's mean slowdown is below Fastpass's",
            paper_value: "pHost below Fastpass",
            tolerance: "ordering, no slack",
            setting: PERMUTATION,
            pending: &[],
            measure: permutation_vs_fastpass,
        },
        Claim {
            id: "phost-permutation-vs-pfabric",
            paper: Paper::PHost,
            source: "section 4.2 (permutation traffic matrix)",
            statement: "on a permutation matrix pHost's mean slowdown is below pFabric's",
            paper_value: "pHost below pFabric",
            tolerance: "ordering, no slack",
            setting: PERMUTATION,
            pending: &[],
            measure: permutation_vs_pfabric,
        },
        Claim {
            id: "phost-tenant-fair",
            paper: Paper::PHost,
            source: "section 4.3, Figure 9",
            statement: "with an IMC10 tenant and a web search tenant bringing the same bytes, tenant-fair pHost gives each about half the throughput while both have data; SRPT (pFabric, or pHost's SRPT policy) favours the IMC10 tenant's smaller flows",
            paper_value: "about half each under tenant-fair pHost",
            tolerance: "IMC10's share within 10% of half; above 0.5 and at least 0.65 under SRPT (engine/core/tests/paper_phost.rs)",
            setting: TENANTS,
            pending: &[],
            measure: tenant_fair,
        },
        Claim {
            id: "pdq-full-near-optimal",
            paper: Paper::Pdq,
            source: "section 5.2, Figure 3(a)",
            statement: "on deadline-constrained query aggregation PDQ(Full) stays close to the optimal scheduler as flows per query grow",
            paper_value: "close to optimal",
            tolerance: "at most 5 points of deadlines met below optimal (engine/core/tests/pdq.rs)",
            setting: PDQ_QUERIES,
            pending: &[],
            measure: pdq_full_near_optimal,
        },
        Claim {
            id: "pdq-full-near-optimal-52-servers",
            paper: Paper::Pdq,
            source: "section 5.2, Figure 3(a)",
            statement: "the same claim with every flow of a query from its own sender: beyond 11 flows per query the tree gets 13 hosts per ToR (52 servers)",
            paper_value: "close to optimal",
            tolerance: "at most 5 points of deadlines met below optimal (engine/core/tests/pdq.rs)",
            setting: PDQ_OWN_SENDERS,
            pending: &[],
            measure: pdq_full_near_optimal_own_senders,
        },
        Claim {
            id: "pdq-baselines-below-full",
            paper: Paper::Pdq,
            source: "section 5.2, Figure 3(a)",
            statement: "D3, RCP and TCP meet fewer deadlines than PDQ(Full) from 5 flows per query on, and fewer as flows per query grow",
            paper_value: "D3, RCP, TCP below PDQ, falling",
            tolerance: "orderings; a fall of at least 10 points from the fewest to the most flows (engine/core/tests/pdq.rs)",
            setting: PDQ_QUERIES,
            pending: &[],
            measure: pdq_baselines_below_full,
        },
        Claim {
            id: "pdq-early-termination-helps",
            paper: Paper::Pdq,
            source: "section 5.2, Figure 3(a)",
            statement: "with many flows per query PDQ(Full) meets clearly more deadlines than PDQ(Basic): Early Termination stops serving flows that would miss anyway",
            paper_value: "PDQ(Full) above PDQ(Basic)",
            tolerance: "at least 10 points at the most flows per query (engine/core/tests/pdq.rs)",
            setting: PDQ_QUERIES,
            pending: &[],
            measure: pdq_early_termination,
        },
        Claim {
            id: "pdq-basic-above-baselines",
            paper: Paper::Pdq,
            source: "section 5.2, Figure 3(a)",
            statement: "even PDQ(Basic), without Early Start, Early Termination or Suppressed Probing, meets more deadlines than D3, RCP and TCP at 25 and 50 flows per query",
            paper_value: "PDQ(Basic) above D3, RCP, TCP",
            tolerance: "orderings, no slack",
            setting: PDQ_MANY,
            // The paper's applications abandon a late flow: every scheme
            // gives it up at its deadline (`workload.abort_at_deadline`).
            pending: &[Pending { path: "workload.abort_at_deadline", value: "true", why: "a flow past its deadline stops under every scheme, as the paper's applications abandon it; without it PDQ(Basic) keeps serving late flows while D3 quenches them" }],
            measure: pdq_basic_above_baselines,
        },
        Claim {
            id: "pdq-flow-sizes",
            paper: Paper::Pdq,
            source: "section 5.2 (flow size varied at 3 flows per query)",
            statement: "with 3 flows per query and mean flow sizes from 100 KB to 1 MB, PDQ(Full) stays close to optimal and D3, RCP and TCP meet fewer deadlines than it once flows are large",
            paper_value: "PDQ close to optimal; D3, RCP, TCP below PDQ",
            tolerance: "at most 5 points below optimal; orderings above 100 KB (engine/core/tests/pdq.rs)",
            setting: PDQ_SIZES,
            pending: &[],
            measure: pdq_flow_sizes,
        },
        Claim {
            id: "pase-testbed-afct",
            paper: Paper::Pase,
            source: "section 5 (testbed)",
            statement: "on the testbed (nine clients send to one server over a 1 Gbps rack with one long-lived flow) PASE's AFCT is about 50% to 60% below DCTCP's",
            paper_value: "about 50% to 60% below",
            tolerance: "PASE / DCTCP in [0.4, 0.5], 5% slack (web/src/gallery/published.ts); engine/core/tests/pase.rs allows [0.35, 0.55]",
            setting: PASE_AFCT,
            pending: &[],
            measure: pase_testbed_afct,
        },
        // The claim depends on how DCTCP's end hosts behave (issue 18): the
        // same claim under the other two DCTCP profiles.
        Claim {
            id: "pase-testbed-afct-dctcp-ns2",
            paper: Paper::Pase,
            source: "section 5 (testbed)",
            statement: "as pase-testbed-afct, with DCTCP's end hosts as the DCTCP ns-2 scripts (initial alpha 0)",
            paper_value: "about 50% to 60% below",
            tolerance: "PASE / DCTCP in [0.4, 0.5], 5% slack (web/src/gallery/published.ts)",
            setting: PASE_AFCT,
            pending: &[Pending { path: "params.dctcp.profile", value: "\"ns2\"", why: "DCTCP's profile: the ns-2 scripts' initial alpha 0 instead of Linux's 1" }],
            measure: pase_testbed_afct,
        },
        Claim {
            id: "pase-testbed-afct-dctcp-testbed-kernel",
            paper: Paper::Pase,
            source: "section 5 (testbed)",
            statement: "as pase-testbed-afct, with DCTCP's end hosts as a Linux testbed kernel (200 ms minimum RTO, delayed ACKs, initial window 10)",
            paper_value: "about 50% to 60% below",
            tolerance: "PASE / DCTCP in [0.4, 0.5], 5% slack (web/src/gallery/published.ts)",
            setting: PASE_AFCT,
            pending: &[Pending { path: "params.dctcp.profile", value: "\"testbed_kernel\"", why: "DCTCP's profile: a stock Linux kernel's timers, as on the paper's testbed" }],
            measure: pase_testbed_afct,
        },
        Claim {
            id: "pase-optimizations-messages",
            paper: Paper::Pase,
            source: "section 5, Figure 11(b)",
            statement: "early pruning and delegation cut the arbitration messages, by up to 50% at high load",
            paper_value: "up to 50% fewer",
            tolerance: "fewer at every load; at least a quarter fewer at the highest (engine/core/tests/pase.rs)",
            setting: PASE_LEFT_RIGHT,
            pending: &[],
            measure: pase_messages,
        },
        Claim {
            id: "pase-optimizations-afct",
            paper: Paper::Pase,
            source: "section 5, Figure 11",
            statement: "early pruning and delegation also improve AFCT, by 4% to 10%",
            paper_value: "4% to 10% lower AFCT",
            tolerance: "no worse at any load (engine/core/tests/pase.rs, ignored); the gain in [4%, 10%] as stated (PROTOCOLS.md section 7)",
            setting: PASE_LEFT_RIGHT,
            pending: &[],
            measure: pase_optimizations_afct,
        },
        Claim {
            id: "pase-four-queues",
            paper: Paper::Pase,
            source: "section 5 (number of queues)",
            statement: "four priority queues are almost as good as eight",
            paper_value: "almost as good",
            tolerance: "AFCT with 4 queues within 10% of 8 (engine/core/tests/pase.rs)",
            setting: PASE_QUEUES,
            pending: &[],
            measure: pase_four_queues,
        },
        Claim {
            id: "pase-one-queue",
            paper: Paper::Pase,
            source: "section 5 (number of queues)",
            statement: "with one queue instead of eight, AFCT is clearly worse at high load",
            paper_value: "clearly worse with 1 queue",
            tolerance: "at least 1.2 times 8 queues' AFCT at the highest load (engine/core/tests/pase.rs)",
            setting: PASE_QUEUES,
            pending: &[],
            measure: pase_one_queue,
        },
        Claim {
            id: "d2tcp-low-load",
            paper: Paper::D2tcp,
            source: "abstract and section 5",
            statement: "D2TCP misses fewer deadlines than DCTCP at low load",
            paper_value: "D2TCP meets more deadlines than DCTCP",
            tolerance: "at least as many, no slack (engine/core/tests/d2tcp_l2dct.rs)",
            setting: deadline_setting(&[0.3], &[1, 2, 3]),
            pending: &[],
            measure: d2tcp_low_load,
        },
        Claim {
            id: "d2tcp-high-load",
            paper: Paper::D2tcp,
            source: "section 5",
            statement: "as load rises both miss most deadlines and D2TCP's advantage over DCTCP vanishes: the two converge",
            paper_value: "D2TCP and DCTCP converge",
            tolerance: "within 0.02 of each other (one flow in fifty; a choice of engine/core/tests/d2tcp_l2dct.rs: the paper gives no number)",
            setting: deadline_setting(&[0.9], &[1]),
            pending: &[],
            measure: d2tcp_high_load,
        },
        Claim {
            id: "pfabric-most-deadlines",
            paper: Paper::PFabric,
            source: "section 5 (deadline-constrained traffic); PASE section 5",
            statement: "pFabric's in-network priorities meet more deadlines than the end-host schemes (DCTCP, D2TCP, L2DCT) at every load",
            paper_value: "pFabric meets the most",
            tolerance: "ordering, no slack (engine/core/tests/d2tcp_l2dct.rs)",
            setting: deadline_setting(&[0.3, 0.9], &[1]),
            pending: &[],
            measure: pfabric_most_deadlines,
        },
        Claim {
            id: "l2dct-vs-d2tcp",
            paper: Paper::L2dct,
            source: "abstract",
            statement: "though deadline-unaware, L2DCT misses fewer deadlines than D2TCP over a wide range of load",
            paper_value: "L2DCT meets more deadlines than D2TCP",
            tolerance: "at least as many, no slack (engine/core/tests/d2tcp_l2dct.rs)",
            setting: deadline_setting(&[0.2, 0.5], &[1]),
            pending: &[],
            measure: l2dct_vs_d2tcp,
        },
    ]
}
