"""One bottleneck in ns-3, the settings matched to dcsim's `single_bottleneck`.

N senders and one receiver under one switch, every link 10 Gbps with
200 ns propagation; the switch's port to the receiver is the bottleneck.
Every sender starts one flow of `--bytes` payload bytes at time zero; the
program prints one JSON object: each flow's completion time, the drops and
ECN marks at the bottleneck, the retransmission timeouts, the bottleneck's
mean queue and DCTCP's mean alpha while flows are active.

Matched to dcsim: MSS 1460 B (no TCP timestamps, so a full packet is 1500 B
of IP), SACK on, initial window `--init-cwnd`, no delayed ACKs, minimum RTO
`--min-rto-us` with a 1 ns clock granularity, classic (RFC 5681/6675)
recovery rather than ns-3's default PRR, socket buffers far above any window,
one packet of device queue below the queue disc. NewReno: a drop-tail FIFO of
`--buffer-bytes`; DCTCP: RED as a step marker at K (MinTh = MaxTh = K
packets, ECN), g = 1/16, alpha starting at `--initial-alpha`.

Run by `scripts/ns3-compare`; needs the `ns3` package (`pip install ns3`).
"""

import argparse
import json

from ns import ns  # noqa: the ns3 package's cppyy bindings

ns.cppyy.cppdef(r"""
#include <vector>
namespace dcsim_cmp {
using namespace ns3;
static std::vector<double> done_at;      // per sink: time its flow completed (s), -1 before
static std::vector<uint64_t> got;        // per sink: bytes received
static uint64_t want = 0;
static uint64_t drops = 0, marks = 0, timeouts = 0;
static double q_sum = 0; static uint64_t q_n = 0;
static double a_sum = 0; static uint64_t a_n = 0;
static Ptr<QueueDisc> qd;
static uint32_t remaining = 0;

void Rx(uint32_t i, Ptr<const Packet> p, const Address &) {
  got[i] += p->GetSize();
  if (got[i] >= want && done_at[i] < 0) { done_at[i] = Simulator::Now().GetSeconds(); remaining--; }
}
void Drop(Ptr<const QueueDiscItem>) { drops++; }
void Mark(Ptr<const QueueDiscItem>, const char *) { marks++; }
void Cong(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t n) {
  if (n == TcpSocketState::CA_LOSS) timeouts++;
}
void Alpha(uint32_t, uint32_t, double alpha) { a_sum += alpha; a_n++; }
void Sample(Time every) {
  if (remaining == 0) return;
  q_sum += qd->GetNBytes(); q_n++;
  Simulator::Schedule(every, &Sample, every);
}
void Hook(bool dctcp) {
  Config::ConnectWithoutContextFailSafe("/NodeList/*/$ns3::TcpL4Protocol/SocketList/*/CongState", MakeCallback(&Cong));
  if (dctcp)
    Config::ConnectWithoutContextFailSafe("/NodeList/*/$ns3::TcpL4Protocol/SocketList/*/CongestionOps/$ns3::TcpDctcp/CongestionEstimate", MakeCallback(&Alpha));
}
void Setup(uint32_t n, uint64_t bytes, Ptr<QueueDisc> q, ApplicationContainer sinks, bool dctcp) {
  done_at.assign(n, -1.0); got.assign(n, 0); want = bytes; remaining = n; qd = q;
  for (uint32_t i = 0; i < n; i++)
    sinks.Get(i)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&Rx, i));
  q->TraceConnectWithoutContext("Drop", MakeCallback(&Drop));
  q->TraceConnectWithoutContext("Mark", MakeCallback(&Mark));
  Simulator::Schedule(NanoSeconds(1), &Hook, dctcp);
  Simulator::Schedule(NanoSeconds(1), &Sample, MicroSeconds(1));
}
}
""")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--protocol", choices=["newreno", "dctcp"], required=True)
    ap.add_argument("--senders", type=int, required=True)
    ap.add_argument("--bytes", type=int, required=True, help="payload bytes of each sender's flow")
    ap.add_argument("--buffer-bytes", type=int, default=225_000)
    ap.add_argument("--k-bytes", type=int, default=22_500)
    ap.add_argument("--init-cwnd", type=int, default=10)
    ap.add_argument("--min-rto-us", type=float, default=1000.0)
    ap.add_argument("--initial-alpha", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=10.0)
    a = ap.parse_args()

    mss, pkt = 1460, 1500
    ns.RngSeedManager.SetSeed(a.seed)
    cfg = ns.Config.SetDefault
    tcp = "ns3::TcpDctcp" if a.protocol == "dctcp" else "ns3::TcpNewReno"
    cfg("ns3::TcpL4Protocol::SocketType", ns.StringValue(tcp))
    cfg("ns3::TcpL4Protocol::RecoveryType", ns.TypeIdValue(ns.TypeId.LookupByName("ns3::TcpClassicRecovery")))
    cfg("ns3::TcpSocket::SegmentSize", ns.UintegerValue(mss))
    cfg("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(a.init_cwnd))
    cfg("ns3::TcpSocket::DelAckCount", ns.UintegerValue(1))
    cfg("ns3::TcpSocket::SndBufSize", ns.UintegerValue(1 << 27))
    cfg("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(1 << 27))
    cfg("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(False))
    cfg("ns3::TcpSocketBase::Sack", ns.BooleanValue(True))
    cfg("ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.MicroSeconds(a.min_rto_us)))
    cfg("ns3::TcpSocketBase::ClockGranularity", ns.TimeValue(ns.NanoSeconds(1)))
    if a.protocol == "dctcp":
        cfg("ns3::TcpDctcp::DctcpShiftG", ns.DoubleValue(1 / 16))
        cfg("ns3::TcpDctcp::DctcpAlphaOnInit", ns.DoubleValue(a.initial_alpha))

    n = a.senders
    hosts = ns.NodeContainer()
    hosts.Create(n + 1)  # the receiver is the last, as in dcsim
    switch = ns.NodeContainer()
    switch.Create(1)
    ns.InternetStackHelper().Install(hosts)
    ns.InternetStackHelper().Install(switch)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue("10Gbps"))
    p2p.SetChannelAttribute("Delay", ns.StringValue("200ns"))
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue("1p"))
    tch = ns.TrafficControlHelper()
    buffer_p = max(1, a.buffer_bytes // pkt)
    if a.protocol == "dctcp":
        k_p = max(1, a.k_bytes // pkt)
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize", ns.QueueSizeValue(ns.QueueSize(f"{buffer_p}p")),
                             "MinTh", ns.DoubleValue(k_p), "MaxTh", ns.DoubleValue(k_p),
                             "UseEcn", ns.BooleanValue(True), "UseHardDrop", ns.BooleanValue(False),
                             "QW", ns.DoubleValue(1.0), "LInterm", ns.DoubleValue(1.0),
                             "MeanPktSize", ns.UintegerValue(pkt))
    else:
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", ns.QueueSizeValue(ns.QueueSize(f"{buffer_p}p")))
    ip = ns.Ipv4AddressHelper()
    addrs = []
    bottleneck = None
    for i in range(n + 1):
        pair = ns.NodeContainer()
        pair.Add(hosts.Get(i))
        pair.Add(switch.Get(0))
        dev = p2p.Install(pair)
        qdiscs = tch.Install(dev)
        if i == n:
            bottleneck = qdiscs.Get(1)  # the switch's side of the receiver's link
        ip.SetBase(ns.Ipv4Address(f"10.{i // 250}.{i % 250}.0"), ns.Ipv4Mask("255.255.255.0"))
        addrs.append(ip.Assign(dev).GetAddress(0))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    sinks = ns.ApplicationContainer()
    for i in range(n):
        port = 5000 + i
        sink = ns.PacketSinkHelper("ns3::TcpSocketFactory",
                                   ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
        sinks.Add(sink.Install(hosts.Get(n)))
        src = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(addrs[n], port).ConvertTo())
        src.SetAttribute("MaxBytes", ns.UintegerValue(a.bytes))
        src.SetAttribute("SendSize", ns.UintegerValue(mss))
        src.Install(hosts.Get(i)).Start(ns.Seconds(0))
    sinks.Start(ns.Seconds(0))
    c = ns.cppyy.gbl.dcsim_cmp
    c.Setup(n, a.bytes, bottleneck, sinks, a.protocol == "dctcp")
    ns.Simulator.Stop(ns.Seconds(a.max_seconds))
    ns.Simulator.Run()
    out = {
        "simulator": "ns-3 " + str(ns.Version.ShortVersion() if hasattr(ns, "Version") else "3.44"),
        "fct_us": [t * 1e6 if t >= 0 else None for t in c.done_at],
        "drops": int(c.drops),
        "marks": int(c.marks),
        "timeouts": int(c.timeouts),
        "queue_mean_bytes": c.q_sum / c.q_n if c.q_n else 0.0,
        "alpha_mean": c.a_sum / c.a_n if c.a_n else None,
    }
    ns.Simulator.Destroy()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
