//! Fastpass (docs/protocols/fastpass.md; Perry et al., SIGCOMM 2014; as the
//! pHost paper, Gao et al., CoNEXT 2015, section 4, evaluates it).
//!
//! Properties:
//! * every timeslot is a matching: no host sends two data packets and no
//!   host receives two in one slot, both in what the arbiter granted and in
//!   when packets actually leave the sources' NICs (Fastpass section 3);
//! * a flow cannot finish before one epoch plus a network round trip: its
//!   request must reach the arbiter, the arbiter allocates an epoch ahead,
//!   and the data must then cross the network (docs/protocols/fastpass.md);
//! * packets and bytes are conserved, every flow completes and the engine's
//!   delivery audit passes, on the web search workload at load 0.6;
//! * bad parameters are rejected with the field's name.

mod common;

use common::{assert_rejected_naming, load, run_ok};
use dcsim_core::ids::{FlowId, NodeId};
use dcsim_core::net::topology::build;
use dcsim_core::net::{Network, PortRole};
use dcsim_core::packet::PacketKind;
use dcsim_core::protocol::fastpass::Fastpass;
use dcsim_core::protocol::ports::PortSetup;
use dcsim_core::run::sim_config;
use dcsim_core::scenario::ProtocolName;
use dcsim_core::sim::{Simulation, StopReason};
use dcsim_core::trace::TraceKind;
use dcsim_core::units::SimTime;
use dcsim_core::workload::FlowGenerator;
use dcsim_core::{RunOptions, Scenario};
use std::collections::{HashMap, HashSet};

/// The shipped web search scenario under Fastpass with `flows` flows.
fn websearch(flows: u64) -> Scenario {
    let mut s = load("websearch-leaf-spine");
    s.protocol = ProtocolName::Fastpass;
    s.workload.flows = flows;
    s
}

/// Sum of the link delays (propagation and processing) along one path:
/// no packet crosses it faster.
fn path_delay(net: &Network, src: NodeId, dst: NodeId) -> SimTime {
    net.path(src, dst).iter().fold(SimTime::ZERO, |t, p| t + net.ports[p.idx()].delay)
}

#[test]
fn every_timeslot_is_a_matching_on_a_loaded_all_to_all_run() {
    // Web search at load 0.8, all-to-all on 144 hosts: while flows arrive,
    // dozens of hosts send in the same slot and many more want to, so the
    // arbiter resolves conflicts in every slot (the busiest slot is checked
    // below). With the pHost authors' guard of half a slot per epoch the
    // packets also leave the NICs in their slots; without a guard (the
    // default, the pHost paper's 8-MTU epoch) the arbiter's slots are
    // still matchings, but a source's NIC also sends the control packets
    // of the flows it receives, their delay carries over from epoch to
    // epoch, and now and then a packet leaves in a later slot than granted
    // (measured: 1 of 552,474, a destination sent two packets in one slot;
    // 0 of 552,342 with the guard).
    let (late, sent) = matching_run(0.0);
    assert!(late * 1000 <= sent, "without a guard {late} of {sent} packets left outside their slot");
    assert_eq!(matching_run(0.5).0, 0, "with the authors' guard every packet leaves in its slot");
}

