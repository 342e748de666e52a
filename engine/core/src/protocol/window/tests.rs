//! The receiver's delayed ACKs and DCTCP's initial alpha in isolation:
//! the transport is driven by hand (packets and timers in, actions
//! out), with no network in between.
use super::*;
use crate::net::topology::{build, TopologySpec};
use crate::protocol::testing;
use crate::protocol::window::controller::Controller;

/// Drives a [`WindowTransport`] (DCTCP with the parameters given).
type Harness = testing::Harness<WindowTransport>;

fn harness(dctcp_params: &str) -> Harness {
    let p: DctcpParams = serde_json::from_str(dctcp_params).unwrap();
    Harness::new(build(&TopologySpec::default()), WindowTransport::new(WindowConfig::dctcp(&p, false)))
}

/// Data packet `seq` of flow 0 (host 0 to host 1) reaches its receiver
/// at `now`, CE-marked or not; returns the ACKs sent.
fn deliver(h: &mut Harness, now: SimTime, seq: u32, ce: bool) -> Vec<WindowHeader> {
    let mut p = Packet::new(FlowId(0), NodeId(0), NodeId(1), PacketKind::Data, seq, 1500);
    p.ecn = crate::packet::Ecn { capable: true, ce };
    p.sent_at = now;
    p.header = Header::new(WindowHeader::default());
    h.at(now, |x, io| x.on_packet(p, io)).iter().map(header_of).collect()
}

/// Fires every armed timer up to `until`; returns the ACKs sent, with
/// their times.
fn acks_from_timers(h: &mut Harness, until: SimTime) -> Vec<(SimTime, WindowHeader)> {
    h.run_timers(until).iter().map(|(t, p)| (*t, header_of(p))).collect()
}

fn header_of(p: &Packet) -> WindowHeader {
    assert_eq!(p.kind, PacketKind::Ack);
    p.header.read()
}

/// A flow of `pkts` full packets from host 0 to host 1, arriving at 0.
fn flow(pkts: u64) -> FlowSpec {
    testing::flow(0, 0, 1, pkts)
}

fn us(x: f64) -> SimTime {
    SimTime::from_us_f64(x)
}

const DELAYED: &str = r#"{"profile":"testbed_kernel"}"#;

#[test]
fn delayed_acks_acknowledge_every_second_packet_of_a_bulk_flow() {
    // RFC 1122 4.2.3.2 / RFC 5681 4.2: an ACK for every second
    // full-sized segment. 100 packets in order: 50 ACKs, each for the
    // pair it completes; without delayed ACKs, 100.
    for (params, acks_expected) in [(DELAYED, 50), ("{}", 100)] {
        let mut h = harness(params);
        h.proto.add_flow(&flow(100), &h.net);
        let mut acks = Vec::new();
        for seq in 0..100 {
            acks.extend(deliver(&mut h, us(seq as f64), seq, false));
        }
        assert_eq!(acks.len(), acks_expected, "{params}");
        if acks_expected == 50 {
            for (k, a) in acks.iter().enumerate() {
                assert_eq!((a.cum_ack, a.sack, a.ece), (2 * k as u32 + 2, 2 * k as u32 + 1, false));
            }
        }
        assert!(acks_from_timers(&mut h, us(1e6)).is_empty(), "nothing held back after an even number of packets");
    }
}

