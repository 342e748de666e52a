//! PDQ (Hong, Caesar, Godfrey, SIGCOMM 2012) against the optimal deadline
//! scheduler and the baselines on deadline-constrained query aggregation
//! (PDQ paper section 5.2), and the handshake cost of tiny flows (pFabric
//! paper: PDQ's normalized FCT is at least 2 for them). The switch rules
//! in isolation are unit tests in `protocol/pdq/`.

mod common;

use common::{assert_rejected_naming, load, par_map, run_ok};
use dcsim_core::net::topology::TopologySpec;
use dcsim_core::protocol::pdq::params::PdqParams;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::workload::{MatrixSpec, SizeSpec};
use dcsim_core::{RunOptions, Scenario};

/// What runs: a protocol, with a PDQ variant for PDQ.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scheme {
    Optimal,
    Pdq(&'static str),
    D3,
    Rcp,
    Tcp,
}

impl Scheme {
    fn label(self) -> String {
        match self {
            Scheme::Optimal => "optimal".into(),
            Scheme::Pdq(v) => format!("pdq({v})"),
            Scheme::D3 => "d3".into(),
            Scheme::Rcp => "rcp".into(),
            Scheme::Tcp => "tcp".into(),
        }
    }
}

/// The shipped query-aggregation scenario with `fanout` flows per query.
/// Up to 11 flows the PDQ paper's 12-server tree; beyond, the same tree
/// with 13 hosts per ToR (52 servers), so that every flow has its own
/// sender.
fn query(fanout: u32, seed: u64, scheme: Scheme) -> Scenario {
    let mut s = load("pdq-query-aggregation");
    if fanout > 11 {
        if let TopologySpec::Tree { branching, .. } = &mut s.topology {
            *branching = vec![4, 13];
        }
    }
    s.workload.matrix = MatrixSpec::QueryAggregation { fanout, queries: 20 };
    s.seed = seed;
    let keep = s.params.pdq.clone();
    s.protocol = match scheme {
        Scheme::Optimal => ProtocolName::OptimalDeadline,
        Scheme::Pdq(v) => {
            let p = PdqParams::variant(v).unwrap();
            s.params.pdq = PdqParams { buffer_bytes: keep.buffer_bytes, init_rtt_us: keep.init_rtt_us, rto_us: keep.rto_us, ..p };
            ProtocolName::Pdq
        }
        Scheme::D3 => ProtocolName::D3,
        Scheme::Rcp => ProtocolName::Rcp,
        Scheme::Tcp => ProtocolName::Tcp,
    };
    s
}

const FANOUTS: [u32; 6] = [2, 5, 8, 11, 25, 50];
const SEEDS: [u64; 3] = [1, 2, 3];

/// Fraction of deadlines met, mean over seeds, per fanout.
fn sweep(schemes: &[Scheme]) -> Vec<Vec<f64>> {
    let jobs: Vec<(Scheme, u32, u64)> =
        schemes.iter().flat_map(|&sc| FANOUTS.iter().flat_map(move |&f| SEEDS.iter().map(move |&seed| (sc, f, seed)))).collect();
    let met = par_map(&jobs, |&(sc, f, seed)| {
        let o = run_ok(&query(f, seed, sc), RunOptions::default());
        o.summary.deadlines_met.expect("deadline flows")
    });
    let per = FANOUTS.len() * SEEDS.len();
    schemes
        .iter()
        .enumerate()
        .map(|(i, _)| (0..FANOUTS.len()).map(|j| met[i * per + j * SEEDS.len()..][..SEEDS.len()].iter().sum::<f64>() / SEEDS.len() as f64).collect())
        .collect()
}

fn table(schemes: &[Scheme], rows: &[Vec<f64>]) {
    eprintln!("deadlines met (mean of seeds {SEEDS:?}), flows per query {FANOUTS:?}");
    for (s, r) in schemes.iter().zip(rows) {
        eprintln!("  {:<14} {}", s.label(), r.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join("  "));
    }
}