/// The matching checks on a loaded run with guard `guard` (see the test
/// above); returns the data packets that left a NIC outside their slot
/// (in the guard, or in a slot where their source or destination already
/// had one) and the packets that left the NICs.
fn matching_run(guard: f64) -> (usize, usize) {
    let mut s = websearch(400);
    s.workload.load = 0.8;
    s.params.fastpass.epoch_guard_slots = guard;
    let net = build(&s.topology);
    let gen = FlowGenerator::new(&s.workload, &net, s.switching, s.seed);
    let cfg = sim_config(&s, &gen, &net, true);
    let params = s.params.fastpass.clone();
    let mut proto = Fastpass::new(params.clone(), &net);
    proto.log_sends = true;
    let (slot, epoch) = (proto.slot_time().ps(), proto.epoch_time().ps());
    let q = PortSetup::of(ProtocolName::Fastpass, &s.params).queue().unwrap();
    let mut sim = Simulation::new(net.clone(), |_, _| q.clone(), proto, gen, cfg);
    sim.trace.enabled = true;
    // When each data packet left a source's NIC: (time, flow).
    let mut nic_sends: Vec<(u64, FlowId, NodeId)> = Vec::new();
    loop {
        let more = sim.run_events(200_000);
        for e in sim.trace.drain() {
            if let TraceKind::Dequeue { port, flow, kind: PacketKind::Data, .. } = e.kind {
                let spec = &net.ports[port.idx()];
                if spec.role == PortRole::HostNic {
                    nic_sends.push((e.t_ps, flow, spec.node));
                }
            }
        }
        if !more {
            break;
        }
    }
    assert_eq!(sim.stopped(), Some(StopReason::AllFlowsDone));
    let flows: HashMap<u32, (u32, u32)> = sim.records.iter().map(|r| (r.id, (r.src, r.dst))).collect();

    // What the arbiter granted and the sources used: every data packet sent.
    let sends = &sim.proto.sends;
    assert_eq!(sends.len() as u64, sim.counters.data_sent);
    let mut by_src = HashSet::new();
    let mut by_dst = HashSet::new();
    let mut per_slot: HashMap<u64, u32> = HashMap::new();
    for x in sends {
        assert!(by_src.insert((x.slot, x.src)), "host {} sends two packets in slot {}", x.src.0, x.slot);
        assert!(by_dst.insert((x.slot, x.dst)), "host {} receives two packets in slot {}", x.dst.0, x.slot);
        *per_slot.entry(x.slot).or_default() += 1;
    }
    let busiest = per_slot.values().max().copied().unwrap_or(0);
    eprintln!("{} data packets in {} slots, at most {busiest} in one slot", sends.len(), per_slot.len());
    assert!(busiest >= 40, "the run should load the arbiter (busiest slot {busiest} packets)");

    // When the packets actually left the NICs: each inside one slot of an
    // epoch (never in the guard), one per source and one per destination.
    // The arbiter's own host is left out: its grants go ahead of its data
    // on its NIC, so its packets can leave later than their slots. Every
    // packet sent left its NIC, or was dropped there, or was still in the
    // network when the last flow completed (a packet sent again whose
    // first copy got through).
    let (nic_drops, left) = (sim.counters.data_dropped[0], sim.counters.data_in_flight);
    eprintln!("data packets dropped at the sources' NICs: {nic_drops}; in the network at the end: {left}");
    assert!(nic_sends.len() as u64 + nic_drops + left >= sends.len() as u64 && nic_sends.len() <= sends.len());
    assert!((nic_drops + left) * 1000 < sends.len() as u64, "{nic_drops} NIC drops, {left} left");
    let arbiter = NodeId(params.arbiter_host);
    let mut by_src = HashSet::new();
    let mut by_dst = HashSet::new();
    let (mut checked, mut late) = (0, Vec::new());
    for &(t, flow, src) in &nic_sends {
        let (fsrc, dst) = flows[&flow.0];
        assert_eq!(fsrc, src.0);
        if src == arbiter {
            continue;
        }
        let (e, r) = (t / epoch, t % epoch);
        let i = r / slot;
        let global = e * params.epoch_slots as u64 + i;
        checked += 1;
        if i >= params.epoch_slots as u64 {
            late.push(format!("host {} sent at {t} ps, in the guard of epoch {e}", src.0));
        } else if !by_src.insert((global, src.0)) {
            late.push(format!("host {} put two packets on the wire in slot {global}", src.0));
        } else if !by_dst.insert((global, dst)) {
            late.push(format!("host {dst} was sent two packets in slot {global}"));
        }
    }
    assert!(checked > sends.len() * 9 / 10, "checked {checked} of {}", sends.len());
    eprintln!(
        "guard {guard}: {} of {} packets left their NIC outside their slot{}",
        late.len(),
        nic_sends.len(),
        late.first().map_or(String::new(), |x| format!(" (first: {x})"))
    );
    (late.len(), nic_sends.len())
}

#[test]
fn no_flow_finishes_before_one_epoch_and_a_round_trip() {
    // A flow's request must reach the arbiter (at least the link delays
    // from its source to the arbiter's host); the arbiter allocates at the
    // next epoch boundary the epoch after it, so the first slot begins at
    // least one epoch after the request arrived; then the data needs at
    // least its ideal FCT (serialization and the path to the receiver).
    let s = websearch(300);
    let net = build(&s.topology);
    let fp = Fastpass::new(s.params.fastpass.clone(), &net);
    let epoch = fp.epoch_time();
    let arbiter = NodeId(s.params.fastpass.arbiter_host);
    let o = run_ok(&s, RunOptions::default());
    let mut short = 0;
    for r in &o.records {
        let fct = r.fct().expect("every flow completes");
        let bound = epoch + path_delay(&net, NodeId(r.src), arbiter) + r.ideal;
        assert!(
            fct >= bound,
            "flow {} ({} B, {} -> {}): fct {:?} < epoch {:?} + request {:?} + ideal {:?}",
            r.id,
            r.size,
            r.src,
            r.dst,
            fct,
            epoch,
            path_delay(&net, NodeId(r.src), arbiter),
            r.ideal
        );
        if r.size < 100_000 {
            short += 1;
        }
    }
    assert!(short > 100, "the web search workload has many short flows ({short})");
}

