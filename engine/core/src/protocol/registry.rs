//! Every protocol the engine runs, listed once. The `protocols!` list
//! below makes the scenario's `protocol` names ([`ProtocolName`]), the
//! `params` object ([`ProtocolParams`], one field per protocol with
//! parameters) and the one `match` that turns a name into its
//! [`Plugin`]'s monomorphised code ([`ProtocolName::visit`]). Adding a
//! protocol adds one line here (see docs/architecture.md, "How to add a
//! protocol").

use super::plugin::{Descriptor, Plugin};
use super::ports::PortSetup;
use super::{fastpass, ideal, optimal_deadline, pase, pdq, phost, rcp, window};
use crate::net::Network;
use crate::trace::{ControlEvent, DEADLINE_ABORT};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Something to do with a protocol's [`Plugin`], whichever it is (each is
/// its own type, so this is a trait with a generic method rather than a
/// closure).
pub trait Visit {
    /// What the visit gives.
    type Out;
    /// Does the thing with plugin `P`, whose parameters are `params`.
    fn visit<P: Plugin>(self, name: ProtocolName, params: &P::Params) -> Self::Out;
}

/// The parameters of a protocol without any.
static NO_PARAMS: () = ();

/// A line may carry one `#[cfg(...)]` (the test protocol's
/// `#[cfg(test)]`): every item it makes is then compiled only under that
/// condition. Such a line needs a `params` part.
macro_rules! protocols {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $variant:ident = $name:literal => $plugin:ty $(, params $field:ident: $fdoc:literal)?;
    )*) => {
        /// Which protocol runs (docs/protocols/index.md). The order is the order of
        /// every list of protocols (help texts, sweeps, tests).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
        pub enum ProtocolName {
            $($(#[doc = $doc])* $(#[cfg($cfg)])? #[serde(rename = $name)] $variant,)*
        }

        impl ProtocolName {
            /// All protocols, for help texts and sweeps.
            pub const ALL: [ProtocolName; [$($(#[cfg($cfg)])? $name),*].len()] = [$($(#[cfg($cfg)])? ProtocolName::$variant),*];
            const NAMES: [&'static str; [$($(#[cfg($cfg)])? $name),*].len()] = [$($(#[cfg($cfg)])? $name),*];
            const DESCRIPTORS: [Descriptor; [$($(#[cfg($cfg)])? $name),*].len()] = [$($(#[cfg($cfg)])? <$plugin as Plugin>::DESCRIPTOR),*];

            /// Calls `v` with this protocol's plugin and its parameters in
            /// `all`: the one `match` over the protocols.
            pub fn visit<V: Visit>(self, all: &ProtocolParams, v: V) -> V::Out {
                match self {
                    $($(#[cfg($cfg)])? ProtocolName::$variant => v.visit::<$plugin>(self, protocols!(@params all $($field)?)),)*
                }
            }
        }

        /// Parameters of all protocols; the running protocol reads its own.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct ProtocolParams {
            $($(#[cfg($cfg)])? $(
                #[doc = $fdoc]
                #[serde(default)]
                pub $field: <$plugin as Plugin>::Params,
            )?)*
        }

        impl ProtocolParams {
            /// Checks every protocol's parameters, whichever runs; the
            /// error names the field and the reason.
            pub fn validate(&self) -> Result<(), String> {
                $($(#[cfg($cfg)])? { $(<$plugin as Plugin>::validate(&self.$field)?;)? })*
                Ok(())
            }
            /// Checks every protocol's parameters against the scenario's
            /// network ([`Plugin::validate_for`]); `running` is the
            /// protocol that runs.
            pub fn validate_for(&self, net: &Network, running: ProtocolName) -> Result<(), String> {
                $($(#[cfg($cfg)])? { $(<$plugin as Plugin>::validate_for(&self.$field, net, running == ProtocolName::$variant)?;)? })*
                Ok(())
            }
        }
    };
    (@params $all:ident $field:ident) => { &$all.$field };
    (@params $all:ident) => { &NO_PARAMS };
}

protocols! {
    /// TCP NewReno with SACK over DropTail queues (section 9).
    Tcp = "tcp" => window::TcpPlugin, params tcp: "TCP NewReno.";
    /// DCTCP over ECN-marking queues (section 9).
    Dctcp = "dctcp" => window::DctcpPlugin, params dctcp: "DCTCP.";
    /// pFabric: priority queues and minimal rate control (section 3).
    Pfabric = "pfabric" => window::PFabricPlugin, params pfabric: "pFabric.";
    /// RCP: switches compute a fair rate per link (section 9).
    Rcp = "rcp" => rcp::RcpPlugin, params rcp: "RCP.";
    /// The flow-level oracle: greedy SRPT matching (section 4).
    Ideal = "ideal" => ideal::IdealPlugin;
    /// pHost: receiver-driven tokens over priority queues (section 5).
    Phost = "phost" => phost::PhostPlugin, params phost: "pHost.";
    /// Fastpass: a central arbiter allocates timeslots (section 6).
    Fastpass = "fastpass" => fastpass::FastpassPlugin, params fastpass: "Fastpass.";
    /// D2TCP: DCTCP whose cut depends on deadline imminence (section 9).
    D2tcp = "d2tcp" => window::D2tcpPlugin, params d2tcp: "D2TCP.";
    /// L2DCT: DCTCP weighted by bytes sent, least attained service first
    /// (section 9).
    L2dct = "l2dct" => window::L2dctPlugin, params l2dct: "L2DCT.";
    /// PASE: arbitrated priority queues and reference rates, DCTCP-like
    /// end hosts (section 7).
    Pase = "pase" => pase::PasePlugin, params pase: "PASE.";
    /// PDQ: switches grant or pause flows by criticality (section 8).
    Pdq = "pdq" => pdq::PdqPlugin, params pdq: "PDQ.";
    /// D3: switches grant deadline flows their desired rate first come
    /// first served and share the rest (section 9).
    D3 = "d3" => rcp::D3Plugin, params d3: "D3: RCP's parameters, read the D3 way. alpha = 0.1 and beta = 1 (the PDQ paper's D3) steer each port's estimate of the capacity it allocates; `rtt_us` is also the interval between a flow's requests.";
    /// The optimal deadline scheduler: flow-level, earliest deadline first
    /// with the fewest flows discarded (Moore-Hodgson; PDQ's bound).
    OptimalDeadline = "optimal_deadline" => optimal_deadline::OptimalDeadlinePlugin;
    /// Stop-and-wait ARQ, the test protocol (unit tests only).
    #[cfg(test)]
    StopAndWait = "stop_and_wait" => super::stop_and_wait::StopAndWaitPlugin, params stop_and_wait: "Stop-and-wait (unit tests only).";
}

impl ProtocolName {
    /// The name used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// Flow-level schedulers (no packets: Ideal, the optimal deadline
    /// scheduler); every other protocol runs in the packet-level engine.
    pub fn is_flow_level(self) -> bool {
        self.descriptor().flow_level
    }
    /// What the page shows of it.
    pub fn descriptor(self) -> Descriptor {
        Self::DESCRIPTORS[self as usize]
    }
    /// Why a run of it can never be split between threads
    /// ([`Plugin::unsplittable`]), with its parameters in `all`.
    pub fn unsplittable(self, all: &ProtocolParams) -> Option<&'static str> {
        struct Why;
        impl Visit for Why {
            type Out = Option<&'static str>;
            fn visit<P: Plugin>(self, _: ProtocolName, p: &P::Params) -> Self::Out {
                P::unsplittable(p)
            }
        }
        self.visit(all, Why)
    }
    /// Parses a command-line name.
    pub fn parse(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| format!("protocol: unknown protocol `{s}` (known: {})", Self::ALL.map(|p| p.as_str()).join(", ")))
    }
}

impl PortSetup {
    /// The ports `protocol` runs on with parameters `p` (each protocol's
    /// `Plugin::ports`).
    pub fn of(protocol: ProtocolName, p: &ProtocolParams) -> PortSetup {
        struct Ports;
        impl Visit for Ports {
            type Out = PortSetup;
            fn visit<P: Plugin>(self, _: ProtocolName, p: &P::Params) -> PortSetup {
                P::ports(p)
            }
        }
        protocol.visit(p, Ports)
    }
}

/// Every control event a run can trace, each once, in code order: each
/// protocol's ([`Descriptor::controls`]) in the registry's order, then the
/// protocol-agnostic [`DEADLINE_ABORT`]. An event's place here is its code
/// (the aux column of the browser binding's records); `dcsim names`
/// exports the list, with the words, to the page.
pub fn control_events() -> &'static [&'static ControlEvent] {
    static ALL: OnceLock<Vec<&'static ControlEvent>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all: Vec<&'static ControlEvent> = Vec::new();
        let listed = ProtocolName::DESCRIPTORS.iter().flat_map(|d| d.controls.iter().copied());
        for e in listed.chain([DEADLINE_ABORT]) {
            if !all.iter().any(|seen| seen.name == e.name) {
                all.push(e);
            }
        }
        all
    })
}

/// An event's code: its place in [`control_events`], or `None` for an
/// event no protocol's descriptor lists.
pub fn control_code(e: &ControlEvent) -> Option<u8> {
    control_events().iter().position(|seen| seen.name == e.name).and_then(|i| u8::try_from(i).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::plugin::{Build, Env, FlowlevelFn, PriorityKey};
    use crate::protocol::ports::{Discipline, PortSetup};
    use crate::protocol::Protocol;

    /// Whether a protocol builds as a flow-level scheduler.
    struct Kind;
    impl Build for Kind {
        type Out = bool;
        fn packet<P: Protocol<Timer: Send> + Send + 'static>(self, _: &(dyn Fn(&Network, Env) -> P + Sync)) -> bool {
            false
        }
        fn flow(self, _: FlowlevelFn) -> bool {
            true
        }
    }
    struct BuildsFlowLevel;
    impl Visit for BuildsFlowLevel {
        type Out = bool;
        fn visit<P: Plugin>(self, _: ProtocolName, p: &P::Params) -> bool {
            P::build(p, Kind)
        }
    }

    /// Every registered protocol has a complete descriptor that agrees
    /// with how it is built and the ports it runs on: the page draws its
    /// legend, colours, list and fields from these alone.
    #[test]
    fn every_protocol_has_a_complete_descriptor() {
        let defaults = ProtocolParams::default();
        let mut ranks: Vec<u8> = Vec::new();
        for p in ProtocolName::ALL {
            let d = p.descriptor();
            let name = p.as_str();
            assert_eq!(serde_json::to_value(p).unwrap(), name, "{name}: its file name is its name");
            assert!(!d.label.is_empty() && d.summary.len() > d.label.len(), "{name}: a label and a summary");
            assert!(d.color.len() == 7 && d.color.starts_with('#') && d.color[1..].chars().all(|c| c.is_ascii_hexdigit()), "{name}: colour {}", d.color);
            ranks.push(d.list_rank);
            let ports = PortSetup::of(p, &defaults);
            assert_eq!(d.flow_level, p.visit(&defaults, BuildsFlowLevel), "{name}: flow_level says how it is built");
            assert_eq!(d.flow_level, ports.discipline == Discipline::None, "{name}: flow-level protocols have no ports");
            match d.priority {
                PriorityKey::None => assert!(d.flow_level, "{name}"),
                PriorityKey::Fifo => assert!(matches!(ports.discipline, Discipline::Droptail | Discipline::Ecn), "{name}"),
                PriorityKey::Ranks { bounds } => assert!(ports.discipline == Discipline::Pfabric && !bounds.is_empty(), "{name}"),
                PriorityKey::Queues { labels } => {
                    assert_eq!(ports.discipline, Discipline::StrictPriority, "{name}");
                    assert!(!labels.is_empty() && labels.len() <= ports.queues as usize, "{name}: a label for each named sub-queue");
                }
            }
            if !d.flow_level {
                assert!(d.fields.iter().any(|f| f.key == "buffer_bytes"), "{name}: the panel offers its buffer");
            }
        }
        ranks.sort();
        assert_eq!(ranks, (0..ProtocolName::ALL.len() as u8).collect::<Vec<_>>(), "list ranks are 0..n, each once");
    }

    /// Every control event a protocol declares has a name and the words
    /// the page shows; one name is one event (two protocols sharing an
    /// event share its words); and every event has a code the browser
    /// binding can write (one byte).
    #[test]
    fn every_control_event_has_words_and_a_code() {
        for p in ProtocolName::ALL {
            for e in p.descriptor().controls {
                let name = p.as_str();
                assert!(
                    !e.name.is_empty() && e.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                    "{name}: event name {:?}",
                    e.name
                );
                assert!(!e.text.trim().is_empty(), "{name}: control event {} has no words for the page", e.name);
                let code = control_code(e).unwrap_or_else(|| panic!("{name}: {} has no code", e.name));
                assert_eq!(control_events()[code as usize], *e, "{name}: {} is one event under one name", e.name);
            }
        }
        assert!(!DEADLINE_ABORT.text.is_empty() && control_code(DEADLINE_ABORT).is_some());
        assert!(control_events().len() <= 256, "codes fit in a byte");
    }

    /// Every parameter of every protocol has a doc comment (it becomes
    /// the scenario reference and the page's help), every field the page
    /// offers is one of them, and a protocol reads a DCTCP profile exactly
    /// when its descriptor says so.
    #[test]
    fn every_parameter_is_documented() {
        let schema = serde_json::to_value(schemars::schema_for!(ProtocolParams)).unwrap();
        let defaults = serde_json::to_value(ProtocolParams::default()).unwrap();
        for p in ProtocolName::ALL {
            let (name, d) = (p.as_str(), p.descriptor());
            let Some(prop) = schema["properties"].get(name) else {
                assert!(d.fields.is_empty() && d.flow_level, "{name}: fields without parameters");
                continue;
            };
            assert!(prop["description"].as_str().is_some_and(|s| !s.is_empty()), "{name}: its params field is documented");
            let r = prop["allOf"][0]["$ref"].as_str().or(prop["$ref"].as_str()).expect("a reference");
            let def = &schema["$defs"][r.trim_start_matches("#/$defs/")];
            let fields = def["properties"].as_object().expect("fields");
            for (k, v) in fields {
                assert!(v["description"].as_str().is_some_and(|s| !s.is_empty()), "params.{name}.{k} has no doc comment");
            }
            for f in d.fields {
                assert!(fields.contains_key(f.key), "{name}: the page's field {} is not a parameter", f.key);
                assert!(defaults[name][f.key].is_u64(), "{name}.{}: a whole-number default", f.key);
                assert!(!f.label.is_empty() && !f.source.is_empty(), "{name}.{}: a label and a source", f.key);
            }
            let profile = fields.get("profile").map(|f| f.to_string());
            assert_eq!(d.dctcp_profile, profile.is_some_and(|f| f.contains("DctcpProfile")), "{name}: reads a DCTCP profile");
        }
    }
}
