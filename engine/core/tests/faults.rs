//! Faults (issue 16, `engine/core/src/fault.rs`): links and switches that
//! fail and come back. Every packet is still accounted for (sent =
//! delivered + dropped + in flight), fault drops are counted, and each
//! protocol recovers by its own means: after a switch dies for good, flows
//! finish over the other spines; after a link comes back, the flows that
//! lost packets finish, no earlier than the repair.

mod common;

use common::{assert_rejected_naming, load, par_map, run_ok};
use dcsim_core::fault::{FaultKind, FaultSpec};
use dcsim_core::scenario::ProtocolName;
use dcsim_core::{RunOptions, RunOutput, Scenario};

/// Packet-level protocols whose ports and hosts route by the network's
/// tables (the flow-level schedulers have no packets to lose).
const PACKET_LEVEL: [ProtocolName; 11] = [
    ProtocolName::Tcp,
    ProtocolName::Dctcp,
    ProtocolName::D2tcp,
    ProtocolName::L2dct,
    ProtocolName::Pfabric,
    ProtocolName::Rcp,
    ProtocolName::D3,
    ProtocolName::Phost,
    ProtocolName::Pase,
    ProtocolName::Pdq,
    ProtocolName::Fastpass,
];

fn conserved(o: &RunOutput, who: &str) {
    let c = &o.counters;
    let dropped: u64 = c.data_dropped.iter().sum();
    assert_eq!(c.data_sent, c.data_delivered + dropped + c.data_in_flight, "{who}: data packets sent = delivered + dropped + in flight");
    assert_eq!(o.summary.fault_drops, c.fault_drops, "{who}: the summary reports the fault drops");
}

fn fault(at_us: f64, kind: FaultKind) -> FaultSpec {
    FaultSpec { at_us, kind }
}

#[test]
fn a_spine_that_dies_for_good_is_routed_around() {
    let jobs: Vec<ProtocolName> = PACKET_LEVEL.to_vec();
    let out = par_map(&jobs, |&p| {
        let mut s = load("websearch-leaf-spine");
        s.workload.flows = 300;
        s.protocol = p;
        let plain = run_ok(&s, RunOptions::default());
        s.faults = vec![fault(1000.0, FaultKind::SwitchDown { node: "spine1".into() })];
        let failed = run_ok(&s, RunOptions { trace: false, audit: true });
        (p, plain, failed)
    });
    // Most protocols have packets on or at spine1 at 1 ms (a protocol may
    // happen to have none there at that instant).
    let losers = out.iter().filter(|(_, _, f)| f.summary.fault_drops > 0).count();
    assert!(losers >= 8, "only {losers} of 11 protocols lost packets when spine1 failed");
    for (p, plain, failed) in out {
        let who = p.as_str();
        conserved(&failed, who);
        // Every flow still completes (the audit checks each flow got every byte).
        assert_eq!(failed.summary.completed, 300, "{who}: {} of 300 flows completed with spine1 down", failed.summary.completed);
        // Three spines of four are left: no faster than with four. Not for
        // TCP: its mean slowdown at 300 flows is set by 200 us timeouts,
        // whose timing a failure moves either way (seen once: 7.86 with
        // the spine down against 8.82 with all four).
        if p != ProtocolName::Tcp {
            assert!(
                failed.summary.all.mean_slowdown >= plain.summary.all.mean_slowdown * 0.97,
                "{who}: mean slowdown {} with a spine down, {} with all four",
                failed.summary.all.mean_slowdown,
                plain.summary.all.mean_slowdown
            );
        }
    }
}