const FULL: Scheme = Scheme::Pdq("full");
const BASIC: Scheme = Scheme::Pdq("basic");
const LAST: usize = FANOUTS.len() - 1;

#[test]
fn pdq_full_stays_within_5_points_of_optimal_as_flows_grow() {
    // PDQ section 5.2 (Figure 3a): PDQ(Full) stays close to the optimal
    // scheduler as flows per query grow: within 5 points from 2 to 50
    // flows (up to 11 on the paper's 12-server tree, 25 and 50 on the same
    // tree with 13 hosts per ToR). Measured: 0.992 0.990 0.985 0.977 0.909
    // 0.793 against 0.992 1.000 0.988 0.983 0.933 0.839 at 2, 5, 8, 11,
    // 25, 50 flows. (Seeds 4-7, not tested here: 0.977 0.926 0.815
    // against 0.985 0.953 0.857 at 11, 25, 50.) With Early Termination's
    // literal rule (`early_termination_rate_fraction` 1, no added RTT) 50
    // flows meet 0.762, 7.7 points below.
    let schemes = [Scheme::Optimal, FULL, Scheme::Pdq("es_et"), Scheme::Pdq("es"), BASIC];
    let rows = sweep(&schemes);
    table(&schemes, &rows);
    for (j, f) in FANOUTS.iter().enumerate() {
        assert!(rows[0][j] - rows[1][j] <= 0.05, "{f} flows: PDQ(Full) {:.3} more than 5 points below optimal {:.3}", rows[1][j], rows[0][j]);
    }
}

#[test]
fn pdq_basic_falls_clearly_below_full_and_optimal() {
    let schemes = [Scheme::Optimal, FULL, BASIC];
    let rows = sweep(&schemes);
    table(&schemes, &rows);
    let (opt, full, basic) = (&rows[0], &rows[1], &rows[2]);
    // With many flows, Basic (no Early Termination) serves flows that
    // miss anyway; Full is ahead of it by more than 10 points.
    assert!(full[LAST] - basic[LAST] > 0.1, "{} flows: PDQ(Basic) {:.3}, PDQ(Full) {:.3}", FANOUTS[LAST], basic[LAST], full[LAST]);
    assert!(opt[LAST] - basic[LAST] > 0.1, "{} flows: PDQ(Basic) {:.3}, optimal {:.3}", FANOUTS[LAST], basic[LAST], opt[LAST]);
    // And the optimal scheduler bounds PDQ at every point.
    for j in 0..FANOUTS.len() {
        assert!(opt[j] + 1e-9 >= full[j], "{} flows: PDQ(Full) {:.3} above optimal {:.3}", FANOUTS[j], full[j], opt[j]);
    }
}

#[test]
fn d3_rcp_and_tcp_fall_below_pdq_as_flows_increase() {
    let schemes = [FULL, Scheme::D3, Scheme::Rcp, Scheme::Tcp];
    let rows = sweep(&schemes);
    table(&schemes, &rows);
    for (i, s) in schemes.iter().enumerate().skip(1) {
        // Below PDQ(Full) from 5 flows on (at 2 flows all meet nearly all)...
        for j in 1..FANOUTS.len() {
            assert!(rows[i][j] < rows[0][j], "{}: {:.3} at {} flows, PDQ(Full) {:.3}", s.label(), rows[i][j], FANOUTS[j], rows[0][j]);
        }
        // ...and falling as flows increase.
        assert!(rows[i][LAST] < rows[i][0] - 0.1, "{}: {:.3} at {} flows, {:.3} at {}", s.label(), rows[i][LAST], FANOUTS[LAST], rows[i][0], FANOUTS[0]);
    }
}

