//! Why each claim that does not agree at full size does not: its
//! [`Cause`], by claim id, written from the full report's numbers and the
//! sensitivity tables (kept here, apart from the claims' definitions, so
//! that a claim's cause is read and reviewed in one place). A claim not
//! listed has no cause given; the report says so beside a verdict other
//! than "agrees".

use super::super::cause::{Cause, CauseKind};
use CauseKind::{AuthorsSimulatorAgrees, OpenSetting, Unexplained};

/// The causes, by claim id.
const CAUSES: &[(&str, CauseKind, &str)] = &[
    (
        "phost-near-pfabric",
        AuthorsSimulatorAgrees,
        "The pHost authors' simulator (NetSys/simulator, the simulator of the paper's figures), run on this setting with the authors' experiment configuration, does not show \"within 4%\" either: pHost's mean slowdown is 11.2% above pFabric's on web search, 2.9% on data mining and 13.5% on IMC10 (the authors' simulator column), where dcsim's pHost is behind by less (the dcsim column). Both simulators put pHost behind pFabric by more than 4% on web search and IMC10 and within it on data mining. Also checked: the paper's timers (section 4.1) and the authors' scripts' (the sensitivity table), five seeds each.",
    ),
    (
        "phost-vs-fastpass",
        OpenSetting,
        "Row \"Fastpass sends as its grant arrives\" turns the verdict from differs to inconclusive (4.3x on data mining and 3.2x on IMC10 instead of 5.9x and 4.7x; the paper's range is 1.3-4x). When a source starts its granted epoch is left open by the paper: section 4.1 gives only \"an epoch size of 8 packets (Fastpass makes scheduling decisions every epoch with a recommended epoch interval of 8 MTU transmission times)\"; the default sends at the slot's start as the Fastpass paper's sources do, the authors' simulator on the grant's arrival. No reading agrees.",
    ),
    (
        "phost-short-and-long-flows",
        OpenSetting,
        "Row \"Fastpass sends as its grant arrives\" turns the verdict from differs to inconclusive (short flows: Fastpass / pHost 1.2 to 4.5 instead of 1.4 to 6.1; the paper's range is 1.3-4x). Section 4.1 gives Fastpass only \"an epoch size of 8 packets (Fastpass makes scheduling decisions every epoch with a recommended epoch interval of 8 MTU transmission times)\", not when a source starts its granted slots. Long flows and pHost against pFabric agree under every reading.",
    ),
    (
        "phost-deadlines",
        OpenSetting,
        "Row \"pHost scheduling SRPT\" turns the verdict from differs to inconclusive (the three 0.015 to 0.040 apart instead of 0.017 to 0.18): under EDF pHost meets 65% of web search deadlines against pFabric's 84%. The paper does not say which policy Figure 5(c) ran: section 3.3 offers EDF (\"pHost can emulate EDF by having each source specify the flow deadline in its RTS\") beside the SRPT policy its other figures use, and section 4.3 gives only the deadlines (\"exponential distribution with mean 1000µs\"). No reading agrees.",
    ),
    (
        "phost-permutation",
        AuthorsSimulatorAgrees,
        "The pHost authors' simulator, run on the permutation matrix with web search at 0.6, also has pFabric faster than pHost (pFabric / pHost mean slowdown 0.954, the authors' simulator column) where the paper has pHost ahead, and Fastpass behind pHost (1.22). dcsim's pFabric is ahead of pHost too (the dcsim column). Also checked: the three traces at load 0.6, three seeds, the authors' pHost timers (the sensitivity table), the stability of every run and where pFabric drops (mostly at its own NIC, which costs no link capacity).",
    ),
    (
        "phost-permutation-long-flows",
        Unexplained,
        "Checked: 700-packet flows on the permutation matrix, five seeds, the authors' pHost timers, drops per port role. Mean slowdown pFabric 1.90, pHost 2.05, Fastpass 1.82; pFabric loses 0.71% of its packets, nearly all at its own NIC. The data do not show the gain of per-packet scheduling over pFabric's windows that the paper reports.",
    ),
    (
        "phost-buffer-size",
        Unexplained,
        "Checked: buffers from 6.2 KB to 72 KB, three seeds, the authors' pHost timers. pFabric's mean slowdown rises from 1.08 (24 KB and above) to 1.40 at 6.2 KB with its 36 KB settings (initCwnd 12, RTO 45 us); the paper's footnote 4 (\"for each buffer size, we experimented with a range of different parameter settings for pFabric and select the setting that offers the best slowdown\") does not give the settings kept, so they were not run. pHost (1.024; 1.010 with the scripts' timers) and Fastpass (1.049) straddle or miss the 1% bound by a few per cent.",
    ),
    (
        "phost-first-hop-drops",
        Unexplained,
        "pHost's few first-hop drops (3 in five full-size runs) break \"zero drops at the first hop\" and are not explained. Fastpass's last-hop drops are: control packets take a fully booked receiver's link ahead of data and its queue overflows; the row \"Fastpass epochs of 8.5 slots\" (the authors' simulator's epoch, against section 4.1's \"recommended epoch interval of 8 MTU transmission times\") removes them, but not Fastpass's fabric drops (about 1 in 100,000 packets, the paper's bound 0.00004%) nor pHost's, so no reading agrees.",
    ),
    (
        "pase-vs-pfabric-left-right",
        Unexplained,
        "Checked: every load, three seeds, loss rates, and pFabric with the testbed's settings (as run) and rescaled by its own rules to this tree's round trip (the row \"pFabric rescaled to the tree's round trip\": initCwnd 12, RTO 450 us, 37.4 KB). PASE's tail stays below pFabric's at every load under both (quick size: 0.65-0.92 as run, 0.69-0.93 rescaled), so the paper's crossing at 50-60% load does not appear and the gain at 0.9 stays near half the paper's 85%. pFabric's loss grows with load (about 3.3% at 0.9), PASE's stays near zero; the paper does not give its pFabric's loss to compare.",
    ),
    (
        "phost-stability",
        Unexplained,
        "Checked: the backlog Figure 7 plots, late in runs of N and 2N flows, at loads 0.6 to 0.8 for the three schemes. At quick size it grows with the run's length at 0.6 (pFabric 1.40 times in the run twice as long) nearly as at 0.8 (1.51), so \"stable at 0.6\" fails while \"unstable beyond 0.7\" holds. The data suggest the runs are shorter than web search's heavy tail needs to reach a level backlog; the paper does not give its run length beyond the 511 million packets of its run at 0.6.",
    ),
    (
        "pase-vs-pfabric-all-to-all",
        Unexplained,
        "Checked: AFCT at every load, drops per port role and the bytes wasted upstream of a drop. PASE is 8-10% slower than pFabric up to load 0.4 and within 1% from 0.6; pFabric's drops are mostly at the senders' own NICs (75-85%), and the capacity wasted on the senders' links is at most 1.5% of the bytes sent, too little for the collisions the paper describes to slow pFabric. The paper does not give pFabric's loss or waste to compare.",
    ),
    (
        "pase-optimizations-afct",
        Unexplained,
        "Checked: instant arbitrators and arbitrators taking 1 us and 10 us per message (the sensitivity table; the paper gives no processing time). With 10 us the optimizations gain 5.7% at 0.8 and 11% at 0.9, the paper's size, but under 0.4% below load 0.6 where the paper reports 4% or more; no reading agrees at every load.",
    ),
    (
        "pase-end-to-end-arbitration",
        Unexplained,
        "Checked: end-to-end against local arbitration at every load, three seeds, AFCT and drops per port role. End-to-end arbitration is 0.2% (load 0.1) to 11% (0.9) slower and drops more at the ToR uplinks at 0.9; why the core's arbitrator costs more than it gains here is not established.",
    ),
    (
        "pase-testbed",
        OpenSetting,
        "Row \"DCTCP initial alpha 0\" turns the verdict from differs to inconclusive (PASE's AFCT 49-67% below DCTCP's instead of 69-77%; the paper: 50%-60%): a DCTCP that starts at alpha 1 halves its window at its first mark, and these flows (100-500 KB) are short enough to feel it. The paper ran \"the DCTCP implementation (provided by its authors)\" (section 4.4) and does not give its initial alpha. The minimum RTO, delayed ACKs and the long flow's client do not change the verdict.",
    ),
    (
        "pfabric-seamless-switching",
        Unexplained,
        "Checked: three seeds, each flow's end against the one before it. The flows are served one at a time at line rate as the paper says (each ends 16.01 to 16.02 ms after the one before, 16 ms being one 20 MB flow at 10 Gbps), so all of the last flow's lateness is idle time at the four hand-overs: about 83 us in all, against the paper's ~150 us. What the paper's pFabric does in a hand-over that costs it about twice as long is not in the excerpt; pFabric section 5.1 puts 10 us of the 14.6 us round trip in the hosts, which dcsim spreads over the links.",
    ),
    (
        "pfabric-incast-81ms",
        Unexplained,
        "Checked: ten requests, with pFabric's Table 1 settings. dcsim's request completes about 0.68 ms over the 80 ms ideal, the paper's 1.1 ms; both come from the 49 hand-overs between senders served one after another (the paper: \"the slight [...] overhead of serially scheduling flows\"), about 14 us each in dcsim against about 22 us in the paper. The excerpt does not describe the hand-over; as in pfabric-seamless-switching, dcsim's is the shorter.",
    ),
    (
        "pfabric-websearch-near-ideal",
        Unexplained,
        "Checked: both link timings (the sensitivity table: the pFabric paper's 14.6 us round trip and the pHost authors' 200 ns links), three seeds. dcsim's pFabric is close to Ideal at every load, closer than the paper's at high load (the paper's 17.8% at 0.8); neither timing moves the verdict. The excerpt stops before the figures that break the paper's gap down (Figures 8-10), so where the paper's pFabric loses the rest is not known; dcsim's Ideal is the paper's central SRPT over the same links (docs/protocols/ideal.md).",
    ),
    (
        "pfabric-datamining-near-ideal",
        Unexplained,
        "Checked: both link timings (the sensitivity table), three seeds. As on web search, dcsim's pFabric is closer to Ideal than the paper's at every load (the paper's 1.7% to 10.6%); neither timing moves the verdict. The excerpt stops before the figures that break the gap down (Figures 8-10).",
    ),
    (
        "pfabric-websearch-below-pdq",
        Unexplained,
        "Checked: both link timings (the sensitivity table), three seeds; PDQ with Early Start, Early Termination and Suppressed Probing (docs/protocols/pdq.md). pFabric is clearly below PDQ at every load, as the paper says, but the gap does not span the paper's 19% to 39%; with 200 ns links it shrinks further. The paper's PDQ \"is based on a copy of the source code we obtained from the authors of the PDQ paper\" (section 5.1), which is not public, so which of PDQ's open choices makes the difference is not established.",
    ),
    (
        "pfabric-datamining-below-pdq",
        Unexplained,
        "Checked: both link timings (the sensitivity table), three seeds. dcsim's PDQ is further behind pFabric on data mining than the paper's 40% to 50%. The paper names the cost that weighs most there: \"PDQ always requires one extra RTT of overhead for flow initiation (SYN/SYN-ACK exchange) before a flow can transmit\", which dcsim's PDQ pays too (docs/protocols/pdq.md), and data mining's flows are mostly tiny. Why it weighs more in dcsim than in the paper's PDQ (\"based on a copy of the source code we obtained from the authors of the PDQ paper\", not public) is not established.",
    ),
    (
        "pfabric-better-than-others",
        Unexplained,
        "Checked: three seeds per scheme and load, both link timings (the sensitivity table). pFabric is ahead of PDQ, DCTCP and TCP in every cell; the cells that do not decide are the ones whose seeds spread widely (TCP on data mining, where a few long flows' timeouts set the mean) or whose ratio lies near the 1.15 that \"significantly\" asks for (DCTCP on data mining at low load). The data suggest more seeds, not a different model, would decide them.",
    ),
    (
        "pfabric-short-and-long-flows",
        Unexplained,
        "Checked: three seeds, both link timings (the sensitivity table: 200 ns links turn it to differs). Long flows' mean is within 15% of Ideal everywhere; the undecided checks are the short flows' 99th percentile on data mining, which rests on the few short flows in its tail and lies near the 15% bound. The data suggest more seeds would decide it; the paper's Figure 9 is outside the excerpt.",
    ),
    (
        "phost-tail-slowdown",
        Unexplained,
        "Checked: the paper's and the authors' scripts' pHost timers and Fastpass sending as its grant arrives (the sensitivity table), three seeds. In dcsim the 99th-percentile slowdown of pHost and pFabric is well above the paper's ~2 on web search and IMC10, about twice their mean rather than a third above it; Fastpass's tail is about twice its mean, as the paper says. Which flows make up dcsim's tail (the largest flows at the receivers they share) against the paper's is not established; the authors' simulator was not run on this metric.",
    ),
    (
        "phost-drop-rate",
        Unexplained,
        "Checked: drops per port role, three seeds at 0.6 and 0.8. pFabric's drop rate is high and grows with load, and pHost's is close to zero, as the paper says; Fastpass's is not close to zero: its drops are at the last hop, where control packets take a fully booked receiver's link ahead of data (see phost-first-hop-drops, whose row \"Fastpass epochs of 8.5 slots\", the authors' simulator's epoch, removes them). The paper gives Fastpass's epoch as \"8 MTU transmission times\" (section 4.1), so the default keeps 8.",
    ),
    (
        "pdq-near-optimal",
        Unexplained,
        "Checked: three seeds at each query size, with PDQ's Early Start, Early Termination and Suppressed Probing. PDQ meets nearly every deadline the optimal schedule meets at small fan-in, and falls further behind it as the flows per query grow (the checks above). The data suggest a cost that grows with the number of flows taking turns at the aggregator's link, such as the flow switching the PASE paper names (\"PDQ's high flow switching overhead\", section 2.1); which of PDQ's mechanisms it is was not measured.",
    ),
    (
        "pase-similar-to-pfabric",
        Unexplained,
        "Checked: three seeds per load, pFabric with the testbed's rescaled settings (as run) and by its own rules per topology (pase-vs-pfabric-left-right's sensitivity row). On the left-right tree below load 0.8 PASE is within 6% of pFabric as the paper says; on the single bottleneck (the testbed rack) PASE is slower at low load and much faster at high load. The data do not show why pFabric falls behind at high load on this rack; the paper's single-bottleneck setting is not in the excerpt, so whether its pFabric kept the testbed's round trip is not known.",
    ),
    (
        "pase-vs-deployment-friendly",
        Unexplained,
        "Checked: DCTCP and L2DCT with the ns-2 profile (initial alpha 0, the simulator the paper ran) and with Linux's (alpha 1: the quick-size comparison in the commit that made ns-2 the default), three seeds at every load on both trees. PASE is faster than both everywhere, but by less than the paper's 40% to 60%, least on the left-right tree. The ports are the testbed's (the paper gives no others for its simulations); why PASE's lead is smaller here is not established.",
    ),
    (
        "pase-optimizations-overhead",
        Unexplained,
        "Checked: messages counted at every arbitrator, three seeds. The optimizations cut the arbitration messages most at high load, as the paper says; whether the largest cut is \"up to 50%\" is undecided because the seeds spread widely at high load (the interval straddles the bound). The data suggest more seeds would decide it.",
    ),
    (
        "pase-priority-queues",
        Unexplained,
        "Checked: 3, 4, 6 and 8 queues, three seeds per load. Four queues beat three at high load and more than four add little, as the paper says; whether four beat three \"significantly\" (by more than 15%) is undecided because the interval straddles the bound at high load.",
    ),
    (
        "pase-reference-rate",
        Unexplained,
        "Checked: PASE against PASE with DCTCP's window in place of the reference rate (PASE-DCTCP) on the 20-host rack, three seeds per load. The reference rate helps, most at high load, but by a fraction of the paper's 50%. dcsim's PASE-DCTCP keeps PASE's arbitrated queues with plain DCTCP windows (docs/protocols/pase.md); the paper does not describe its PASE-DCTCP beyond the name, so how much of PASE it kept is not known.",
    ),
    (
        "pase-probing",
        Unexplained,
        "Checked: probing on and off at 0.8 and 0.9, five seeds. In dcsim probing changes the AFCT by less than 1%, where the paper finds 2.4% and 11%: a flow in the lowest queue sends a header-only probe instead of retransmitting on a timeout (docs/protocols/pase.md). How often flows sit in the lowest queue at these loads decides the gain, and the paper does not give it.",
    ),
    (
        "pase-strategies-deadlines",
        Unexplained,
        "Checked: the testbed's ports (as run, the paper's stated ports for this rack) and pFabric Table 1's (the sensitivity table), DCTCP and D2TCP with the ns-2 profile, five seeds per load. pFabric meets far more deadlines at high load, as the paper says, but D2TCP does not meet more deadlines than DCTCP at low load: at 0.1 the two are within a fraction of a point. Figure 1's ns-2 settings are not in the excerpt (footnote 2 names only the D2TCP paper's experiment).",
    ),
    (
        "pase-pdq-switching",
        Unexplained,
        "Checked: PDQ (Early Start, Early Termination, Suppressed Probing) against DCTCP on the all-to-all rack, three seeds at 0.7 to 0.9. PDQ's AFCT is well below DCTCP's at every high load, the opposite of Figure 2. Figure 2's setting is not in the excerpts (this project runs PASE's all-to-all scenario): with flows of 100-500 KB taking 0.8-4 ms at 1 Gbps, a switch between flows costs a round trip of about 65 us, too little to outweigh PDQ's scheduling here.",
    ),
    (
        "d2tcp-fewer-missed-deadlines",
        Unexplained,
        "Checked: DCTCP and D2TCP with the ns-2 profile on PASE's testbed rack with D2TCP's flows and deadlines, five seeds per load. D2TCP misses only a few per cent fewer deadlines than DCTCP, against the D2TCP paper's 75%; the setting is not the D2TCP paper's own (its text is not available to this project), and its d, B and the deadline past due are the ns-3 port's choices.",
    ),
];

/// The cause given for claim `id`, if any.
pub fn of(id: &str) -> Option<Cause> {
    CAUSES.iter().find(|(c, _, _)| *c == id).map(|&(_, kind, why)| Cause { kind, why })
}

/// The ids that have a cause (for the test that each is a claim).
#[cfg(test)]
pub fn ids() -> impl Iterator<Item = &'static str> {
    CAUSES.iter().map(|(c, _, _)| *c)
}
