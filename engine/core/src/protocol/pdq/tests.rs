//! Each switch rule in isolation, on one 1 Gbps port (rate controller
//! off so that the capacity stays C).
use super::pdq_flags;
use super::*;

const C: f64 = 1e9;
const RTT: u64 = 100_000_000; // 100 us in ps
const MS: u64 = 1_000_000_000;

fn cfg(variant: &str) -> SwitchConfig {
    SwitchConfig::new(&PdqParams { rate_control: false, ..PdqParams::variant(variant).unwrap() })
}
fn hdr(t_rtts: f64) -> PdqHeader {
    PdqHeader { rate_bps: C as f32, aux: (t_rtts * RTT as f64 / 1000.0) as u32, pauseby: 0, probe_tenths: 10, flags: 0 }
}
fn us(x: u64) -> SimTime {
    SimTime::from_us(x)
}
/// One round trip of `flow` through the port: forward, then the ACK
/// back (Algorithm 3) with the header as the forward path left it.
fn trip(port: &mut PdqPort, flow: u32, mut h: PdqHeader, deadline: u64, now: SimTime, c: &SwitchConfig) -> (Decision, PdqHeader) {
    let d = port.forward(flow, &mut h, deadline, RTT, now, c);
    port.reverse(flow, &mut h, c);
    (d, h)
}
fn accepted(d: Decision) -> bool {
    matches!(d, Decision::Accept { .. })
}

#[test]
fn a_more_critical_flow_preempts() {
    let c = cfg("basic");
    let mut port = PdqPort::new(0, C, &c);
    let (d, _) = trip(&mut port, 1, hdr(50.0), 20 * MS, us(0), &c);
    assert!(accepted(d), "{d:?}");
    // A flow with a later deadline does not get in...
    let (d, h) = trip(&mut port, 3, hdr(5.0), 30 * MS, us(1), &c);
    assert_eq!((d, h.rate_bps, h.pauseby), (Decision::Pause { newly: true }, 0.0, port.tag));
    // ...one with an earlier deadline takes the whole link,
    let (d, h) = trip(&mut port, 2, hdr(50.0), 10 * MS, us(2), &c);
    assert!(accepted(d) && h.rate_bps as f64 == C, "{d:?} {h:?}");
    // and the flow it preempts is paused at its next packet.
    let (d, h) = trip(&mut port, 1, hdr(49.0), 20 * MS, us(3), &c);
    assert_eq!((d, h.rate_bps), (Decision::Pause { newly: true }, 0.0));
}

#[test]
fn a_paused_flow_is_accepted_when_bandwidth_frees() {
    let c = cfg("basic");
    let mut port = PdqPort::new(0, C, &c);
    assert!(accepted(trip(&mut port, 1, hdr(50.0), 10 * MS, us(0), &c).0));
    let (d, paused) = trip(&mut port, 2, hdr(50.0), 20 * MS, us(1), &c);
    assert_eq!(d, Decision::Pause { newly: true });
    // Its probe (carrying P_H) is refused while flow 1 runs...
    let probe = PdqHeader { pauseby: paused.pauseby, flags: pdq_flags::PROBE, ..hdr(50.0) };
    assert_eq!(trip(&mut port, 2, probe, 20 * MS, us(2), &c).0, Decision::Pause { newly: false });
    // ...and accepted at the full rate once flow 1's FIN has passed.
    trip(&mut port, 1, PdqHeader { flags: pdq_flags::FIN, ..hdr(0.0) }, 10 * MS, us(3), &c);
    let (d, h) = trip(&mut port, 2, probe, 20 * MS, us(4), &c);
    assert!(accepted(d) && h.rate_bps as f64 == C && h.pauseby == 0, "{d:?} {h:?}");
}

#[test]
fn a_paused_flow_keeps_its_place_against_a_less_critical_probe() {
    // Flows 2 and 3 wait behind flow 1; flow 1 ends. Flow 3, the less
    // critical, probes first. Keeping its place, flow 2 holds the link
    // for its own next probe; with the paper's Algorithm 2 alone (a
    // paused flow counts 0) flow 3 gets in first and flow 2 then takes
    // the link too, so both are granted it for a round trip.
    for (hold, flow3_first) in [(true, false), (false, true)] {
        let c = SwitchConfig { paused_hold_place: hold, ..cfg("basic") };
        let mut port = PdqPort::new(0, C, &c);
        assert!(accepted(trip(&mut port, 1, hdr(50.0), 10 * MS, us(0), &c).0));
        for (f, dl) in [(2, 20), (3, 30)] {
            assert_eq!(trip(&mut port, f, hdr(50.0), dl * MS, us(1), &c).0, Decision::Pause { newly: true });
        }
        trip(&mut port, 1, PdqHeader { flags: pdq_flags::FIN, ..hdr(0.0) }, 10 * MS, us(3), &c);
        let probe = PdqHeader { pauseby: port.tag, flags: pdq_flags::PROBE, ..hdr(50.0) };
        let d3 = trip(&mut port, 3, probe, 30 * MS, us(4), &c).0;
        assert_eq!(accepted(d3), flow3_first, "hold {hold}: flow 3 {d3:?}");
        let (d2, h2) = trip(&mut port, 2, probe, 20 * MS, us(5), &c);
        assert!(accepted(d2) && h2.rate_bps as f64 == C, "hold {hold}: flow 2 {d2:?}");
    }
}

