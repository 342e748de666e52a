//! DCTCP's end-host profiles (issue 18) end to end: a profile is chosen in
//! a scenario file or by a dotted-path override (what `dcsim sweep --vary
//! params.dctcp.profile=...` does), the kernel's delayed ACKs halve the
//! ACKs of a bulk flow, and the initial alpha moves DCTCP's AFCT on the
//! PASE testbed the way the first cut predicts. The rules in isolation are
//! unit tests in `src/protocol/window/tests.rs` and `src/protocol/window/params.rs`.

mod common;

use common::{assert_rejected_naming, load, run_ok};
use dcsim_core::protocol::window::params::DctcpProfile;
use dcsim_core::sim::StopReason;
use dcsim_core::{RunOptions, Scenario};
use serde_json::json;

/// One flow of 1,000 full packets between the two hosts of a rack, under
/// `protocol` with DCTCP's `profile`, 3 MB buffers (no drops: the whole
/// flow fits) and marking threshold `k` bytes: (data packets sent, ACKs
/// sent, CE marks).
fn bulk_flow(protocol: &str, profile: &str, k: u64) -> (u64, u64, u64) {
    let s = Scenario::from_json(
        &json!({
            "name": "bulk", "protocol": protocol,
            "topology": {"kind": "single_rack", "hosts": 2},
            "params": {protocol: {"profile": profile, "buffer_bytes": 3_000_000, "ecn_threshold_bytes": k}},
            "workload": {"sizes": {"kind": "uniform", "min_bytes": 1_460_000, "max_bytes": 1_460_000}, "flows": 1, "load": 0.1}
        })
        .to_string(),
    )
    .unwrap();
    let o = run_ok(&s, RunOptions::default());
    assert_eq!(o.stop, StopReason::AllFlowsDone);
    (o.counters.data_sent, o.counters.control_sent, o.counters.ecn_marks)
}

#[test]
fn delayed_acks_halve_the_acks_of_a_bulk_flow() {
    // RFC 1122 4.2.3.2 / RFC 5681 4.2 and Linux: an ACK for every second
    // full-sized segment. Counted on the wire, with K at the whole buffer
    // (no marks) and no drops: one ACK per two data packets under
    // testbed_kernel, one per packet otherwise.
    for protocol in ["dctcp", "d2tcp", "l2dct"] {
        for (profile, lo, hi) in [("linux", 1.0, 1.0), ("ns2", 1.0, 1.0), ("testbed_kernel", 0.49, 0.51)] {
            let (data, acks, marks) = bulk_flow(protocol, profile, 3_000_000);
            let ratio = acks as f64 / data as f64;
            eprintln!("{protocol} {profile}: {data} data packets, {acks} ACKs ({ratio:.3}), {marks} marks");
            assert!(marks == 0 && data == 1000 && (lo..=hi).contains(&ratio), "{protocol} {profile}: {acks} ACKs for {data} data packets");
        }
    }
    // With marks (K = 22.5 KB, the queue at the sender's NIC crossing it),
    // every change of CE state is ACKed at once (RFC 8257 section 3.2): more
    // than half, fewer than one per packet.
    let (data, acks, marks) = bulk_flow("dctcp", "testbed_kernel", 22_500);
    eprintln!("dctcp testbed_kernel, K = 22.5 KB: {data} data packets, {acks} ACKs, {marks} marks");
    assert!(marks > 0 && 2 * acks > data + 10 && acks < data, "{acks} ACKs for {data} data packets, {marks} marks");
}

#[test]
fn a_profile_is_chosen_in_the_file_or_by_a_field_override() {
    // The testbed file gives DCTCP's buffer, K and minimum RTO explicitly;
    // a profile chosen over it keeps them and sets the rest.
    let base = load("pase-testbed");
    assert_eq!(base.params.dctcp.profile, DctcpProfile::Linux, "the default profile");
    for (profile, alpha, cwnd, delack) in [("ns2", 0.0, 12, None), ("testbed_kernel", 1.0, 10, Some(40_000.0))] {
        let s = base.with_field("params.dctcp.profile", json!(profile)).unwrap();
        let d = s.params.dctcp.dctcp_part();
        assert_eq!((d.profile.as_str(), d.initial_alpha, d.init_cwnd, d.delayed_ack_timeout_us), (profile, alpha, cwnd, delack));
        assert_eq!((d.min_rto_us, d.ecn_threshold_bytes), (750.0, 30_000), "the file's explicit values stay");
    }
    let mut v: serde_json::Value = serde_json::to_value(&base).unwrap();
    v["params"]["l2dct"]["profile"] = json!("ns2");
    let s: Scenario = serde_json::from_value(v).unwrap();
    assert_eq!(s.params.l2dct.dctcp_part().initial_alpha, 0.0);
    let e = base.with_field("params.dctcp.profile", json!("bsd")).unwrap_err();
    assert!(e.contains("params.dctcp.profile") && e.contains("unknown DCTCP profile `bsd`"), "{e}");
    assert_rejected_naming([
        (r#"{"name":"x","params":{"d2tcp":{"profile":"freebsd"}}}"#, "params.d2tcp.profile"),
        (r#"{"name":"x","params":{"dctcp":{"profile":"testbed_kernel","delayed_ack_timeout_us":-1}}}"#, "params.dctcp.delayed_ack_timeout_us"),
    ]);
}

#[test]
fn alpha_starting_at_zero_lowers_dctcps_afct_beside_the_long_lived_flow() {
    // On the PASE testbed every flow shares the server's link with the
    // long-lived flow, whose window keeps the queue near K, so a new flow's
    // first window is marked. Alpha starting at 1 (Linux) halves it; at 0
    // (the ns-2 scripts) it cuts by 1/32. So ns2's AFCT is lower (measured:
    // 6,472 against 13,681 us at load 0.1, seed 1, 1,000 flows;
    // engine/ARCHITECTURE.md).
    let afct = |profile: &str| {
        let mut s = load("pase-testbed").with_field("params.dctcp.profile", json!(profile)).unwrap();
        s.protocol = dcsim_core::scenario::ProtocolName::Dctcp;
        s.workload.load = 0.1;
        s.workload.flows = 300;
        run_ok(&s, RunOptions::default()).summary.all.afct_us
    };
    let (linux, ns2) = (afct("linux"), afct("ns2"));
    eprintln!("DCTCP AFCT, load 0.1, 300 flows: linux {linux:.0} us, ns2 {ns2:.0} us");
    assert!(ns2 < 0.7 * linux, "ns2 {ns2} us, linux {linux} us");
}
