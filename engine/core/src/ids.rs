//! Typed indices. Nodes, ports, links and flows are named by small integers
//! into the simulation's tables, never by pointers, so that state can be
//! copied, compared and sent to the browser as flat arrays.

use serde::{Deserialize, Serialize};

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub struct $name(pub u32);
        impl $name {
            /// The index into the owning table.
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

typed_id!(
    /// A host or a switch.
    NodeId
);
typed_id!(
    /// An output port: the start of one direction of a link, with its queue.
    PortId
);
typed_id!(
    /// A full-duplex link: two ports, one per direction.
    LinkId
);
typed_id!(
    /// A flow: one transfer of a given size from a source host to a destination host.
    FlowId
);