#[test]
fn incast_recovers_after_the_receivers_link_comes_back() {
    // The incast receiver's own link (the only way in) is down from 2 ms to
    // 4 ms: nothing can arrive meanwhile, every sender loses packets, and
    // the request completes only after the repair, by retransmission.
    let jobs: Vec<ProtocolName> = PACKET_LEVEL.to_vec();
    let out = par_map(&jobs, |&p| {
        let mut s = load("incast");
        s.protocol = p;
        s.workload.matrix = serde_json::from_value(serde_json::json!({"kind": "incast", "senders": 20, "request_packets": 8000, "requests": 1})).unwrap();
        let plain = run_ok(&s, RunOptions::default());
        let recv = plain.records[0].dst;
        let recv_name = format!("h{recv}");
        let tor = format!("tor{}", recv / 16);
        s.faults =
            vec![fault(2000.0, FaultKind::LinkDown { link: [tor.clone(), recv_name.clone()] }), fault(4000.0, FaultKind::LinkUp { link: [tor, recv_name] })];
        (p, plain, run_ok(&s, RunOptions { trace: false, audit: true }))
    });
    for (p, plain, failed) in out {
        let who = p.as_str();
        conserved(&failed, who);
        let ideal_ms = 8000.0 * 1500.0 * 8.0 / 10e9 * 1e3; // 9.6 ms through the receiver's 10 Gbps link
        let done = |o: &RunOutput| o.records.iter().filter_map(|r| r.end).max().map(|t| t.as_us_f64() / 1000.0);
        let (before, after) = (done(&plain), done(&failed));
        assert!(before.is_some_and(|t| t > 4.0), "{who}: the request must still be running at the repair (done at {before:?} ms)");
        assert_eq!(failed.summary.completed, failed.summary.flows, "{who}: all senders finish after the link comes back");
        assert!(failed.summary.fault_drops > 0, "{who}: the down link dropped nothing");
        // Two ms of no delivery cannot be made up: the request ends at
        // least 2 ms later than the ideal, and later than without the
        // fault unless the run without it already lost more than the
        // outage to its own protocol (RCP's incast takes 23 ms of an ideal
        // 9.6: there the outage may even shorten it, seen 22.98 against
        // 23.48 ms).
        let (before, after) = (before.unwrap(), after.unwrap());
        assert!(
            after >= ideal_ms + 2.0 - 0.05 && (after > before || before > ideal_ms + 2.0),
            "{who}: request done at {after:.2} ms with the fault, {before:.2} ms without, ideal {ideal_ms:.1} ms"
        );
    }
}