#[test]
fn a_lone_packet_is_acknowledged_after_the_delayed_ack_timeout() {
    // Linux's TCP_DELACK_MIN: 40 ms after the packet, not before.
    let mut h = harness(DELAYED);
    h.proto.add_flow(&flow(10), &h.net);
    assert!(deliver(&mut h, us(5.0), 0, false).is_empty(), "held back");
    assert!(acks_from_timers(&mut h, us(5.0 + 39_999.0)).is_empty());
    let acks = acks_from_timers(&mut h, us(1e6));
    assert_eq!(acks.len(), 1);
    assert_eq!(acks[0].0, us(5.0 + 40_000.0));
    assert_eq!((acks[0].1.cum_ack, acks[0].1.sack), (1, 0));
    // An explicit timeout overrides Linux's.
    let mut h = harness(r#"{"profile":"testbed_kernel","delayed_ack_timeout_us":500}"#);
    h.proto.add_flow(&flow(10), &h.net);
    deliver(&mut h, SimTime::ZERO, 0, false);
    assert_eq!(acks_from_timers(&mut h, us(1e6)).iter().map(|a| a.0).collect::<Vec<_>>(), [us(500.0)]);
}

#[test]
fn a_second_packet_cancels_the_timer_and_a_later_lone_one_gets_its_own() {
    let mut h = harness(DELAYED);
    h.proto.add_flow(&flow(10), &h.net);
    deliver(&mut h, us(0.0), 0, false);
    assert_eq!(deliver(&mut h, us(1.0), 1, false).len(), 1);
    // Packet 2 is held from t = 30 ms: its ACK goes at 70 ms, not at the
    // first packet's 40 ms.
    assert!(deliver(&mut h, us(30_000.0), 2, false).is_empty());
    let acks = acks_from_timers(&mut h, us(1e6));
    assert_eq!(acks.iter().map(|a| (a.0, a.1.cum_ack)).collect::<Vec<_>>(), [(us(70_000.0), 3)]);
}

#[test]
fn a_ce_change_is_acknowledged_at_once_after_the_held_ack() {
    // RFC 8257 section 3.2: an ACK at once when the CE state changes;
    // Linux (dctcp_ece_ack_update) first sends the ACK held back with
    // the old state, so each ACK's ECE covers only packets of its state.
    let mut h = harness(DELAYED);
    h.proto.add_flow(&flow(10), &h.net);
    assert!(deliver(&mut h, us(0.0), 0, false).is_empty());
    let acks = deliver(&mut h, us(1.0), 1, true);
    let got: Vec<(u32, u32, bool)> = acks.iter().map(|a| (a.cum_ack, a.sack, a.ece)).collect();
    assert_eq!(got, [(1, 0, false), (2, 1, true)], "held ACK with the old state, then this packet's at once");
    // Still marked: back to one ACK per two packets, ECE set.
    assert!(deliver(&mut h, us(2.0), 2, true).is_empty());
    assert_eq!(deliver(&mut h, us(3.0), 3, true).iter().map(|a| (a.cum_ack, a.ece)).collect::<Vec<_>>(), [(4, true)]);
    // Unmarked again, nothing held: this packet's ACK at once.
    assert_eq!(deliver(&mut h, us(4.0), 4, false).iter().map(|a| (a.cum_ack, a.ece)).collect::<Vec<_>>(), [(5, false)]);
    assert!(acks_from_timers(&mut h, us(1e6)).is_empty());
}

#[test]
fn out_of_order_and_duplicate_packets_are_acknowledged_at_once() {
    // RFC 5681 section 4.2: at once for an out-of-order segment, one
    // that fills a gap, and (Linux) while data wait out of order.
    let mut h = harness(DELAYED);
    h.proto.add_flow(&flow(10), &h.net);
    assert_eq!(deliver(&mut h, us(0.0), 1, false).iter().map(|a| (a.cum_ack, a.sack)).collect::<Vec<_>>(), [(0, 1)]);
    assert_eq!(deliver(&mut h, us(1.0), 0, false).iter().map(|a| (a.cum_ack, a.sack)).collect::<Vec<_>>(), [(2, 0)], "fills the gap");
    assert!(deliver(&mut h, us(2.0), 2, false).is_empty(), "in order again: held");
    assert_eq!(deliver(&mut h, us(3.0), 0, false).iter().map(|a| a.cum_ack).collect::<Vec<_>>(), [3], "a duplicate, covering the held one");
}

#[test]
fn the_first_cut_follows_the_profiles_initial_alpha() {
    // DCTCP paper section 3.2: the first window of marks updates alpha
    // = (1 - g) alpha_0 + g F and cuts cwnd by alpha / 2. With every ACK
    // marked (F = 1): Linux's alpha_0 = 1 halves the window; the ns-2
    // scripts' alpha_0 = 0 gives alpha = g = 1/16, a cut of 1/32.
    let first_cut = |params: &str| {
        let mut h = harness(params);
        h.at(SimTime::ZERO, |x, io| {
            let f = flow(100);
            x.prepare_receiver(&f);
            x.on_flow_arrival(&f, io)
        });
        let cwnd0 = h.proto.senders.get(0).unwrap().cc.window();
        let a = ack_packet(FlowId(0), NodeId(1), NodeId(0), 0, 1, 0, true, SimTime::ZERO);
        h.at(us(10.0), |x, io| x.on_packet(a, io));
        let s = h.proto.senders.get(0).unwrap();
        (cwnd0, s.cc.alpha().unwrap(), s.cc.window())
    };
    let (w0, alpha_linux, w_linux) = first_cut(r#"{"profile":"linux"}"#);
    let (_, alpha_ns2, w_ns2) = first_cut(r#"{"profile":"ns2"}"#);
    assert_eq!(w0, 12.0);
    assert_eq!((alpha_linux, w_linux), (1.0, 6.0));
    assert_eq!((alpha_ns2, w_ns2), (1.0 / 16.0, 12.0 * (1.0 - 1.0 / 32.0)));
    // An explicit initial_alpha overrides the profile.
    let (_, alpha, _) = first_cut(r#"{"profile":"ns2","initial_alpha":1}"#);
    assert_eq!(alpha, 1.0);
    // A cut of a 2-packet window by alpha / 2 = 1/2: one packet in the
    // simulations' profiles, Linux's floor of 2 (dctcp_ssthresh) in the
    // kernel's.
    assert_eq!(first_cut(r#"{"profile":"linux","init_cwnd":2}"#).2, 1.0);
    assert_eq!(first_cut(r#"{"profile":"testbed_kernel","init_cwnd":2}"#).2, 2.0);
    assert_eq!(first_cut(r#"{"profile":"testbed_kernel","init_cwnd":2,"min_cwnd_after_cut":1}"#).2, 1.0);
}

/// The default leaf-spine (hosts 0 to 15 in rack 0) with TCP and
/// per-packet spraying: does a flow from host 0 to `dst` take its first
/// packet for lost (enter fast recovery) after three duplicate ACKs
/// (RFC 5681)?
fn sprayed_tcp_recovers_after_three_dupacks(dst: u32) -> bool {
    let mut h = testing::Harness::new(build(&TopologySpec::default()), WindowTransport::new(WindowConfig::tcp(&TcpParams::default(), true)));
    h.proto.add_flow(&testing::flow(0, 0, dst, 100), &h.net);
    let sent = h.at(SimTime::ZERO, |x, io| x.send_window(FlowId(0), io));
    assert_eq!(sent.len(), 12, "the initial window");
    for k in 1..=3u32 {
        let ack = ack_packet(FlowId(0), NodeId(dst), NodeId(0), k, 0, k, false, SimTime::ZERO);
        h.at(us(20.0 + k as f64), |x, io| x.on_packet(ack, io));
    }
    h.proto.senders.get(0).unwrap().in_recovery
}

#[test]
fn the_dupack_threshold_grows_with_the_window_only_where_a_flow_has_several_paths() {
    // pFabric ns-2 scripts: `dynamic_dupack_ 0.75` with spraying, "set
    // dupack threshold to max(3, dynamic_dupack_ * cwnd)" (tcp-full.h):
    // max(3, 0.75 x 12) = 9 across racks, where spraying reorders. Within
    // one rack there is one path, no reordering, and RFC 5681's 3 stands.
    let hosts_per_rack = match TopologySpec::default() {
        TopologySpec::LeafSpine { hosts_per_rack, .. } => hosts_per_rack,
        _ => unreachable!("the default topology is a leaf-spine"),
    };
    assert!(sprayed_tcp_recovers_after_three_dupacks(1), "same rack: one path");
    assert!(!sprayed_tcp_recovers_after_three_dupacks(hosts_per_rack), "other rack: one path per spine");
}

#[test]
fn only_an_ack_that_moves_the_cumulative_point_restarts_the_timer() {
    // RFC 6298 section 5.3: "When an ACK is received that acknowledges new
    // data, restart the retransmission timer". Packet 0 is lost and never
    // retransmitted by duplicate ACKs (threshold out of reach); packets 1,
    // 2, ... are SACKed every 50 us with a 20 us round trip. The timer set
    // when packet 0 left (RTO = the 200 us minimum) fires at 200 us
    // (restarted on SACK news, it moved on with every ACK and never fired).
    let mut h = harness(r#"{"dupack_threshold": 1000}"#);
    h.proto.add_flow(&flow(100), &h.net);
    let sent = h.at(SimTime::ZERO, |x, io| x.send_window(FlowId(0), io));
    assert_eq!(sent.first().map(|p| p.seq), Some(0));
    let mut resent_at = None;
    for k in 1..12u32 {
        let now = us(50.0 * k as f64);
        if let Some((t, _)) = h.run_timers(now).into_iter().find(|(_, p)| p.kind == PacketKind::Data && p.seq == 0) {
            resent_at = Some(t);
            break;
        }
        let ack = ack_packet(FlowId(0), NodeId(1), NodeId(0), k, 0, k, false, now - us(20.0));
        h.at(now, |x, io| x.on_packet(ack, io));
    }
    assert_eq!(resent_at, Some(us(200.0)), "the timeout retransmits packet 0 one RTO after it was sent");
}
