//! The sender's per-packet scoreboard, shared by every transport that
//! acknowledges each packet and retransmits selectively (TCP, DCTCP,
//! pFabric, RCP; pHost and PASE next): which packets are unsent, in
//! flight, acknowledged or deemed lost, and which to send next.

use crate::units::{data_packet_payload, packets_for};

const UNSENT: u8 = 0;
const IN_FLIGHT: u8 = 1;
const ACKED: u8 = 2;
const LOST: u8 = 3;

/// Per-packet sender state of one flow.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    size: u64,
    n: u32,
    /// Per-packet state; freed once every packet is acknowledged.
    state: Vec<u8>,
    /// First packet not yet acknowledged.
    pub snd_una: u32,
    /// Next packet never sent.
    pub snd_nxt: u32,
    retx_ptr: u32,
    lost: u32,
    /// Packets in flight: sent, not acknowledged, not deemed lost ("pipe",
    /// RFC 6675).
    pub in_flight: u32,
    acked: u32,
    /// Payload bytes acknowledged.
    pub acked_bytes: u64,
    /// One past the highest packet acknowledged (cumulatively or
    /// selectively); 0 before any.
    high_acked: u32,
    /// RFC 6675 loss marking: every packet below this (and above
    /// `snd_una`) has been examined, and deemed lost if it was in flight.
    loss_scan: u32,
}

