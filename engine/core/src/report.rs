//! CSV reports: the per-flow table, the summary rows and the sweep table.
//! The command line and the browser both call these, so their files are
//! byte-identical.
//!
//! Text cells (a scenario name, a label from an imported file or a share
//! link, a varied value) go through [`text_cell`] so that a spreadsheet
//! never reads them as a formula (CSV injection); number cells are written
//! as numbers, negative ones included. Quoting is RFC 4180's: a field is
//! quoted when it holds a comma, a quote or a line break.

use crate::metrics::{BucketStats, FlowRecord, StopReason, Summary};
use crate::net::PortRole;

/// Columns of the per-flow CSV.
pub const FLOW_COLUMNS: [&str; 13] =
    ["flow_id", "src", "dst", "size_bytes", "start_us", "end_us", "fct_us", "ideal_fct_us", "slowdown", "deadline_us", "met_deadline", "tenant", "request"];

/// A text cell made safe for spreadsheets (OWASP, "CSV Injection"): text
/// that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
/// single quote in front, so that Excel, LibreOffice and Google Sheets show
/// it as text instead of evaluating it. Only for text: numbers (`-0.5`) are
/// never passed here. The CSV writer then quotes the cell if it needs it.
pub fn text_cell(s: &str) -> String {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{s}"),
        _ => s.to_string(),
    }
}

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
    let mut c: Vec<String> =
        ["scenario", "protocol", "load", "seed", "flows", "mean_slowdown", "p99_slowdown", "afct_us", "nfct", "drop_rate", "completed", "stable"]
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
    for x in ["deadlines_met", "mean_request_us", "throughput_gbps", "control_overhead", "sim_time_us", "events", "fault_drops", "stop"] {
        c.push(x.to_string());
    }
    c
}

fn bucket(b: &BucketStats) -> [String; 5] {
    [b.flows.to_string(), b.mean_slowdown.to_string(), b.p99_slowdown.to_string(), b.afct_us.to_string(), b.nfct.to_string()]
}

/// The name of a stop reason in the summary CSV (as in the summary JSON).
pub fn stop_name(s: StopReason) -> &'static str {
    match s {
        StopReason::AllFlowsDone => "all_flows_done",
        StopReason::Idle => "idle",
        StopReason::TimeLimit => "time_limit",
        StopReason::EventLimit => "event_limit",
    }
}

/// The cells of one summary row, in [`summary_columns`] order.
fn summary_record(s: &Summary) -> Vec<String> {
    // No flow arrived: nothing measured, so empty cells, not a zero slowdown.
    let measured = |x: String| if s.no_arrivals() { String::new() } else { x };
    let mut r: Vec<String> = vec![text_cell(&s.scenario), text_cell(&s.protocol), s.load.to_string(), s.seed.to_string(), s.flows.to_string()];
    r.extend([s.all.mean_slowdown, s.all.p99_slowdown, s.all.afct_us, s.all.nfct, s.drop_rate].map(|x| measured(x.to_string())));
    r.extend([s.completed.to_string(), s.stable.to_string()]);
    for b in [&s.short, &s.medium, &s.long] {
        r.extend(bucket(b).map(measured));
    }
    r.extend(s.drops_by_hop.iter().map(|d| d.to_string()));
    r.extend([opt(s.deadlines_met), opt(s.mean_request_us)]);
    r.extend([s.throughput_gbps, s.control_overhead].map(|x| measured(x.to_string())));
    r.extend([s.sim_time_us.to_string(), s.events.to_string(), s.fault_drops.to_string(), stop_name(s.stop).to_string()]);
    r
}

/// Writes CSV records (RFC 4180 quoting, `\n` line ends).
fn write_records<I: IntoIterator<Item = Vec<String>>>(records: I) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in records {
        w.write_record(r).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// The summary CSV: a header and one row per run.
pub fn summary_csv(rows: &[Summary]) -> String {
    write_records(std::iter::once(summary_columns()).chain(rows.iter().map(summary_record)))
}

/// The header line of a sweep's CSV (with its `\n`): the summary columns,
/// after a first column named after the varied field (`dcsim sweep
/// --vary PATH=...`) if there is one.
pub fn sweep_header(vary: Option<&str>) -> String {
    write_records([vary.map(text_cell).into_iter().chain(summary_columns()).collect()])
}

/// One line of a sweep's CSV (with its `\n`): the varied value's label
/// (text, or a JSON number or boolean written as such) if the sweep varies
/// a field, then the run's summary row.
pub fn sweep_line(label: Option<&serde_json::Value>, s: &Summary) -> String {
    let first = label.map(|v| match v {
        serde_json::Value::String(t) => text_cell(t),
        other => other.to_string(),
    });
    write_records([first.into_iter().chain(summary_record(s)).collect()])
}

/// A sweep's CSV: [`sweep_header`], then [`sweep_line`] for each run in
/// grid order. `dcsim sweep merge` concatenates the same header and lines
/// from per-run files, so a sharded sweep gives the same bytes.
pub fn sweep_csv(vary: Option<&str>, runs: &[(Option<serde_json::Value>, Summary)]) -> String {
    let mut out = sweep_header(vary);
    for (label, s) in runs {
        out.push_str(&sweep_line(label.as_ref(), s));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    fn cells(csv: &str) -> Vec<Vec<String>> {
        let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(csv.as_bytes());
        r.records().map(|x| x.unwrap().iter().map(str::to_string).collect()).collect()
    }

    fn summary(name: &str) -> Summary {
        let s =
            Scenario::from_json(&format!(r#"{{"name":{},"topology":{{"kind":"single_rack","hosts":4}},"workload":{{"flows":3}}}}"#, serde_json::json!(name)))
                .unwrap();
        crate::run(&s, Default::default()).unwrap().summary
    }

    #[test]
    fn text_cells_that_a_spreadsheet_would_evaluate_get_a_quote_and_numbers_stay_numbers() {
        for (name, cell) in [
            ("=HYPERLINK(\"http://evil\",\"x\")", "'=HYPERLINK(\"http://evil\",\"x\")"),
            ("-1+2", "'-1+2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("+cmd", "'+cmd"),
            ("\tx", "'\tx"),
            ("\r=1", "'\r=1"),
            ("web, search", "web, search"),
            ("plain", "plain"),
        ] {
            let mut s = summary(name);
            s.all.mean_slowdown = -0.5;
            s.load = -1.0;
            let text = summary_csv(&[s]);
            let rows = cells(&text);
            assert_eq!(rows[1][0], cell, "{name:?}");
            assert_eq!(rows[1][2], "-1", "a negative number stays a number");
            assert_eq!(rows[1][5], "-0.5");
            // RFC 4180: quoted exactly when the cell holds a comma, quote or line break.
            let quoted = cell.contains([',', '"', '\r', '\n']);
            assert_eq!(text.lines().nth(1).unwrap().starts_with('"'), quoted, "{text}");
            // The sweep table escapes the scenario cell and a text label, not a number label.
            let line = sweep_line(Some(&serde_json::json!(name)), &summary(name));
            assert_eq!(cells(&line)[0][..2], [cell.to_string(), cell.to_string()]);
            let line = sweep_line(Some(&serde_json::json!(-3)), &summary(name));
            assert_eq!(cells(&line)[0][0], "-3");
        }
    }

    #[test]
    fn the_sweep_header_escapes_a_hostile_varied_path() {
        assert!(sweep_header(Some("=1+1")).starts_with("'=1+1,scenario,"));
        assert!(sweep_header(None).starts_with("scenario,"));
    }
}