/// PDQ(Basic) against D3, RCP and TCP with every flow given up at its
/// deadline (`workload.abort_at_deadline`, for every protocol), on the
/// paper's 12-server tree (senders repeat beyond 11 flows): fractions of
/// deadlines met at 25 and 50 flows per query, mean over seeds.
fn basic_and_baselines_with_abort() -> Vec<(String, [f64; 2])> {
    let schemes = [BASIC, Scheme::D3, Scheme::Rcp, Scheme::Tcp];
    let fanouts = [25u32, 50];
    let jobs: Vec<(Scheme, u32, u64)> =
        schemes.iter().flat_map(|&sc| fanouts.iter().flat_map(move |&f| SEEDS.iter().map(move |&seed| (sc, f, seed)))).collect();
    let met = par_map(&jobs, |&(sc, f, seed)| {
        let mut s = query(f, seed, sc);
        // The paper's tree, not the 52-server one `query` takes beyond 11.
        s.topology = load("pdq-query-aggregation").topology;
        s.workload.abort_at_deadline = true;
        run_ok(&s, RunOptions::default()).summary.deadlines_met.expect("deadline flows")
    });
    let n = SEEDS.len();
    schemes.iter().enumerate().map(|(i, sc)| (sc.label(), [0, 1].map(|j| met[(i * 2 + j) * n..][..n].iter().sum::<f64>() / n as f64))).collect()
}

#[test]
fn with_flows_given_up_at_their_deadline_pdq_basic_beats_d3_rcp_and_tcp() {
    // PDQ section 5.2: even PDQ(Basic), without Early Start and Early
    // Termination, meets more deadlines than D3, RCP and TCP at 25 and 50
    // flows per query. The paper's deadline flows count as failed, and
    // stop, at their deadline; without that (every flow runs to the end,
    // PDQ(Basic) keeps the link for a flow already late while D3 quenches
    // its own) Basic met 0.534 and 0.118 against D3's 0.599 and 0.386.
    // Measured with `abort_at_deadline`: PDQ(Basic) 0.773 / 0.536 at 25 /
    // 50 flows; D3 0.599 / 0.386, RCP 0.446 / 0.244, TCP 0.575 / 0.350.
    let rows = basic_and_baselines_with_abort();
    eprintln!("deadlines met with abort_at_deadline, 25 and 50 flows per query: {rows:?}");
    let basic = rows[0].1;
    for (label, r) in &rows[1..] {
        for j in 0..2 {
            // A margin well above the seeds' spread (about 0.02).
            assert!(basic[j] > r[j] + 0.05, "{} flows: PDQ(Basic) {:.3}, {label} {:.3}", [25, 50][j], basic[j], r[j]);
        }
    }
}

#[test]
fn with_three_flows_pdq_stays_near_optimal_as_flow_sizes_grow() {
    // PDQ paper section 5.2, flow size varied at 3 flows per query:
    // sizes uniform with mean 100 KB to 1000 KB.
    let means = [100_000u64, 400_000, 700_000, 1_000_000];
    let schemes = [Scheme::Optimal, FULL, Scheme::D3, Scheme::Rcp, Scheme::Tcp];
    let jobs: Vec<(usize, u64, u64)> = (0..schemes.len()).flat_map(|i| means.iter().flat_map(move |&m| SEEDS.iter().map(move |&seed| (i, m, seed)))).collect();
    let met = par_map(&jobs, |&(i, mean, seed)| {
        let mut s = load("pdq-query-aggregation-1000kb");
        let q = query(3, seed, schemes[i]);
        s.protocol = q.protocol;
        s.params = q.params;
        s.seed = seed;
        s.workload.sizes = SizeSpec::Uniform { min_bytes: mean / 50, max_bytes: 2 * mean - mean / 50 };
        run_ok(&s, RunOptions::default()).summary.deadlines_met.expect("deadline flows")
    });
    let per = means.len() * SEEDS.len();
    let rows: Vec<Vec<f64>> = (0..schemes.len())
        .map(|i| (0..means.len()).map(|j| met[i * per + j * SEEDS.len()..][..SEEDS.len()].iter().sum::<f64>() / SEEDS.len() as f64).collect())
        .collect();
    eprintln!("deadlines met, 3 flows per query, mean size {means:?} bytes");
    for (s, r) in schemes.iter().zip(&rows) {
        eprintln!("  {:<14} {}", s.label(), r.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join("  "));
    }
    for j in 0..means.len() {
        assert!(rows[0][j] - rows[1][j] <= 0.05, "mean {} B: PDQ(Full) {:.3} more than 5 points below optimal {:.3}", means[j], rows[1][j], rows[0][j]);
        // D3, RCP and TCP below PDQ(Full) once flows are large (at
        // 100 KB, 3 flows rarely contend and D3 ties PDQ: 0.989 each).
        for i in (2..schemes.len()).filter(|_| j > 0) {
            assert!(rows[i][j] < rows[1][j], "mean {} B: {} {:.3} not below PDQ(Full) {:.3}", means[j], schemes[i].label(), rows[i][j], rows[1][j]);
        }
    }
}

