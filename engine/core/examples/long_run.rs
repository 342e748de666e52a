//! Long-run diagnostics (issue 21): runs a scenario and prints, every
//! `step` of simulated time, the offered and delivered bytes and the
//! backlog, so that a growing backlog can be told from a slow start or a
//! heavy tail.
//!
//! `cargo run --release -p dcsim-core --example long_run -- SCENARIO PROTOCOL FLOWS [STEP_MS]`
//!
//! Columns: t_ms, flows arrived, flows done, unfinished (count, MB of
//! their sizes), offered MB (payload of arrived flows), sent and delivered
//! data MB (wire bytes, retransmissions included), data packets dropped,
//! host-link load of the arrivals so far (payload / (hosts x rate x t)).

use dcsim_core::scenario::ProtocolName;
use dcsim_core::units::SimTime;
use dcsim_core::{prepare, RunOptions, Scenario};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!("usage: long_run SCENARIO PROTOCOL FLOWS [STEP_MS]");
        std::process::exit(2);
    }
    let mut s = Scenario::from_json(&std::fs::read_to_string(&a[1]).expect("scenario file")).expect("valid scenario");
    s.protocol = ProtocolName::ALL.into_iter().find(|p| p.as_str() == a[2]).expect("protocol");
    s.workload.flows = a[3].parse().expect("flows");
    let step_ms: f64 = a.get(4).map_or(5.0, |x| x.parse().expect("step"));
    let mut r = prepare(&s, RunOptions::default()).expect("prepare");
    let hosts = r.network().n_hosts as f64;
    let rate = r.network().host_rate.bps() as f64;
    println!("t_ms,arrived,done,unfinished,unfinished_mb,offered_mb,sent_mb,delivered_mb,dropped,arrival_load");
    let mut t = 0.0;
    loop {
        t += step_ms;
        let going = r.run_until(SimTime::from_us_f64(t * 1000.0));
        let rec = r.records();
        let done = rec.iter().filter(|f| f.end.is_some()).count();
        let unf: Vec<_> = rec.iter().filter(|f| f.end.is_none() && !f.background).collect();
        let unf_mb = unf.iter().map(|f| f.size as f64).sum::<f64>() / 1e6;
        let offered = rec.iter().filter(|f| !f.background).map(|f| f.size as f64).sum::<f64>();
        let c = r.counters();
        let last = rec.iter().map(|f| f.start).max().unwrap_or(SimTime::ZERO).as_us_f64() / 1e6;
        let load = if last > 0.0 { offered * 8.0 / (hosts * rate * last.min(t / 1000.0)) } else { 0.0 };
        println!(
            "{t},{},{done},{},{unf_mb:.2},{:.2},{:.2},{:.2},{},{load:.4}",
            rec.len(),
            unf.len(),
            offered / 1e6,
            c.data_bytes_sent as f64 / 1e6,
            c.data_bytes_delivered as f64 / 1e6,
            c.data_dropped.iter().sum::<u64>()
        );
        if !going {
            break;
        }
    }
}