#[test]
fn a_lone_one_packet_flow_waits_between_one_and_two_epochs() {
    // Alone in the network: the request arrives, the arbiter waits for the
    // next boundary (less than an epoch), allocates the epoch after it, and
    // the packet leaves in its first slot. So OPT + epoch <= FCT <
    // OPT + 2 epochs + the request's trip.
    let mut s = Scenario::from_json(
        r#"{"name":"test-lone-fastpass","protocol":"fastpass","topology":{"kind":"leaf_spine"},
            "workload":{"matrix":{"kind":"incast","senders":1,"request_packets":1,"receiver":143}}}"#,
    )
    .unwrap();
    for seed in 1..6 {
        s.seed = seed;
        let net = build(&s.topology);
        let epoch = Fastpass::new(s.params.fastpass.clone(), &net).epoch_time();
        let o = run_ok(&s, RunOptions { trace: false, audit: true });
        let r = &o.records[0];
        let fct = r.fct().unwrap();
        // The request is a 40-B packet: its trip is at most the 1500-B
        // data packet's ideal time over the longest path here.
        let lo = epoch + r.ideal;
        let hi = SimTime::from_ps(2 * epoch.ps()) + r.ideal + r.ideal;
        eprintln!("seed {seed}: {} -> {}, fct {:?}, ideal {:?}, epoch {:?}", r.src, r.dst, fct, r.ideal, epoch);
        assert!(fct >= lo && fct < hi, "seed {seed}: fct {fct:?} not in [{lo:?}, {hi:?})");
        assert_eq!(o.counters.data_sent, 1);
        // Request, grant, ACK.
        assert_eq!(o.counters.control_sent, 3);
    }
}

#[test]
fn starting_on_the_grant_saves_one_epoch_less_the_grant_trip() {
    // `start_on_grant` (the pHost authors' simulator): the lone packet
    // leaves as the grant arrives instead of at its slot of the epoch
    // allocated ahead, so its FCT is shorter by exactly one epoch less the
    // grant's trip from the arbiter's host (a 40-B packet: the path's link
    // delays plus at most 4 hops of 40 B at 10 Gbps, 32 ns each).
    let base = Scenario::from_json(
        r#"{"name":"test-lone-fastpass","protocol":"fastpass","topology":{"kind":"leaf_spine"},
            "workload":{"matrix":{"kind":"incast","senders":1,"request_packets":1,"receiver":143}}}"#,
    )
    .unwrap();
    for seed in 1..6 {
        let mut slot = base.clone();
        slot.seed = seed;
        let mut grant = slot.clone();
        grant.params.fastpass.start_on_grant = true;
        let net = build(&slot.topology);
        let epoch = Fastpass::new(slot.params.fastpass.clone(), &net).epoch_time();
        let (a, b) = (run_ok(&slot, RunOptions::default()), run_ok(&grant, RunOptions { trace: false, audit: true }));
        let (ra, rb) = (&a.records[0], &b.records[0]);
        assert_eq!((ra.src, ra.dst), (rb.src, rb.dst));
        let trip_max = path_delay(&net, NodeId(slot.params.fastpass.arbiter_host), NodeId(ra.src)) + SimTime::from_ns(4 * 32);
        let saved = ra.fct().unwrap() - rb.fct().unwrap();
        assert!(saved <= epoch && saved + trip_max >= epoch, "seed {seed}: saved {saved:?}, epoch {epoch:?}, grant trip at most {trip_max:?}");
        assert_eq!((b.counters.data_sent, b.counters.control_sent), (1, 3));
    }
    // Loaded: still every packet conserved and every flow complete.
    let mut s = websearch(1000);
    s.params.fastpass.start_on_grant = true;
    let o = run_ok(&s, RunOptions { trace: false, audit: true });
    assert_eq!(o.stop, StopReason::AllFlowsDone);
    let c = &o.counters;
    assert_eq!(c.data_sent, c.data_delivered + c.data_dropped.iter().sum::<u64>() + c.data_in_flight);
}