impl Scoreboard {
    /// A scoreboard for a flow of `size` payload bytes, nothing sent.
    pub fn new(size: u64) -> Self {
        let n = packets_for(size);
        Scoreboard {
            size,
            n,
            state: vec![UNSENT; n as usize],
            snd_una: 0,
            snd_nxt: 0,
            retx_ptr: 0,
            lost: 0,
            in_flight: 0,
            acked: 0,
            acked_bytes: 0,
            high_acked: 0,
            loss_scan: 0,
        }
    }
    /// Number of packets in the flow.
    pub fn n(&self) -> u32 {
        self.n
    }
    /// Every packet is acknowledged.
    pub fn done(&self) -> bool {
        self.acked == self.n
    }
    /// Payload bytes not yet acknowledged (pFabric's priority).
    pub fn remaining_bytes(&self) -> u64 {
        self.size - self.acked_bytes
    }
    /// Payload bytes still to be transmitted: the packets never sent and
    /// those deemed lost (PDQ's expected transmission time counts these).
    pub fn untransmitted_bytes(&self) -> u64 {
        let never_sent = self.size.saturating_sub(self.snd_nxt as u64 * crate::units::MSS as u64);
        never_sent + self.lost as u64 * crate::units::MSS as u64
    }
    /// Picks the next packet to send, the first lost one before any new
    /// one, and marks it in flight; `None` when nothing is left to send.
    pub fn take_next(&mut self) -> Option<u32> {
        let seq = if self.lost > 0 {
            while self.state[self.retx_ptr as usize] != LOST {
                self.retx_ptr += 1;
            }
            self.lost -= 1;
            self.retx_ptr
        } else if self.snd_nxt < self.n {
            self.snd_nxt += 1;
            self.snd_nxt - 1
        } else {
            return None;
        };
        self.state[seq as usize] = IN_FLIGHT;
        self.in_flight += 1;
        Some(seq)
    }
    /// Marks `seq` acknowledged; returns 1 if it was not already.
    fn ack(&mut self, seq: u32) -> u32 {
        let st = &mut self.state[seq as usize];
        match *st {
            ACKED => 0,
            old => {
                if old == IN_FLIGHT {
                    self.in_flight -= 1;
                } else if old == LOST {
                    self.lost -= 1;
                }
                *st = ACKED;
                self.acked += 1;
                self.high_acked = self.high_acked.max(seq + 1);
                self.acked_bytes += data_packet_payload(self.size, seq) as u64;
                1
            }
        }
    }
    /// Applies an ACK: selective ACK of `sack` (ignored when not a packet of
    /// the flow) and cumulative ACK up to `cum`. Returns how many packets
    /// it newly acknowledged; frees the state once all are.
    pub fn on_ack(&mut self, cum: u32, sack: u32) -> u32 {
        if self.done() {
            return 0;
        }
        let mut newly = 0;
        if sack < self.n {
            newly += self.ack(sack);
        }
        while self.snd_una < cum.min(self.n) {
            newly += self.ack(self.snd_una);
            self.snd_una += 1;
        }
        while self.snd_una < self.n && self.state[self.snd_una as usize] == ACKED {
            self.snd_una += 1;
        }
        if self.done() {
            self.state = Vec::new();
        }
        newly
    }
    /// Deems packet `seq` lost if it is in flight, so it is sent again first.
    pub fn mark_lost(&mut self, seq: u32) {
        if self.state[seq as usize] == IN_FLIGHT {
            self.state[seq as usize] = LOST;
            self.in_flight -= 1;
            self.lost += 1;
            self.retx_ptr = self.retx_ptr.min(seq);
        }
    }
    /// Deems every packet in flight lost (a retransmission timeout). The
    /// retransmissions that follow may be deemed lost again by
    /// [`Scoreboard::mark_lost_below_acked`].
    pub fn all_in_flight_lost(&mut self) {
        for seq in self.snd_una..self.snd_nxt {
            self.mark_lost(seq);
        }
        self.loss_scan = self.snd_una;
    }
    /// RFC 6675 section 4, IsLost: a packet "is considered to be lost" when
    /// "DupThresh discontiguous SACKed sequences have arrived above" it.
    /// Deems lost every packet in flight with at least `dup_thresh`
    /// acknowledged packets above it, so that the pipe no longer counts
    /// packets that were dropped (section 4, SetPipe) and their
    /// retransmissions fit in the window. Each packet is examined once
    /// until the next timeout: a retransmission is not deemed lost again
    /// (RFC 6675 leaves a lost retransmission to the timer).
    pub fn mark_lost_below_acked(&mut self, dup_thresh: u32) {
        let floor = self.loss_scan.max(self.snd_una);
        // The `dup_thresh`-th acknowledged packet from the top: everything
        // below it has at least that many acknowledged above.
        let (mut p, mut above) = (self.high_acked, 0);
        while p > floor && above < dup_thresh {
            p -= 1;
            above += (self.state[p as usize] == ACKED) as u32;
        }
        if above < dup_thresh {
            return;
        }
        for seq in floor..p {
            self.mark_lost(seq);
        }
        self.loss_scan = p;
    }
    /// True when packet `seq` was examined by the loss marking since the
    /// last timeout (so, if it was in flight, deemed lost and sent again).
    pub fn loss_examined(&self, seq: u32) -> bool {
        seq < self.loss_scan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_are_resent_first_and_every_byte_is_counted_once() {
        let mut sb = Scoreboard::new(5 * 1460 + 100); // 6 packets, the last 100 B
        let sent: Vec<u32> = (0..4).map(|_| sb.take_next().unwrap()).collect();
        assert_eq!(sent, vec![0, 1, 2, 3]);
        assert_eq!(sb.in_flight, 4);
        // SACK of 2 with cumulative ACK 1: packets 0 and 2 acknowledged.
        assert_eq!(sb.on_ack(1, 2), 2);
        assert_eq!((sb.snd_una, sb.in_flight), (1, 2));
        sb.mark_lost(1);
        assert_eq!(sb.in_flight, 1);
        // The lost packet goes before new data.
        assert_eq!(sb.take_next(), Some(1));
        assert_eq!(sb.take_next(), Some(4));
        sb.all_in_flight_lost();
        assert_eq!(sb.in_flight, 0);
        assert_eq!((sb.take_next(), sb.take_next(), sb.take_next(), sb.take_next()), (Some(1), Some(3), Some(4), Some(5)));
        assert_eq!(sb.take_next(), None);
        // A duplicate ACK acknowledges nothing new.
        assert_eq!(sb.on_ack(6, 5), 4);
        assert_eq!(sb.on_ack(6, 5), 0);
        assert!(sb.done());
        assert_eq!(sb.acked_bytes, 5 * 1460 + 100);
    }

    #[test]
    fn a_packet_with_three_acknowledged_above_it_is_lost_once() {
        let mut sb = Scoreboard::new(10 * 1460);
        for _ in 0..10 {
            let _ = sb.take_next();
        }
        // Packets 0, 1, 2 and 4 dropped; 3, 5, 6 SACKed: 0..=2 have three
        // acknowledged above them, 4 only two.
        for s in [3, 5, 6] {
            sb.on_ack(0, s);
        }
        sb.mark_lost_below_acked(3);
        assert_eq!((sb.in_flight, sb.lost), (4, 3), "7, 8, 9 and 4 still in flight");
        assert_eq!((sb.take_next(), sb.take_next(), sb.take_next()), (Some(0), Some(1), Some(2)));
        // A fourth SACK above 4 makes it lost; the retransmissions of 0..=2
        // are not deemed lost again.
        sb.on_ack(0, 7);
        sb.mark_lost_below_acked(3);
        assert_eq!(sb.take_next(), Some(4));
        assert!(sb.loss_examined(0) && !sb.loss_examined(5));
        assert_eq!(sb.in_flight, 6, "0, 1, 2, 4 resent; 8, 9");
    }
}
