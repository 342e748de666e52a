//! The pHost paper's results (Gao et al., CoNEXT 2015) that the shipped
//! scenarios reproduce, and pHost's mechanisms seen from outside. Every
//! threshold names its source. The measured numbers are printed (run with
//! `-- --nocapture`).

mod common;

use common::{load, par_map, run_ok};
use dcsim_core::ids::NodeId;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::sim::StopReason;
use dcsim_core::units::SimTime;
use dcsim_core::workload::{NamedCdf, SizeSpec};
use dcsim_core::{prepare, RunOptions, Scenario};

/// One flow of `packets` packets from host 0 (rack 0) to host 143 (rack 8)
/// on the idle default leaf-spine, under pHost with `params` (JSON).
fn lone_phost_flow(packets: u64, params: &str) -> Scenario {
    Scenario::from_json(&format!(
        r#"{{"name":"test-phost-lone","topology":{{"kind":"leaf_spine"}},"switching":"cut_through","protocol":"phost",
            "params":{{"phost":{params}}},
            "workload":{{"matrix":{{"kind":"incast","senders":1,"request_packets":{packets},"receiver":143}}}}}}"#
    ))
    .unwrap()
}

#[test]
fn free_tokens_let_a_short_flow_finish_without_waiting_a_round_trip() {
    // pHost section 3.2: a source may send a BDP (8 packets) at once, so a
    // flow that fits finishes in its ideal time, plus the 40-B RTS that
    // leaves the NIC first (32 ns at 10 Gbps); without free tokens its data
    // waits for the RTS to reach the destination and a token to come back:
    // at least one round trip of propagation (2 x links x 200 ns).
    let s = lone_phost_flow(8, "{}");
    let with = run_ok(&s, RunOptions { trace: false, audit: true });
    let without = run_ok(&lone_phost_flow(8, r#"{"free_tokens":0}"#), RunOptions { trace: false, audit: true });
    let (a, b) = (&with.records[0], &without.records[0]);
    let (fa, fb) = (a.fct().unwrap().as_us_f64(), b.fct().unwrap().as_us_f64());
    let links = dcsim_core::net::topology::build(&s.topology).path(NodeId(a.src), NodeId(a.dst)).len() as f64;
    let rtt = 2.0 * links * 0.2;
    eprintln!("8-packet flow over {links} links: FCT {fa:.3} us with free tokens, {fb:.3} us without; ideal {:.3} us", a.ideal.as_us_f64());
    assert!(fa <= a.ideal.as_us_f64() + 0.032 + 1e-6, "with free tokens the lone flow should take its ideal time plus the RTS: {fa} us");
    assert!(fb >= fa + rtt, "without free tokens the flow should wait at least a round trip ({rtt} us): {fb} vs {fa}");
    // Nothing is lost alone in the network, so nothing is sent twice.
    assert_eq!(with.counters.data_sent, 8);
    assert_eq!(without.counters.data_sent, 8);
}

#[test]
fn a_lone_long_flow_runs_at_the_token_rate() {
    // pHost section 3.1: the destination sends one token per MTU time (the
    // authors' pacing: 1540 B per token); alone, the flow's packets arrive
    // at that pace, so its FCT is about ideal x 1540/1500 and never less
    // than the ideal. 1000 packets; allow 1% over that pace for the first
    // round trip and the free packets.
    let o = run_ok(&lone_phost_flow(1000, "{}"), RunOptions { trace: false, audit: true });
    let r = &o.records[0];
    let sl = r.slowdown().unwrap();
    eprintln!("1000-packet lone flow: slowdown {sl:.4}, data sent {}", o.counters.data_sent);
    assert!((1.0..=1540.0 / 1500.0 * 1.01).contains(&sl), "slowdown {sl}");
    assert_eq!(o.counters.data_sent, 1000, "no packet is sent twice alone in the network");
}

fn with_workload(name: &str, protocol: ProtocolName, flows: u64) -> Scenario {
    let mut s = load("websearch-leaf-spine");
    let cdf = match name {
        "websearch" => NamedCdf::Websearch,
        "datamining" => NamedCdf::Datamining,
        _ => NamedCdf::Imc10,
    };
    s.workload.sizes = SizeSpec::Cdf { name: Some(cdf), points: None };
    s.workload.flows = flows;
    s.protocol = protocol;
    s
}

#[test]
fn phost_is_within_ten_percent_of_pfabric_fastpass_is_worse_and_phost_drops_nothing_at_the_first_hop() {
    // pHost section 4.2 (Figure 3): at load 0.6 on the default leaf-spine,
    // pHost's mean slowdown is within 4% of pFabric's for web search, data
    // mining and IMC10; the issue allows 10%. Fastpass is 1.3 to 4 times
    // worse than pHost in mean slowdown, most of it on short flows, which
    // wait an epoch plus a round trip for their first slot (the issue's
    // criteria: Fastpass worse for short flows, at least 1.3 times overall). Fewer flows
    // than the paper's to keep the test short: enough for hundreds of
    // concurrent flows.
    // Section 4.2 (drops): pFabric drops at the first hop (host NIC, 61%)
    // and the last (ToR down, 39%); pHost paces its sources and has almost
    // no drops at the first hop.
    let cases = [("websearch", 3000), ("datamining", 1500), ("imc10", 6000)];
    // Fastpass twice: sending at the slot's start (the Fastpass paper,
    // the default) and as the grant arrives (`start_on_grant`, the pHost
    // authors' simulator).
    let protos = [(ProtocolName::Pfabric, false), (ProtocolName::Phost, false), (ProtocolName::Fastpass, false), (ProtocolName::Fastpass, true)];
    let jobs: Vec<(&str, u64, (ProtocolName, bool))> = cases.iter().flat_map(|&(w, n)| protos.map(|p| (w, n, p))).collect();
    let out = par_map(&jobs, |&(w, n, (p, on_grant))| {
        let mut s = with_workload(w, p, n);
        s.params.fastpass.start_on_grant = on_grant;
        run_ok(&s, RunOptions::default())
    });
    let mut failures = Vec::new();
    for (i, (w, _)) in cases.iter().enumerate() {
        let (pf, ph, fp, fg) = (&out[4 * i], &out[4 * i + 1], &out[4 * i + 2], &out[4 * i + 3]);
        for o in [pf, ph, fp, fg] {
            assert_eq!(o.stop, StopReason::AllFlowsDone, "{w}: {} left flows unfinished", o.summary.protocol);
        }
        let (a, b, c) = (pf.summary.all.mean_slowdown, ph.summary.all.mean_slowdown, fp.summary.all.mean_slowdown);
        let (sb, sc) = (ph.summary.short.mean_slowdown, fp.summary.short.mean_slowdown);
        let (g, sg) = (fg.summary.all.mean_slowdown, fg.summary.short.mean_slowdown);
        eprintln!(
            "{w}: mean slowdown pFabric {a:.4} pHost {b:.4} (ratio {:.3}) Fastpass {c:.4} ({:.2} x pHost), on grant {g:.4} ({:.2} x); short flows {:.4} / {sb:.4} / {sc:.4} / {sg:.4}; drops by hop pFabric {:?} pHost {:?}",
            b / a,
            c / b,
            g / b,
            pf.summary.short.mean_slowdown,
            pf.counters.data_dropped,
            ph.counters.data_dropped
        );
        if b > 1.10 * a {
            failures.push(format!("{w}: pHost mean slowdown {b:.4} is more than 10% above pFabric's {a:.4}"));
        }
        // NaN (a run that did not finish) fails too.
        if sc.is_nan() || sg.is_nan() || sb.is_nan() || sc <= sb || sg <= sb {
            failures.push(format!("{w}: Fastpass's short flows ({sc:.4}, on grant {sg:.4}) should be slower than pHost's ({sb:.4})"));
        }
        // The paper's 1.3 to 4 times, bracketed by the two readings of when
        // a source sends: at the slot's start the wait is an epoch longer,
        // and Fastpass is at least 1.3 times worse everywhere (4.6 to 5.4
        // times on data mining and IMC10, whose flows are mostly one
        // packet); as the grant arrives it is at most 4 times worse
        // everywhere (1.25 times on web search). See engine/ARCHITECTURE.md.
        if c < 1.3 * b {
            failures.push(format!("{w}: Fastpass's mean slowdown {c:.4} is less than 1.3 times pHost's {b:.4}"));
        }
        if g > 4.0 * b || g >= c {
            failures.push(format!(
                "{w}: Fastpass starting on the grant ({g:.4}) should be at most 4 times pHost's {b:.4} and below Fastpass at slot start ({c:.4})"
            ));
        }
        let d = pf.counters.data_dropped;
        let total: u64 = d.iter().sum();
        // The paper has all of pFabric's drops at these two hops; here
        // spraying also fills ToR uplinks now and then (about 15%).
        if total > 0 && ((d[0] + d[3]) as f64) < 0.75 * total as f64 {
            failures.push(format!("{w}: pFabric's drops {d:?} are not mostly at the first and last hops"));
        }
        let hd = ph.counters.data_dropped;
        // "Almost none": below 0.01% of the data packets pHost sent.
        if hd[0] as f64 > 1e-4 * ph.counters.data_sent as f64 {
            failures.push(format!("{w}: pHost dropped {} packets at the first hop", hd[0]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Mean slowdown of each protocol on the scenario's permutation matrix
/// (30,000 flows, seed 1).
fn permutation_slowdowns(jobs: &[ProtocolName]) -> Vec<f64> {
    par_map(jobs, |&p| {
        let mut s = load("phost-permutation");
        assert_eq!(s.workload.flows, 30000);
        s.protocol = p;
        run_ok(&s, RunOptions::default()).summary.all.mean_slowdown
    })
}

#[test]
fn permutation_matrix_favours_phost_over_fastpass() {
    // pHost section 4.2 (permutation traffic matrix): with one destination
    // per source, tokens keep every access link busy and pHost's mean
    // slowdown is lower than Fastpass's. Measured (seed 1): pHost 1.266,
    // Fastpass 1.789.
    let v = permutation_slowdowns(&[ProtocolName::Phost, ProtocolName::Fastpass]);
    eprintln!("permutation: mean slowdown pHost {:.4} Fastpass {:.4}", v[0], v[1]);
    assert!(v[0] < v[1], "pHost {} should beat Fastpass {} on the permutation matrix", v[0], v[1]);
}

#[test]
#[ignore = "not reproduced: with cut-through as the pHost authors' simulator (issue 21) pFabric's long flows keep up, and on this scenario (30,000 flows, seed 1) pFabric's mean slowdown is 1.173 against pHost's 1.266; with `cut_through_hold` (a 40G uplink held for a 10G packet's arrival) pFabric was 1.280 and pHost 1.249, pFabric's loss coming from that rule"]
fn permutation_matrix_favours_phost_over_pfabric() {
    // pHost section 4.2 (permutation traffic matrix): pHost's mean slowdown
    // is lower than pFabric's.
    let v = permutation_slowdowns(&[ProtocolName::Pfabric, ProtocolName::Phost]);
    eprintln!("permutation: mean slowdown pFabric {:.4} pHost {:.4}", v[0], v[1]);
    assert!(v[1] < v[0], "pHost {} should beat pFabric {} on the permutation matrix", v[1], v[0]);
}

/// Share of data bytes the first tenant (IMC10) got by time `t`.
fn first_tenant_share(s: &Scenario, t: SimTime) -> f64 {
    let mut r = prepare(s, RunOptions::default()).unwrap();
    r.run_until(t);
    let b = r.tenant_bytes_delivered();
    assert_eq!(b.len(), 2, "two tenants");
    b[0] as f64 / (b[0] + b[1]) as f64
}

#[test]
fn tenant_fair_phost_splits_throughput_evenly_where_srpt_favours_small_flows() {
    // pHost section 4.4 (Figure 11): one tenant with IMC10 flows, one with
    // web search flows, all injected at time zero; pHost without data
    // priorities and free tokens, as the paper runs it there (the
    // scenario's settings, kept for the SRPT policy too). Tenant-fair pHost
    // gives each tenant about half the throughput while both have data (the
    // issue: within 10% of half); pFabric's SRPT serves the IMC10 tenant's
    // smaller flows first and gives it clearly more, and so does pHost with
    // its SRPT policy (the policy, not the protocol, makes the split).
    // Measured over the first 4 ms, when both tenants are backlogged.
    // Measured (seeds 1 to 3): tenant-fair 0.506-0.512, SRPT pHost
    // 0.817-0.832, pFabric 0.804-0.820.
    let base = load("phost-two-tenants");
    let t = SimTime::from_us(4000);
    let fair = base.clone();
    assert_eq!(fair.protocol, ProtocolName::Phost);
    let mut srpt = base.clone();
    srpt.params.phost.policy = serde_json::from_str("\"srpt\"").unwrap();
    let mut pf = base.clone();
    pf.protocol = ProtocolName::Pfabric;
    let out = par_map(&[fair, srpt, pf], |s| first_tenant_share(s, t));
    eprintln!("two tenants, IMC10 tenant's share of bytes by 4 ms: tenant-fair pHost {:.3}, SRPT pHost {:.3}, pFabric {:.3}", out[0], out[1], out[2]);
    assert!((out[0] - 0.5).abs() <= 0.05, "tenant-fair pHost gives the IMC10 tenant {:.3}, not within 10% of half", out[0]);
    assert!(out[1] >= 0.65, "SRPT pHost gives the IMC10 tenant only {:.3}", out[1]);
    assert!(out[2] >= 0.65, "pFabric gives the IMC10 tenant only {:.3}", out[2]);
}

#[test]
fn tenant_fairness_is_per_host_so_a_sparse_tenant_gets_less() {
    // Why the scenario has 20,000 flows: tenant-fair pHost is fair at each
    // receiver and each source, not across the network. With 4,000 flows the
    // web search tenant has about 3 flows per host and within 1 ms none at
    // 53 of the 144 receivers, which then serve only the IMC10 tenant: its
    // share rises well above half (measured, seed 1: 0.665), though still
    // below SRPT's (0.792).
    let mut fair = load("phost-two-tenants");
    fair.workload.flows = 4000;
    let mut srpt = fair.clone();
    srpt.params.phost.policy = serde_json::from_str("\"srpt\"").unwrap();
    let t = SimTime::from_us(4000);
    let out = par_map(&[fair, srpt], |s| first_tenant_share(s, t));
    eprintln!("4,000 flows: IMC10 tenant's share by 4 ms: tenant-fair {:.3}, SRPT {:.3}", out[0], out[1]);
    assert!(out[0] > 0.6, "tenant-fair with a sparse web search tenant gives IMC10 {:.3}", out[0]);
    assert!(out[0] < out[1] - 0.05, "tenant-fair {:.3} should still favour IMC10 less than SRPT {:.3}", out[0], out[1]);
}

/// Prints the IMC10 tenant's share of delivered bytes over time under
/// both policies and pFabric (a measurement aid for the test above).
#[test]
#[ignore = "measurement aid, prints numbers"]
fn explore_tenants() {
    let base = load("phost-two-tenants");
    for p in [ProtocolName::Phost, ProtocolName::Pfabric] {
        for pol in ["tenant_fair", "srpt"] {
            let mut s = base.clone();
            s.protocol = p;
            s.params.phost.policy = serde_json::from_str(&format!("\"{pol}\"")).unwrap();
            let v: Vec<String> = [250u64, 1000, 4000].iter().map(|&us| format!("{us}us {:.3}", first_tenant_share(&s, SimTime::from_us(us)))).collect();
            eprintln!("{} {pol}: {}", p.as_str(), v.join(", "));
        }
    }
}
