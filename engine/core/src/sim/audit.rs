//! The delivery audit (tests: every completed flow received exactly its
//! size, counted independently of the protocol) and the per-tenant bytes
//! delivered: the rarely wanted work on a delivered data packet.

use super::Simulation;
use crate::packet::Packet;
use crate::protocol::Protocol;

impl<P: Protocol> Simulation<P> {
    /// The audit and the per-tenant bytes of a delivered data packet.
    #[cold]
    #[inline(never)]
    pub(super) fn delivery_accounting(&mut self, p: &Packet) {
        if self.cfg.audit {
            self.audit_delivery(p);
        }
        if !self.tenant_bytes_delivered.is_empty() {
            let t = self.records[p.flow.idx()].tenant as usize;
            self.tenant_bytes_delivered[t] += p.size as u64;
        }
    }

    /// Marks a data packet delivered in the audit (once per packet) and
    /// checks its size.
    fn audit_delivery(&mut self, p: &Packet) {
        let f = p.flow.idx();
        let (w, b) = (p.seq as usize / 64, p.seq % 64);
        if self.audit[f][w] & (1 << b) == 0 {
            self.audit[f][w] |= 1 << b;
            let size = self.records[f].size;
            assert_eq!(p.size as u32, crate::units::data_packet_wire_size(size, p.seq), "audit: flow {} packet {} has the wrong size", f, p.seq);
            self.audit_bytes[f] += crate::units::data_packet_payload(size, p.seq) as u64;
        }
    }
}
