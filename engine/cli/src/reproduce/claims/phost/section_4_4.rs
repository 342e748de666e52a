//! Section 4.4, Figure 11: tenants sharing the network fairly.

use super::*;

// ---------------------------------------------------- tenants, Fig 11

/// When the two tenants' throughputs are compared: the first 4 ms, while
/// both are backlogged.
pub(super) const TENANT_WINDOW_US: f64 = 4000.0;

pub(super) const PFABRIC_FAVOURS: Reading = Reading {
    key: "pfabric-imc10",
    says: "pFabric allows the IMC10 tenant to achieve significantly higher throughput than the Web Search tenant",
    of: "under pFabric, the IMC10 tenant's throughput over the web search tenant's",
    bound: significantly_above(),
    kind: Kind::Value,
    rule: Rule::Significant,
};
pub(super) const PFABRIC_FAVOURS_ORDER: Reading = Reading {
    key: "pfabric-imc10-order",
    says: "higher throughput than the Web Search tenant",
    of: "under pFabric, the IMC10 tenant's throughput over the web search tenant's",
    bound: Bound::above(1.0),
    kind: Kind::Order,
    rule: Rule::Ordering,
};
pub(super) const PHOST_SIMILAR: Reading = Reading {
    key: "phost-similar",
    says: "with pHost, the two tenants see similar throughput",
    of: "under tenant-fair pHost, the IMC10 tenant's throughput over the web search tenant's",
    bound: comparable(),
    kind: Kind::Value,
    rule: Rule::Comparable,
};

/// The run size the tenant experiment is judged again at (the paper does
/// not give it): tenant-fair pHost is fair at each receiver, so it splits
/// the network evenly only while both tenants have flows at nearly every
/// host; fewer flows leave receivers to one tenant.
pub(super) const TENANT_FLOWS: [Variant; 2] = [
    Variant {
        name: "4,000 flows",
        why: "the paper does not give the number of flows; about 3 web search flows per host",
        settings: &[Applied { path: "workload.flows", value: "4000", why: "a run size (the paper gives none)" }],
    },
    Variant {
        name: "10,000 flows",
        why: "the paper does not give the number of flows; about 7 web search flows per host",
        settings: &[Applied { path: "workload.flows", value: "10000", why: "a run size (the paper gives none)" }],
    },
];

pub(super) fn tenants(lab: &Lab, size: &Size) -> Option<Judged> {
    let schemes = [(P::Pfabric, "srpt"), (P::Phost, "tenant_fair")];
    let mut jobs = Vec::new();
    for &(p, policy) in &schemes {
        for &seed in size.seeds {
            let mut s = lab.scenario("phost-two-tenants").with_field("params.phost.policy", policy.into()).expect("a pHost policy");
            s.protocol = p;
            s.seed = seed;
            if let Some(f) = size.flows_at(0) {
                s.workload.flows = f;
            }
            jobs.push(crate::reproduce::lab::Job::new(s).until_us(TENANT_WINDOW_US));
        }
    }
    let out = lab.runs(jobs)?;
    let n = size.seeds.len();
    let ratio = |o: &&Outcome| o.tenant_bytes[0] as f64 / o.tenant_bytes[1].max(1) as f64;
    let (pf, ph): (Vec<f64>, Vec<f64>) = (out[..n].iter().map(ratio).collect(), out[n..].iter().map(ratio).collect());
    Some(Judged {
        value: format!("IMC10 / web search throughput: pFabric {}, tenant-fair pHost {}", fmt(mean(pf.iter().copied())), fmt(mean(ph.iter().copied()))),
        checks: vec![
            Check::of(&PFABRIC_FAVOURS_ORDER, "pFabric: IMC10 / web search bytes delivered in the first 4 ms", pf.clone()),
            Check::of(&PFABRIC_FAVOURS, "pFabric: IMC10 / web search bytes delivered in the first 4 ms", pf),
            Check::of(&PHOST_SIMILAR, "tenant-fair pHost: IMC10 / web search bytes delivered in the first 4 ms", ph),
        ],
        notes: Vec::new(),
    })
}
