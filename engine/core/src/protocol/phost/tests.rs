//! Each mechanism in isolation: the protocol is driven by hand (packets
//! and timers in, actions out), with no network in between.
use super::*;
use crate::net::topology::{build, TopologySpec};
use crate::protocol::testing;
use crate::protocol::testing::flow;

/// Drives a [`Phost`] on the default leaf-spine (10 Gbps hosts: one
/// MTU-time is 1.2 us).
type Harness = testing::Harness<Phost>;

const MTU_PS: u64 = 1_200_000;

/// A harness with pHost's parameters `params` (JSON).
fn harness(params: &str) -> Harness {
    let net = build(&TopologySpec::default());
    let p: PhostParams = serde_json::from_str(params).unwrap();
    let mtu = (0..net.n_hosts).map(|_| SimTime::from_ps(MTU_PS)).collect();
    Harness::new(net, Phost::new(p, mtu))
}

/// Control events named `what` traced since the last drain.
fn traced(h: &mut Harness, what: &str) -> usize {
    h.trace.drain().iter().filter(|e| matches!(e.kind, TraceKind::Control { what: w, .. } if w.name == what)).count()
}

/// A token for `flow`, as destination `dst` would send it to `src`.
fn token(flow: u32, src: u32, dst: u32, number: u32, seq: u32, remaining: u32) -> Packet {
    let h = PhostHeader { token: number, count: remaining, tenant: 0, class: 2, msg: PhostMsg::Token };
    Phost::control(FlowId(flow), NodeId(dst), NodeId(src), seq, h, PacketKind::Control)
}