#[test]
fn an_ack_carries_back_what_the_port_can_give_now() {
    // Two SYNs arrive together: flow 2 first (less critical, granted
    // the link), then flow 1 (more critical, granted it too). When flow
    // 2's SYN-ACK passes back, the port pauses it if ACKs recheck the
    // rate; read literally (Algorithm 3 records the rate) flow 2 would
    // send a round trip at the full rate beside flow 1.
    for (recheck, expect_rate) in [(true, 0.0), (false, C)] {
        let c = SwitchConfig { ack_rechecks_rate: recheck, ..cfg("basic") };
        let mut port = PdqPort::new(0, C, &c);
        let mut h2 = hdr(50.0);
        assert!(accepted(port.forward(2, &mut h2, 20 * MS, RTT, us(0), &c)));
        let (d1, _) = trip(&mut port, 1, hdr(50.0), 10 * MS, us(1), &c);
        assert!(accepted(d1));
        port.reverse(2, &mut h2, &c);
        assert_eq!(h2.rate_bps as f64, expect_rate, "recheck {recheck}");
        assert_eq!(h2.pauseby != 0, recheck, "recheck {recheck}: pause by {}", h2.pauseby);
    }
}

#[test]
fn early_start_admits_the_next_flow_k_rtts_before_the_current_one_ends() {
    for (variant, expect_early) in [("es", true), ("basic", false)] {
        let c = cfg(variant);
        let mut port = PdqPort::new(0, C, &c);
        assert!(accepted(trip(&mut port, 1, hdr(5.0), 10 * MS, us(0), &c).0));
        assert_eq!(trip(&mut port, 2, hdr(50.0), 20 * MS, us(1), &c).0, Decision::Pause { newly: true }, "{variant}");
        // 2.5 RTTs left (K = 2): not yet.
        trip(&mut port, 1, hdr(2.5), 10 * MS, us(2), &c);
        assert_eq!(trip(&mut port, 2, hdr(50.0), 20 * MS, us(3), &c).0, Decision::Pause { newly: false }, "{variant}");
        // 1.5 RTTs left: Early Start lets flow 2 in beside it.
        trip(&mut port, 1, hdr(1.5), 10 * MS, us(4), &c);
        let d = trip(&mut port, 2, hdr(50.0), 20 * MS, us(5), &c).0;
        if expect_early {
            assert_eq!(d, Decision::Accept { rate: C, newly: true, early_start: true });
        } else {
            assert_eq!(d, Decision::Pause { newly: false }, "basic PDQ waits for the FIN");
        }
    }
}

#[test]
fn early_start_counts_k_in_the_longer_rtt_of_the_two_flows() {
    // Flow 1 (RTT 50 us) has 150 us left: 3 of its RTTs, 1.5 of flow 2's
    // (RTT 100 us). Counted in the longer RTT, Early Start admits flow 2
    // now; counted in flow 1's own, it waits.
    for (longer, expect_early) in [(true, true), (false, false)] {
        let c = SwitchConfig { early_start_longer_rtt: longer, ..cfg("es") };
        let mut port = PdqPort::new(0, C, &c);
        let mut h1 = PdqHeader { aux: 150_000, ..hdr(0.0) };
        assert!(accepted(port.forward(1, &mut h1, 10 * MS, RTT / 2, us(0), &c)));
        port.reverse(1, &mut h1, &c);
        let mut h2 = hdr(50.0);
        let d = port.forward(2, &mut h2, 20 * MS, RTT, us(1), &c);
        assert_eq!(accepted(d), expect_early, "longer {longer}: {d:?}");
    }
}

#[test]
fn early_termination_drops_a_flow_that_cannot_make_its_deadline() {
    // 2 ms of transmission left, 1 ms to the deadline.
    let t_left = 2.0 * MS as f64 / RTT as f64;
    for (variant, expect_term) in [("es_et", true), ("es", false)] {
        let c = cfg(variant);
        let mut port = PdqPort::new(0, C, &c);
        let (d, h) = trip(&mut port, 1, hdr(t_left), MS, us(0), &c);
        if expect_term {
            assert_eq!(d, Decision::Terminate);
            assert!(h.flags & pdq_flags::TERM != 0 && h.rate_bps == 0.0 && port.flows.is_empty());
        } else {
            assert!(accepted(d), "without ET the hopeless flow still runs: {d:?}");
        }
        // A flow that can make it is not terminated.
        let (d, _) = trip(&mut port, 2, hdr(5.0), MS, us(0), &c);
        assert!(accepted(d) || d == Decision::Pause { newly: true }, "{variant}: {d:?}");
    }
}

