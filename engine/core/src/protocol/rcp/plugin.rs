//! RCP and D3 as plug-ins: both run as [`Rcp`] over DropTail ports, with
//! the same parameter type read their own ways.

use super::params::{rcp_like, RcpParams};
use super::Rcp;
use crate::ids::NodeId;
use crate::net::Network;
use crate::protocol::plugin::{buffer_field, Build, Descriptor, Plugin, PriorityKey};
use crate::protocol::ports::{Discipline, PortSetup};

/// RCP (Dukkipati and McKeown; docs/protocols/rcp.md): switches compute
/// a fair rate per link.
pub struct RcpPlugin;

impl Plugin for RcpPlugin {
    type Params = RcpParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "RCP",
        summary: "RCP: switches compute a fair rate per link and stamp it on the packets",
        color: "#2b8a3e",
        list_rank: 10,
        flow_level: false,
        dctcp_profile: false,
        priority: PriorityKey::Fifo,
        fields: &[buffer_field("pFabric Table 1: 225 KB")],
        controls: &[super::events::RCP_REFRESH],
    };
    fn validate(p: &RcpParams) -> Result<(), String> {
        rcp_like("rcp", p)
    }
    fn validate_for(p: &RcpParams, net: &Network, running: bool) -> Result<(), String> {
        if running {
            check_rate_interval("params.rcp.rtt_us", p.rtt_us, net)?;
        }
        Ok(())
    }
    fn ports(p: &RcpParams) -> PortSetup {
        PortSetup::fifo(Discipline::Droptail, p.buffer_bytes, None)
    }
    fn build<B: Build>(p: &RcpParams, b: B) -> B::Out {
        b.packet(&|net, _| Rcp::new(p.clone(), port_rates(net)))
    }
}

/// D3 (Wilson et al., SIGCOMM 2011; docs/protocols/d3.md): switches
/// grant deadline flows their desired rate first come first served and
/// share the rest.
pub struct D3Plugin;

impl Plugin for D3Plugin {
    type Params = RcpParams;
    const DESCRIPTOR: Descriptor = Descriptor {
        label: "D3",
        summary: "D3: switches grant deadline flows their desired rate first come first served and share the rest",
        color: "#5c940d",
        list_rank: 5,
        flow_level: false,
        dctcp_profile: false,
        priority: PriorityKey::Fifo,
        fields: &[buffer_field("pFabric Table 1: 225 KB")],
        controls: &[super::events::D3_QUENCH, super::events::RCP_REFRESH],
    };
    fn validate(p: &RcpParams) -> Result<(), String> {
        rcp_like("d3", p)?;
        if p.count_flows {
            return Err("params.d3.count_flows: RCP only (D3's ports already keep every flow's allocation); set params.rcp.count_flows".into());
        }
        Ok(())
    }
    fn validate_for(p: &RcpParams, net: &Network, running: bool) -> Result<(), String> {
        if running {
            check_rate_interval("params.d3.rtt_us", p.rtt_us, net)?;
        }
        Ok(())
    }
    fn ports(p: &RcpParams) -> PortSetup {
        PortSetup::fifo(Discipline::Droptail, p.buffer_bytes, None)
    }
    /// D3 is single-path (see `RcpParams::d3_per_flow_paths`).
    fn single_path(p: &RcpParams) -> bool {
        p.d3_per_flow_paths
    }
    fn build<B: Build>(p: &RcpParams, b: B) -> B::Out {
        b.packet(&|net, _| Rcp::d3(p.clone(), port_rates(net), net.host_rate.bps() as f64))
    }
}

/// Every port's rate, bits per second.
fn port_rates(net: &Network) -> Vec<f64> {
    net.ports.iter().map(|x| x.rate.bps() as f64).collect()
}

/// RCP and D3 update rates once per `rtt_us`: far below the network's
/// round trip they react many times before any feedback returns, rates
/// collapse and flows starve (D3 on a 250 us rack with the 10 us
/// default sent over a billion refreshes). Refuses an interval under
/// half the smallest round trip of link delays (hosts 0 and 1).
fn check_rate_interval(field: &str, rtt_us: f64, net: &Network) -> Result<(), String> {
    if net.n_hosts < 2 {
        return Ok(());
    }
    let one_way: u64 = net.path(NodeId(0), NodeId(1)).iter().map(|p| net.ports[p.idx()].delay.ps()).sum();
    let round_trip_us = 2.0 * one_way as f64 / 1e6;
    if rtt_us < 0.5 * round_trip_us {
        return Err(format!(
            "{field}: {rtt_us} us is under half this network's smallest round trip ({round_trip_us} us of link delays between hosts 0 and 1); rates would be updated long before any feedback returns and flows starve: set it to about the round trip"
        ));
    }
    Ok(())
}