#[test]
fn bad_faults_name_the_field() {
    let ok = r#"{"name":"x","workload":{"flows":10},"faults":[{"at_us":5,"kind":"link_down","link":["tor0","spine1"]}]}"#;
    Scenario::from_json(ok).unwrap();
    assert_rejected_naming([
        (ok.replace("spine1", "spine9"), "faults[0].link"),
        (ok.replace(r#"["tor0","spine1"]"#, r#"["tor0","tor1"]"#), "faults[0].link"),
        (ok.replace(r#""at_us":5"#, r#""at_us":-5"#), "faults[0].at_us"),
        (ok.replace(r#""kind":"link_down","link":["tor0","spine1"]"#, r#""kind":"switch_down","node":"h3""#), "faults[0].node"),
        (ok.replace("link_down", "link_sideways"), "link_sideways"),
        (ok.replace(r#""at_us":5"#, r#""at_us":5,"extra":1"#), "extra"),
    ]);
    // A branch may fail a switch too.
    let b = r#"{"name":"x","workload":{"flows":10},"branch":{"name":"b","at_us":5,"change":{"kind":"switch_down","node":"spine0"}}}"#;
    Scenario::from_json(b).unwrap();
    assert!(Scenario::from_json(&b.replace("spine0", "core7")).unwrap_err().contains("branch.change"));
}

#[test]
fn a_snapshot_with_a_link_down_restores_exactly() {
    let mut s = load("websearch-leaf-spine");
    s.workload.flows = 200;
    s.faults = vec![fault(1000.0, FaultKind::SwitchDown { node: "spine2".into() }), fault(3000.0, FaultKind::SwitchUp { node: "spine2".into() })];
    let whole = run_ok(&s, RunOptions::default());
    let mut r = dcsim_core::prepare(&s, RunOptions::default()).unwrap();
    r.run_until(dcsim_core::units::SimTime::from_us(2000));
    let snap = r.snapshot();
    r.run_events(100_000);
    let again = dcsim_core::restore(&*snap).finish();
    assert_eq!(dcsim_core::report::flows_csv(&again.records), dcsim_core::report::flows_csv(&whole.records));
    assert_eq!(again.summary.fault_drops, whole.summary.fault_drops);
    assert!(whole.summary.fault_drops > 0);
}

#[test]
fn drop_next_loses_exactly_one_packet_and_the_flow_recovers() {
    // The first data packet of a multi-packet flow to reach the receiver's
    // ToR port (the last hop: on every path, sprayed or not) is dropped
    // once; each protocol must notice and resend it (timeouts, pHost's
    // token expiry, ...), so the flow ends later than without the loss. At
    // a load of 0.05 the flow is nearly alone, so the loss is what changes
    // its completion time (at 0.6 a loss can reshuffle the other flows
    // enough to speed it up).
    let jobs: Vec<ProtocolName> = PACKET_LEVEL.to_vec();
    let out = par_map(&jobs, |&p| {
        let mut s = load("websearch-leaf-spine");
        s.workload.flows = 60;
        s.workload.load = 0.05;
        s.protocol = p;
        let plain = run_ok(&s, RunOptions::default());
        // 20 to 150 packets: long enough to need recovery, short enough
        // that TCP's slow start never overflows a buffer by itself (a loss
        // that ends slow start early can then make a long flow faster).
        let f = plain.records.iter().find(|r| (20 * 1460..150 * 1460).contains(&r.size) && !r.background).expect("a flow of 20 to 150 packets").clone();
        let port = [format!("tor{}", f.dst / 16), format!("h{}", f.dst)];
        s.faults = vec![fault(f.start.as_us_f64(), FaultKind::DropNext { flow: f.id, port: port.clone() })];
        let hit = run_ok(&s, RunOptions { trace: false, audit: true });
        // The same drop as a what-if branch at the same time.
        let mut b = s.clone();
        b.faults.clear();
        b.branch = Some(dcsim_core::branch::BranchSpec {
            name: "lose one".into(),
            at_us: f.start.as_us_f64(),
            change: dcsim_core::branch::BranchChange::Fault(FaultKind::DropNext { flow: f.id, port }),
        });
        let branch = run_ok(&b, RunOptions::default());
        (p, f, plain, hit, branch)
    });
    for (p, f, plain, hit, branch) in out {
        let who = p.as_str();
        conserved(&hit, who);
        assert_eq!(hit.summary.fault_drops, 1, "{who}: drop_next must drop exactly one packet");
        assert_eq!(hit.summary.completed, hit.summary.flows, "{who}: every flow completes after the loss");
        let (before, after) = (plain.records[f.id as usize].fct().unwrap(), hit.records[f.id as usize].fct().unwrap());
        assert!(after > before, "{who}: flow {} took {:.1} us after losing a packet, {:.1} us without", f.id, after.as_us_f64(), before.as_us_f64());
        assert_eq!(branch.summary.fault_drops, 1, "{who}: the branch drops one packet too");
        assert_eq!(branch.records[f.id as usize].fct(), hit.records[f.id as usize].fct(), "{who}: the branch and the scheduled fault differ");
    }
}

#[test]
fn drop_next_names_its_fields() {
    let ok = r#"{"name":"x","workload":{"flows":10},"faults":[{"at_us":5,"kind":"drop_next","flow":3,"port":["spine0","tor1"]}]}"#;
    Scenario::from_json(ok).unwrap();
    assert_rejected_naming([
        (ok.replace(r#"["spine0","tor1"]"#, r#"["spine0","h1"]"#), "faults[0].port"),
        (ok.replace(r#""flow":3"#, r#""flow":-3"#), "u32"),
        (ok.replace(r#""flow":3,"#, ""), "flow"),
    ]);
    let b = r#"{"name":"x","workload":{"flows":10},"branch":{"name":"b","at_us":5,"change":{"kind":"drop_next","flow":3,"port":["tor0","h1"]}}}"#;
    Scenario::from_json(b).unwrap();
    assert!(Scenario::from_json(&b.replace("tor0", "tor2")).unwrap_err().contains("branch.change.port"));
}