#[test]
fn websearch_1000_flows_at_load_06_all_complete_and_conserve_packets() {
    let s = websearch(1000);
    assert_eq!(s.workload.load, 0.6);
    let o = run_ok(&s, RunOptions { trace: false, audit: true });
    let c = &o.counters;
    eprintln!(
        "fastpass websearch 1000: mean slowdown {:.3} (short {:.3}), sent {} delivered {} dropped {:?} in flight {}, control {}",
        o.summary.all.mean_slowdown, o.summary.short.mean_slowdown, c.data_sent, c.data_delivered, c.data_dropped, c.data_in_flight, c.control_sent
    );
    assert_eq!(o.stop, StopReason::AllFlowsDone);
    assert_eq!(o.summary.completed, 1000);
    assert!(o.records.iter().all(|r| r.end.is_some()));
    let dropped: u64 = c.data_dropped.iter().sum();
    assert_eq!(c.data_sent, c.data_delivered + dropped + c.data_in_flight);
    assert_eq!(c.data_bytes_sent, c.data_bytes_delivered + c.data_bytes_dropped + c.data_bytes_in_flight);
    let need: u64 = o.records.iter().map(|r| r.size.div_ceil(1460)).sum();
    assert!(c.data_delivered >= need);
    assert!(o.records.iter().all(|r| r.slowdown().unwrap() >= 1.0));
    // The schedule is contention-free at the hosts: the little loss there
    // is comes from the fabric.
    assert!(o.summary.drop_rate < 0.001, "drop rate {}", o.summary.drop_rate);
}

#[test]
fn losses_are_recovered() {
    // Tiny buffers (three packets per port) force drops in the fabric, where
    // spraying still lets packets meet; every flow must still complete,
    // with exactly its bytes delivered (the audit).
    let mut s = websearch(200);
    s.params.fastpass.buffer_bytes = 4500;
    let o = run_ok(&s, RunOptions { trace: false, audit: true });
    let dropped: u64 = o.counters.data_dropped.iter().sum();
    eprintln!("buffer 4500 B: {dropped} data drops {:?}, control drops {:?}", o.counters.data_dropped, o.counters.control_dropped);
    assert!(dropped > 0, "the test needs losses");
    assert_eq!(o.stop, StopReason::AllFlowsDone);
    assert_eq!(o.summary.completed, 200);
}

#[test]
fn bad_parameters_are_rejected_naming_the_field() {
    assert_rejected_naming(
        [
            (r#"{"epoch_slots":0}"#, "params.fastpass.epoch_slots"),
            (r#"{"epoch_slots":33}"#, "params.fastpass.epoch_slots"),
            (r#"{"buffer_bytes":100}"#, "params.fastpass.buffer_bytes"),
            (r#"{"arbiter_host":144}"#, "params.fastpass.arbiter_host"),
            (r#"{"arbiter_processing_us":-1}"#, "params.fastpass.arbiter_processing_us"),
            (r#"{"clock_skew_ns":-5}"#, "params.fastpass.clock_skew_ns"),
            (r#"{"retransmit_timeout_us":0}"#, "params.fastpass.retransmit_timeout_us"),
            (r#"{"epoch_guard_slots":-0.5}"#, "params.fastpass.epoch_guard_slots"),
            (r#"{"epoch_slot":8}"#, "epoch_slot"),
        ]
        .map(|(params, field)| (format!(r#"{{"name":"x","protocol":"fastpass","params":{{"fastpass":{params}}}}}"#), field)),
    );
    let e = Scenario::from_json(r#"{"name":"x","params":{"fastpass":{"epoch_slots":0}}}"#).unwrap_err();
    assert_eq!(e, "params.fastpass.epoch_slots: must be at least 1, got 0");
}

#[test]
fn processing_time_and_clock_skew_are_honoured() {
    // A processing time delays every grant, so short flows slow down; a
    // clock skew lets sources miss slots, and everything still completes.
    let base = run_ok(&websearch(300), RunOptions::default());
    let mut s = websearch(300);
    s.params.fastpass.arbiter_processing_us = 20.0;
    let slow = run_ok(&s, RunOptions::default());
    eprintln!("short flows: mean FCT {:.2} us at 0 us processing, {:.2} us at 20 us", base.summary.short.afct_us, slow.summary.short.afct_us);
    assert!(slow.summary.short.afct_us > base.summary.short.afct_us + 15.0);
    let mut s = websearch(300);
    s.params.fastpass.clock_skew_ns = 500.0;
    let skewed = run_ok(&s, RunOptions { trace: false, audit: true });
    assert_eq!(skewed.stop, StopReason::AllFlowsDone);
    assert_ne!(skewed.records, base.records, "the skew changes the run");
}