#[test]
fn a_token_the_source_cannot_use_in_time_expires() {
    // pHost section 3.2: a token is void 1.5 MTU-times after the source
    // gets it. Three flows of one source get a token each at t = 0; the
    // NIC sends one packet per MTU-time, so the third token (the flow
    // with most remaining packets, served last by SRPT) would go out at
    // 2 MTU-times, after its expiry.
    let mut h = harness(r#"{"free_tokens":0}"#);
    for f in 0..3 {
        h.at(SimTime::ZERO, |x, io| {
            let f = flow(f, 0, 10 + f, 100);
            x.prepare_receiver(&f);
            x.on_flow_arrival(&f, io)
        });
    }
    h.trace.drain();
    let mut data = Vec::new();
    for f in 0..3 {
        data.extend(h.at(SimTime::ZERO, |x, io| x.on_packet(token(f, 0, 10 + f, 0, 0, 50 + f), io)));
    }
    data.extend(h.run_timers(SimTime::from_ps(10 * MTU_PS)).into_iter().map(|(_, p)| p));
    let flows: Vec<u32> = data.iter().filter(|p| p.kind == PacketKind::Data).map(|p| p.flow.0).collect();
    assert_eq!(flows, vec![0, 1], "SRPT order, and the third token expired unused");
    assert_eq!(traced(&mut h, "token_expired"), 1);
}

/// The destination side of a 100-packet flow 0 from host 0 to host 20:
/// it arrives at its source and its RTS at the destination at t = 0
/// (the packets the source sends are not delivered).
fn sink_harness(params: &str) -> Harness {
    let mut h = harness(params);
    h.at(SimTime::ZERO, |x, io| {
        let f = flow(0, 0, 20, 100);
        x.prepare_receiver(&f);
        x.on_flow_arrival(&f, io)
    });
    let hd = PhostHeader { token: 0, count: 100, tenant: 0, class: 0, msg: PhostMsg::Rts };
    let rts = Phost::control(FlowId(0), NodeId(0), NodeId(20), 0, hd, PacketKind::Control);
    h.at(SimTime::ZERO, |x, io| x.on_packet(rts, io));
    h
}

#[test]
fn unanswered_tokens_downgrade_the_flow_until_the_downgrade_time_passes() {
    // pHost section 3.2: after a BDP (8) of unanswered tokens the
    // destination stops granting the flow; the authors' downgrade time
    // is 25 MTU-times after the last token, then one more token.
    let mut h = sink_harness(r#"{"free_tokens":0,"downgrade_window":8,"downgrade_mtu":25}"#);
    let tokens = h.run_timers(SimTime::from_ps(60 * MTU_PS));
    let times: Vec<f64> = tokens.iter().map(|(t, _)| t.ps() as f64 / MTU_PS as f64).collect();
    assert!(tokens.len() >= 9, "tokens at {times:?}");
    // The first 8 go one token interval (1540 B) apart...
    for w in times[..8].windows(2) {
        assert!((w[1] - w[0] - 1540.0 / 1500.0).abs() < 1e-6, "{times:?}");
    }
    // ...then nothing until 25 MTU-times after the 8th, then exactly one.
    assert!((times[8] - times[7] - 25.0).abs() < 1e-6, "9th token at {} after the 8th at {}", times[8], times[7]);
    if tokens.len() > 9 {
        assert!(times[9] - times[8] >= 25.0 - 1e-6, "{times:?}");
    }
    assert!(traced(&mut h, "downgrade") >= 1);
    // Answered tokens lift the downgrade at once.
    let mut h = sink_harness(r#"{"free_tokens":0,"downgrade_window":8,"downgrade_mtu":25}"#);
    let tokens = h.run_timers(SimTime::from_ps(10 * MTU_PS));
    assert_eq!(tokens.len(), 8);
    let answer = |seq: u32, number: u32| {
        let hd = PhostHeader { token: number, count: 100, tenant: 0, class: 2, msg: PhostMsg::Data };
        let mut p = Packet::new(FlowId(0), NodeId(0), NodeId(20), PacketKind::Data, seq, 1500);
        p.header = Header::new(hd);
        p
    };
    let t = SimTime::from_ps(11 * MTU_PS);
    h.at(t, |x, io| x.on_packet(answer(tokens[7].1.seq, 7), io));
    let more = h.run_timers(t + SimTime::from_ps(2 * MTU_PS));
    assert!(!more.is_empty() && more[0].0 == t, "an answer to the 8th token frees the flow at once: {more:?}");
}

#[test]
fn without_data_priorities_every_data_packet_goes_at_one_level_below_control() {
    // pHost section 4.4: "we turn off data packet priorities (all
    // packets go at the same priority)". A 5-packet and a 100-packet
    // flow (short and long: 69 packets is the threshold) from host 0
    // get tokens and send; the data's sub-queue is 2 for the long flow
    // with priorities, 1 for both without; control stays at 0.
    for (json, long_class) in [(r#"{"free_tokens":0}"#, 2u8), (r#"{"free_tokens":0,"data_priorities":false}"#, 1)] {
        let mut h = harness(json);
        for (f, pkts) in [(0u32, 5u64), (1, 100)] {
            h.at(SimTime::ZERO, |x, io| {
                let f = flow(f, 0, 20 + f, pkts);
                x.prepare_receiver(&f);
                x.on_flow_arrival(&f, io)
            });
            let hd = PhostHeader { token: 0, count: pkts as u32, tenant: 0, class: 0, msg: PhostMsg::Rts };
            let rts = Phost::control(FlowId(f), NodeId(0), NodeId(20 + f), 0, hd, PacketKind::Control);
            h.at(SimTime::ZERO, |x, io| x.on_packet(rts, io));
        }
        let tokens = h.run_timers(SimTime::from_ps(2 * MTU_PS));
        assert!(tokens.len() >= 2 && tokens.iter().all(|(_, t)| t.kind == PacketKind::Control && t.class == 0), "tokens at the highest priority");
        let mut data = Vec::new();
        for (at, t) in tokens {
            data.extend(h.at(at, |x, io| x.on_packet(t, io)));
        }
        data.extend(h.run_timers(SimTime::from_ps(10 * MTU_PS)).into_iter().map(|x| x.1));
        let mut classes: Vec<(u32, u8)> = data.iter().filter(|p| p.kind == PacketKind::Data).map(|p| (p.flow.0, p.class)).collect();
        classes.sort();
        classes.dedup();
        assert_eq!(classes, vec![(0, 1), (1, long_class)], "{json}");
    }
}

#[test]
fn a_lost_packet_is_named_again_after_the_receiver_timeout() {
    // pHost section 3.2: once every packet has been named, the
    // destination waits the receiver timeout (9 MTU-times, the authors'
    // value) and names the packets still missing.
    let mut h = harness(r#"{"free_tokens":0,"receiver_timeout_mtu":9}"#);
    h.at(SimTime::ZERO, |x, io| {
        let f = flow(0, 0, 20, 5);
        x.prepare_receiver(&f);
        x.on_flow_arrival(&f, io)
    });
    let hd = PhostHeader { token: 0, count: 5, tenant: 0, class: 0, msg: PhostMsg::Rts };
    let rts = Phost::control(FlowId(0), NodeId(0), NodeId(20), 0, hd, PacketKind::Control);
    h.at(SimTime::ZERO, |x, io| x.on_packet(rts, io));
    // Five tokens; the data for all but packet 3 arrives.
    let tokens = h.run_timers(SimTime::from_ps(8 * MTU_PS));
    let named: Vec<u32> = tokens.iter().map(|x| x.1.seq).collect();
    let last = tokens.last().unwrap().0;
    for (at, tok) in &tokens {
        if tok.seq != 3 {
            let mut p = Packet::new(FlowId(0), NodeId(0), NodeId(20), PacketKind::Data, tok.seq, 1500);
            let number = tok.header.read::<PhostHeader>().token;
            p.header = Header::new(PhostHeader { token: number, count: 5, tenant: 0, class: 2, msg: PhostMsg::Data });
            h.at(*at + SimTime::from_ps(MTU_PS), |x, io| x.on_packet(p, io));
        }
    }
    assert_eq!(named, vec![0, 1, 2, 3, 4]);
    // Within the next 15 MTU-times: one more timeout (it repeats every
    // 9 MTU-times while the packet stays missing).
    let again = h.run_timers(last + SimTime::from_ps(15 * MTU_PS));
    assert_eq!(again.len(), 1, "only the lost packet is named again: {:?}", again.iter().map(|x| x.1.seq).collect::<Vec<_>>());
    assert_eq!(again[0].1.seq, 3);
    assert!((again[0].0 - last).ps() as f64 / MTU_PS as f64 >= 9.0 - 1e-9, "re-issued before the receiver timeout");
    assert_eq!(traced(&mut h, "receiver_timeout"), 1);
}