#[test]
fn a_one_packet_flow_takes_at_least_two_round_trips() {
    // One 1-packet flow alone on PDQ's tree: SYN, SYN-ACK, then data, so
    // its FCT is at least twice the engine's ideal FCT (OPT: the packet's
    // one-way trip), as the pFabric paper notes for PDQ.
    for seed in 1..=5 {
        let mut s = load("pdq-query-aggregation");
        s.workload.matrix = MatrixSpec::QueryAggregation { fanout: 1, queries: 1 };
        s.workload.sizes = SizeSpec::Fixed { bytes: Some(1000), packets: None };
        s.workload.deadlines = None;
        s.seed = seed;
        let o = run_ok(&s, RunOptions { trace: false, audit: true });
        let r = &o.records[0];
        let sl = r.slowdown().expect("finished");
        eprintln!("one-packet flow {} -> {}: fct {:?} ideal {:?} normalized {sl:.3}", r.src, r.dst, r.fct(), r.ideal);
        assert!(sl >= 2.0, "normalized FCT {sl}");
    }
}

#[test]
fn query_aggregation_with_more_flows_than_senders_spreads_them_evenly() {
    // 25 flows on the 12-server tree: every one of the 11 other hosts sends
    // 2 flows and 3 distinct hosts a third; up to 11 flows every sender is
    // distinct.
    use dcsim_core::net::topology::build;
    use dcsim_core::workload::FlowGenerator;
    for (fanout, most, least) in [(25u32, 3usize, 2usize), (11, 1, 1), (5, 1, 0)] {
        let mut s = load("pdq-query-aggregation");
        s.workload.matrix = MatrixSpec::QueryAggregation { fanout, queries: 1 };
        s.validate().unwrap();
        let net = build(&s.topology);
        let mut gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
        let flows: Vec<_> = std::iter::from_fn(|| gen.next_flow(&net)).collect();
        assert_eq!(flows.len(), fanout as usize);
        let dst = flows[0].dst;
        assert!(flows.iter().all(|f| f.dst == dst && f.src != dst));
        let mut per = vec![0usize; net.n_hosts as usize];
        for f in &flows {
            per[f.src.idx()] += 1;
        }
        per.remove(dst.idx());
        assert_eq!((*per.iter().max().unwrap(), *per.iter().min().unwrap()), (most, least), "fanout {fanout}: flows per sender {per:?}");
    }
}

#[test]
fn bad_pdq_parameters_name_the_field() {
    assert_rejected_naming([
        (r#"{"name":"x","params":{"pdq":{"kappa":0}}}"#, "params.pdq.kappa"),
        (r#"{"name":"x","params":{"pdq":{"rate_r":1.5}}}"#, "params.pdq.rate_r"),
        (r#"{"name":"x","params":{"pdq":{"min_rate_fraction":1}}}"#, "params.pdq.min_rate_fraction"),
        (r#"{"name":"x","params":{"pdq":{"early_termination_rate_fraction":0}}}"#, "params.pdq.early_termination_rate_fraction"),
        (r#"{"name":"x","params":{"pdq":{"early_termination_rate_fraction":1.5}}}"#, "params.pdq.early_termination_rate_fraction"),
        (r#"{"name":"x","params":{"pdq":{"early_termination_rtts":-1}}}"#, "params.pdq.early_termination_rtts"),
    ]);
}
