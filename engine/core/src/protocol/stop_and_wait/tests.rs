//! Stop-and-wait end to end: exact completion times on an idle path, and
//! conservation with losses.

use crate::protocol::ProtocolName;
use crate::run::{run, RunOptions};
use crate::scenario::Scenario;
use crate::sim::StopReason;

/// Two hosts under one switch, 10 Gbps links of 200 ns, store and
/// forward; one flow of `packets` full packets (1460 B of payload each)
/// from host 0 to host 1.
fn lone_flow(packets: u32) -> Scenario {
    let mut s = Scenario::from_json(&format!(
        r#"{{"name":"stop-and-wait","protocol":"stop_and_wait","switching":"store_and_forward",
            "topology":{{"kind":"single_bottleneck","senders":1,"link_gbps":10,"propagation_ns":200}},
            "workload":{{"matrix":{{"kind":"incast","senders":1,"request_packets":{packets}}}}}}}"#
    ))
    .unwrap();
    s.protocol = ProtocolName::StopAndWait;
    s
}

/// One packet in flight: each packet's round trip (the data packet out,
/// its ACK back) ends before the next packet starts, so a flow of N
/// packets takes N - 1 round trips plus the last packet's way out (the
/// flow completes when its receiver holds the last byte). On each of the
/// two links a packet of B bytes takes B x 8 / 10 Gbps to serialize, then
/// 200 ns to propagate: a 1500-B data packet 2 x (1200 + 200) = 2800 ns
/// to the receiver, a 40-B ACK 2 x (32 + 200) = 464 ns back.
#[test]
fn a_flow_of_n_packets_takes_n_round_trips_on_an_idle_path() {
    const DATA_WAY_PS: u64 = 2 * (1_200_000 + 200_000);
    const ACK_WAY_PS: u64 = 2 * (32_000 + 200_000);
    for n in [1u64, 2, 10] {
        let o = run(&lone_flow(n as u32), RunOptions { trace: false, audit: true }).unwrap();
        assert_eq!(o.stop, StopReason::AllFlowsDone);
        let r = &o.records[0];
        assert_eq!((o.records.len(), r.size), (1, 1460 * n));
        let fct = r.fct().expect("completed").ps();
        assert_eq!(fct, (n - 1) * (DATA_WAY_PS + ACK_WAY_PS) + DATA_WAY_PS, "{n} packets");
        if n == 1 {
            // One packet is as fast as the flow can be: slowdown 1.
            assert_eq!(r.ideal.ps(), fct);
        }
        // Nothing lost: each packet sent once, delivered once, one ACK each.
        let c = &o.counters;
        assert_eq!((c.data_sent, c.data_delivered, c.data_dropped, c.data_in_flight), (n, n, [0; 4], 0));
        assert_eq!((c.data_bytes_sent, c.data_bytes_delivered), (1500 * n, 1500 * n));
        assert_eq!((c.control_sent, c.control_dropped), (n, [0; 4]), "one ACK per packet");
    }
}

/// Twenty senders of 20 packets each into one receiver through a
/// 3,000-B buffer (two packets): packets are dropped at the bottleneck,
/// and each drop costs exactly one retransmission after the timeout (the
/// ACKs, one per sender's port, are never dropped, and no queue holds a
/// packet anywhere near 1 ms, so no timeout is spurious). Every flow
/// completes and every data packet is accounted for.
#[test]
fn losses_are_recovered_by_the_timeout_and_every_packet_is_accounted_for() {
    let mut s = Scenario::from_json(
        r#"{"name":"stop-and-wait-incast","protocol":"stop_and_wait",
            "topology":{"kind":"single_bottleneck","senders":20},
            "workload":{"matrix":{"kind":"incast","senders":20,"request_packets":400}},
            "params":{"stop_and_wait":{"buffer_bytes":3000}}}"#,
    )
    .unwrap();
    s.protocol = ProtocolName::StopAndWait;
    let o = run(&s, RunOptions { trace: false, audit: true }).unwrap();
    assert_eq!(o.stop, StopReason::AllFlowsDone);
    assert!(o.records.len() == 20 && o.records.iter().all(|r| r.end.is_some()));
    let c = &o.counters;
    let dropped: u64 = c.data_dropped.iter().sum();
    assert!(dropped > 0, "the buffer of two packets must overflow: {c:?}");
    assert_eq!(c.data_sent, c.data_delivered + dropped + c.data_in_flight, "conservation");
    assert_eq!(c.data_sent, 400 + dropped, "one retransmission per loss");
    assert_eq!(c.data_delivered, 400, "each packet delivered once");
    assert_eq!((c.control_sent, c.control_dropped.iter().sum::<u64>()), (400, 0), "one ACK per delivered packet");
}
