//! CSV reports: the per-flow table and the summary rows. The command line
//! and the browser both call these, so their files are byte-identical.

use crate::metrics::{BucketStats, FlowRecord, Summary};
use crate::net::PortRole;

/// Columns of the per-flow CSV.
pub const FLOW_COLUMNS: [&str; 13] = [
    "flow_id", "src", "dst", "size_bytes", "start_us", "end_us", "fct_us", "ideal_fct_us", "slowdown", "deadline_us", "met_deadline", "tenant", "request",
];

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// The per-flow CSV: one row per arrived flow (unfinished flows have empty
/// end, FCT and slowdown).
pub fn flows_csv(records: &[FlowRecord]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(FLOW_COLUMNS).unwrap();
    for r in records.iter().filter(|r| !r.background) {
        w.write_record([
            r.id.to_string(),
            r.src.to_string(),
            r.dst.to_string(),
            r.size.to_string(),
            r.start.as_us_f64().to_string(),
            opt(r.end.map(|e| e.as_us_f64())),
            opt(r.fct().map(|f| f.as_us_f64())),
            r.ideal.as_us_f64().to_string(),
            opt(r.slowdown()),
            opt(r.deadline.map(|d| d.as_us_f64())),
            opt(r.met_deadline()),
            r.tenant.to_string(),
            opt(r.request),
        ])
        .unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// Columns of the summary CSV.
pub fn summary_columns() -> Vec<String> {
    let mut c: Vec<String> = ["scenario", "protocol", "load", "seed", "flows", "mean_slowdown", "p99_slowdown", "afct_us", "nfct", "drop_rate", "completed", "stable"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for b in ["short", "medium", "long"] {
        for m in ["flows", "mean_slowdown", "p99_slowdown", "afct_us", "nfct"] {
            c.push(format!("{b}_{m}"));
        }
    }
    for r in PortRole::ALL {
        c.push(format!("drops_{}", r.name()));
    }
    for x in ["deadlines_met", "mean_request_us", "throughput_gbps", "control_overhead", "sim_time_us", "events", "fault_drops"] {
        c.push(x.to_string());
    }
    c
}

fn bucket(b: &BucketStats) -> [String; 5] {
    [b.flows.to_string(), b.mean_slowdown.to_string(), b.p99_slowdown.to_string(), b.afct_us.to_string(), b.nfct.to_string()]
}

/// The summary CSV: a header and one row per run.
pub fn summary_csv(rows: &[Summary]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(summary_columns()).unwrap();
    for s in rows {
        let mut r: Vec<String> = vec![
            s.scenario.clone(),
            s.protocol.clone(),
            s.load.to_string(),
            s.seed.to_string(),
            s.flows.to_string(),
            s.all.mean_slowdown.to_string(),
            s.all.p99_slowdown.to_string(),
            s.all.afct_us.to_string(),
            s.all.nfct.to_string(),
            s.drop_rate.to_string(),
            s.completed.to_string(),
            s.stable.to_string(),
        ];
        for b in [&s.short, &s.medium, &s.long] {
            r.extend(bucket(b));
        }
        r.extend(s.drops_by_hop.iter().map(|d| d.to_string()));
        r.extend([
            opt(s.deadlines_met),
            opt(s.mean_request_us),
            s.throughput_gbps.to_string(),
            s.control_overhead.to_string(),
            s.sim_time_us.to_string(),
            s.events.to_string(),
            s.fault_drops.to_string(),
        ]);
        w.write_record(r).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}