#[test]
fn early_termination_allows_for_the_rate_pdq_achieves_and_a_round_trip() {
    // 0.95 ms of transmission left at the NIC rate, 1 ms to the deadline:
    // feasible only at the full rate with no round trip to wait.
    let t_left = 0.95 * MS as f64 / RTT as f64;
    for (fraction, rtt, expect_term) in [(1.0, false, false), (0.8, false, true), (1.0, true, true), (0.8, true, true)] {
        let c = SwitchConfig { et_rate_fraction: fraction, et_rtts: if rtt { 1.0 } else { 0.0 }, ..cfg("es_et") };
        let mut port = PdqPort::new(0, C, &c);
        let d = trip(&mut port, 1, hdr(t_left), MS, us(0), &c).0;
        assert_eq!(d == Decision::Terminate, expect_term, "fraction {fraction}, rtt {rtt}: {d:?}");
    }
    // With 0.7 ms left the default estimate (0.78 ms + one 100 us RTT)
    // still fits; nothing left to transmit adds no round trip.
    let c = cfg("es_et");
    assert_eq!((c.et_rate_fraction, c.et_rtts), (0.9, 1.0));
    let mut port = PdqPort::new(0, C, &c);
    assert!(accepted(trip(&mut port, 2, hdr(0.7 * MS as f64 / RTT as f64), MS, us(0), &c).0));
    assert_eq!(c.et_finish(5, 0, RTT), 5);
    assert_eq!(c.et_finish(0, 900, RTT), 1000 + RTT);
}

#[test]
fn dampening_delays_a_second_acceptance() {
    for (variant, window) in [("full", Some(us(10))), ("es_et", None)] {
        let c = cfg(variant);
        assert_eq!(c.dampening, window);
        let mut port = PdqPort::new(0, C, &c);
        // Flows 1 and 2 wait, paused, behind flow 0.
        assert!(accepted(trip(&mut port, 0, hdr(50.0), 10 * MS, us(0), &c).0));
        for f in [1, 2] {
            assert_eq!(trip(&mut port, f, hdr(50.0), (20 + f as u64) * MS, us(1), &c).0, Decision::Pause { newly: true });
        }
        trip(&mut port, 0, PdqHeader { flags: pdq_flags::FIN, ..hdr(0.0) }, 10 * MS, us(20), &c);
        // Flow 1 comes back, limited to half the link by its path.
        let half = PdqHeader { rate_bps: (C / 2.0) as f32, pauseby: port.tag, ..hdr(50.0) };
        assert!(accepted(trip(&mut port, 1, half, 21 * MS, us(30), &c).0));
        // Half the link is free, but flow 2 waits out the window.
        let probe = PdqHeader { pauseby: port.tag, flags: pdq_flags::PROBE, ..hdr(50.0) };
        let d = trip(&mut port, 2, probe, 22 * MS, us(31), &c).0;
        let later = Decision::Accept { rate: C / 2.0, newly: true, early_start: false };
        if window.is_some() {
            assert_eq!(d, Decision::Pause { newly: false }, "within the dampening window");
            assert_eq!(trip(&mut port, 2, probe, 22 * MS, us(41), &c).0, later, "after it");
        } else {
            assert_eq!(d, later);
        }
    }
}

#[test]
fn suppressed_probing_spaces_probes_by_list_index() {
    let c = cfg("full");
    let mut port = PdqPort::new(0, C, &c);
    for f in 0..11 {
        trip(&mut port, f, hdr(50.0), (10 + f as u64) * MS, us(f as u64 * 20), &c);
    }
    // Flow 10 sits at index 10: I_H = 0.2 x 10 = 2 RTTs.
    let (_, h) = trip(&mut port, 10, hdr(50.0), 20 * MS, us(300), &c);
    assert_eq!(h.probe_tenths, 20);
    let c = cfg("es_et");
    let mut port = PdqPort::new(0, C, &c);
    for f in 0..11 {
        trip(&mut port, f, hdr(50.0), (10 + f as u64) * MS, us(f as u64 * 20), &c);
    }
    assert_eq!(trip(&mut port, 10, hdr(50.0), 20 * MS, us(300), &c).1.probe_tenths, 10);
}

#[test]
fn the_rate_controller_leaves_room_to_drain_the_queue() {
    // 25 KB queued (200 kbit, 200 us at C), path RTT 100 us.
    for (with_queue, expect) in [(false, 0.0), (true, C - 200e3 / (2.0 * 300e-6))] {
        let c = SwitchConfig { rate_control_rtt_with_queue: with_queue, ..SwitchConfig::new(&PdqParams::default()) };
        let mut port = PdqPort::new(0, C, &c);
        port.rtt_avg_ps = RTT as f64;
        // C' = C - q / (2 RTT): RTT 100 us gives 0; with the queueing
        // delay in the RTT (300 us), 2/3 of C, so the queue drains
        // while the flows keep sending.
        let got = port.control(25_000, us(1000), &c).unwrap();
        assert!((got - expect).abs() < 1.0, "with_queue {with_queue}: C' = {got}, expected {expect}");
        // Within two RTTs no update; then an empty queue restores C.
        assert_eq!(port.control(0, us(1100), &c), None);
        assert_eq!(port.control(0, us(1200), &c), Some(C));
    }
}
