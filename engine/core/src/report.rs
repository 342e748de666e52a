//! CSV reports: the per-flow table, the summary rows and the sweep table.
//! The command line and the browser both call these, so their files are
//! byte-identical.
//!
//! Text cells (a scenario name, a label from an imported file or a share
//! link, a varied value) go through [`text_cell`] so that a spreadsheet
//! never reads them as a formula (CSV injection); number cells are written
//! as numbers, negative ones included. Quoting is RFC 4180's: a field is
//! quoted when it holds a comma, a quote or a line break.

use crate::metrics::{BucketStats, FlowRecord, StopReason, Summary, LONG_FLOW_MIN, SHORT_FLOW_MAX};
use crate::net::PortRole;
use crate::units::SimTime;

/// One column of a CSV the engine writes: its header and what it holds in
/// words, with its unit and precision. The headers are made from these, and
/// the data dictionary ([`dictionary_markdown`], docs/reference/csv.md, the
/// README of the page's exports) is too, so the two cannot disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The header, spreadsheet-friendly: letters, digits and underscores,
    /// the unit last (`fct_us`, `drop_rate_pct`).
    pub name: String,
    /// What the column holds, its unit and precision, for a person.
    pub meaning: String,
}

fn col(name: impl Into<String>, meaning: impl Into<String>) -> Column {
    Column { name: name.into(), meaning: meaning.into() }
}

/// Precision of times: microseconds written exactly (the engine counts
/// picoseconds), trailing zeros dropped.
const EXACT_US: &str = "microseconds of simulated time, exact (to the picosecond)";

/// The columns of the per-flow CSV (`dcsim run --flows-csv`, the page's
/// flows.csv): one row per flow that arrived.
pub fn flow_columns() -> Vec<Column> {
    vec![
        col("flow_id", "The flow's id: 0-based, in order of arrival (what the page's flow inspector and a fault's `drop_next.flow` name)."),
        col("src", "The sending host, named as the page names it: h0 is the first host."),
        col("dst", "The receiving host (h0 is the first host)."),
        col("size_bytes", "The flow's payload, bytes."),
        col("start_us", format!("When the flow arrived at its sender, {EXACT_US}.")),
        col("end_us", format!("When the receiver held the flow's last byte, {EXACT_US}; empty if the flow did not finish.")),
        col("fct_us", format!("Flow completion time: end_us minus start_us, {EXACT_US}; empty if unfinished.")),
        col(
            "ideal_fct_us",
            format!("The ideal completion time: the flow alone on an idle network at line rate (propagation, serialization and headers), {EXACT_US}."),
        ),
        col("slowdown", "fct_us over ideal_fct_us (1 is ideal, 2 took twice as long), 4 decimals; empty if unfinished."),
        col("deadline_us", format!("The flow's deadline after its start, {EXACT_US}; empty when it has none.")),
        col("met_deadline", "true if the flow finished by its deadline, false if not; empty when it has none."),
        col("tenant", "The tenant the flow belongs to (0 when the workload has one tenant)."),
        col("request", "The request or query the flow belongs to (incast and query-aggregation workloads), 0-based; empty for open-loop workloads."),
    ]
}

/// The size classes of the summary: column prefix, and the flows they hold in words.
fn size_classes() -> [(String, String); 3] {
    let kb = SHORT_FLOW_MAX / 1000;
    let mb = LONG_FLOW_MIN / 1_000_000;
    [
        (format!("short_under_{kb}KB"), format!("short flows (under {kb} KB, {SHORT_FLOW_MAX} bytes)")),
        (format!("medium_{kb}KB_to_{mb}MB"), format!("medium flows ({kb} KB to {mb} MB, both included)")),
        (format!("long_over_{mb}MB"), format!("long flows (over {mb} MB, {LONG_FLOW_MIN} bytes)")),
    ]
}

/// The hop a drop counter covers, in words.
fn hop_words(r: PortRole) -> &'static str {
    match r {
        PortRole::HostNic => "at a host's NIC: the first hop, the host's own link up to its switch",
        PortRole::Up => "at a top-of-rack switch's uplink towards the core (or spine)",
        PortRole::Down => "at a core (or spine) switch's downlink towards a rack",
        PortRole::Edge => "at a top-of-rack switch's port down to a host: the last hop",
    }
}

/// The columns of the summary CSV (`dcsim run --summary-csv`, the page's
/// summary.csv and all summaries.csv; a sweep's CSV after its varied
/// column): one row per run.
pub fn summary_columns() -> Vec<Column> {
    let slowdown = "4 decimals";
    let mut c = vec![
        col("scenario", "The scenario's name."),
        col("protocol", "The transport protocol simulated."),
        col("load", "The offered load: the workload's arrival rate as a fraction of the hosts' link capacity (as the scenario gives it)."),
        col("seed", "The random seed of the workload."),
        col("flows", "Flows that arrived before the run stopped."),
        col("mean_slowdown", format!("Mean slowdown of the completed flows (each flow's FCT over its ideal FCT; 1 is ideal), {slowdown}.")),
        col("p99_slowdown", format!("99th-percentile slowdown of the completed flows (nearest rank), {slowdown}.")),
        col("afct_us", "Average flow completion time of the completed flows, microseconds, 3 decimals (to the nanosecond)."),
        col(
            "normalized_fct",
            format!("Normalized flow completion time: the sum of the completed flows' FCTs over the sum of their ideal FCTs (1 is ideal; unlike mean_slowdown, long flows weigh more), {slowdown}."),
        ),
        col("drop_rate_pct", "Data packets dropped, as a percentage of the data packets sent (as the page shows it), 4 significant digits."),
        col("completed", "Flows that completed."),
        col("stable", "true when the run's numbers are meaningful: all flows finished and the bytes pending did not keep growing through the arrivals; false otherwise (see stopped_by, and the page's note)."),
    ];
    for (prefix, words) in size_classes() {
        c.push(col(format!("{prefix}_flows"), format!("Completed {words}.")));
        c.push(col(format!("{prefix}_mean_slowdown"), format!("Mean slowdown of the completed {words}, {slowdown}.")));
        c.push(col(format!("{prefix}_p99_slowdown"), format!("99th-percentile slowdown of the completed {words}, {slowdown}.")));
        c.push(col(format!("{prefix}_afct_us"), format!("Average flow completion time of the completed {words}, microseconds, 3 decimals.")));
        c.push(col(format!("{prefix}_normalized_fct"), format!("Normalized flow completion time of the completed {words} (see normalized_fct), {slowdown}.")));
    }
    for r in PortRole::ALL {
        c.push(col(format!("drops_{}", r.name()), format!("Data packets dropped {}.", hop_words(r))));
    }
    c.extend([
        col("deadlines_met_pct", "Flows with a deadline that met it, as a percentage of the flows with a deadline, 4 significant digits; empty when no flow had a deadline."),
        col("mean_request_us", "Mean completion time of the requests or queries (incast and query-aggregation workloads), microseconds, 3 decimals; empty for open-loop workloads."),
        col("throughput_gbps", "Payload throughput: flow bytes delivered over the simulated time, gigabits per second, 3 decimals."),
        col("control_overhead_pct", "Control bytes sent (acknowledgements, tokens, probes, ...) as a percentage of the data bytes sent, 4 significant digits."),
        col("sim_time_us", format!("Simulated time when the run stopped, {EXACT_US}.")),
        col("events", "Events the simulator processed (0 for a flow-level run)."),
        col("drops_by_faults", "Packets dropped because of faults: links or switches down, a one-time drop (the scenario's faults, a fault branch)."),
        col(
            "stopped_by",
            "Why the run stopped: all_flows_done; time_limit (the scenario's max_time_ms); event_limit (max_events); idle (nothing left to do with flows unfinished: the protocol stalled).",
        ),
    ]);
    c
}

/// The first column of a sweep's CSV (`dcsim sweep --vary PATH=...`, the
/// gallery's sweep.csv when x is not the load), in words.
pub const VARIED_COLUMN: &str =
    "A sweep that varies a scenario field has it as its first column, named by its dotted path (for example `workload.matrix.senders`): the value of that run.";

/// The columns of the lesson self-check CSV the page writes
/// (`web/src/lessons/author.ts`, `selfCheckCsv`; the page's tests check
/// its header against this list): one row per question of the lesson, then
/// a row with the score.
pub fn self_check_columns() -> Vec<Column> {
    vec![
        col("lesson", "The lesson's title."),
        col("step", "The step the question belongs to, counted from 1 (empty on the score row)."),
        col("step_title", "The step's title (\"score\" on the last row)."),
        col("question", "The question as the lesson asks it; on the score row, the score: right answers of those answered, and the number of questions."),
        col("judged_by", "What decides the answer, in words and units: which protocol has the lowest or highest value of a summary metric (for example \"lowest mean slowdown of short flows (under 100 KB)\")."),
        col("your_answer", "The protocol the student chose; empty if not answered."),
        col("correct_answer", "The protocol the finished runs say (judged among the lesson's own runs, never a what-if branch); empty before the runs finish."),
        col("result", "right, wrong, not answered, or no single winner (the best value is shared by two runs, or no run has the metric)."),
    ]
}

/// The data dictionary of the CSVs as Markdown: every column of the flows
/// and summary CSVs with its meaning, unit and precision. The page writes
/// it as the README of its exports, and docs/reference/csv.md holds it (a
/// test keeps the two equal).
pub fn dictionary_markdown() -> String {
    let table = |cols: Vec<Column>| {
        let mut t = String::from("| Column | Meaning |\n|---|---|\n");
        for c in cols {
            t.push_str(&format!("| `{}` | {} |\n", c.name, c.meaning.replace('|', "\\|")));
        }
        t
    };
    format!(
        "# CSV columns\n\n\
         The CSV files of dcsim: the flows and summary CSVs of `dcsim run` (`--flows-csv`, `--summary-csv`) and of the app's \
         export buttons (byte for byte the same), the app's \"all summaries\" table and a sweep's CSV (`dcsim sweep`, the app's load \
         sweep and gallery), which have the summary's columns. Files are comma separated (RFC 4180), one header line, `\\n` line ends; \
         an empty cell means \"not measured\" (no flow of that kind, no deadline). Times are in microseconds of simulated time. \
         A text cell that a spreadsheet would read as a formula (starting with `=`, `+`, `-` or `@`) has a `'` in front.\n\n\
         Numbers are rounded as each column says; `dcsim run --json` prints the summary at full precision.\n\n\
         This page is generated from the engine (`engine/core/src/report.rs`), which writes the headers from the same list.\n\n\
         ## Flows CSV\n\n\
         One row per flow that arrived (background flows are simulated but not listed).\n\n{}\n\
         ## Summary CSV\n\n\
         One row per run. Flow sizes are classed as pFabric and pHost class them: short under {} bytes, long over {} bytes, medium in between.\n\n{}\n\
         {VARIED_COLUMN}\n\n\
         ## Lesson self-check CSV\n\n\
         Written by the app's lesson panel in self-check mode (the \"results.csv\" button, saved as LESSON_self-check.csv): one row per question, then a row with the score.\n\n{}",
        table(flow_columns()),
        SHORT_FLOW_MAX,
        LONG_FLOW_MIN,
        table(summary_columns()),
        table(self_check_columns()),
    )
}

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

/// A decimal number with its trailing zeros (and a bare point) dropped: "1.5", "2", "0.0012".
fn trim(mut s: String) -> String {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

/// `x` to `d` decimals, trailing zeros dropped: `fixed(1.23456, 3)` is "1.235".
pub fn fixed(x: f64, d: usize) -> String {
    trim(format!("{x:.d$}"))
}

/// `x` to `n` significant digits in plain decimals (no exponent), trailing
/// zeros dropped: `significant(0.000123456, 4)` is "0.0001235".
pub fn significant(x: f64, n: i32) -> String {
    if x == 0.0 || !x.is_finite() {
        return if x.is_finite() { "0".into() } else { x.to_string() };
    }
    let d = (n - 1 - x.abs().log10().floor() as i32).clamp(0, 15);
    fixed(x, d as usize)
}

/// A time in microseconds, exact: the engine's picoseconds as
/// microseconds with up to 6 decimals ("12.3456").
pub fn exact_us(t: SimTime) -> String {
    let ps = t.ps();
    trim(format!("{}.{:06}", ps / 1_000_000, ps % 1_000_000))
}

/// A microsecond count held as f64 (a summary's `sim_time_us`), exact to
/// the picosecond it was made from.
fn exact_us_f64(us: f64) -> String {
    if us >= 0.0 && us.is_finite() {
        exact_us(SimTime((us * 1e6).round() as u64))
    } else {
        us.to_string()
    }
}

/// A fraction as a percentage, 4 significant digits.
fn pct(x: f64) -> String {
    significant(x * 100.0, 4)
}

/// The per-flow CSV: one row per arrived flow (unfinished flows have empty
/// end, FCT and slowdown), in [`flow_columns`] order.
pub fn flows_csv(records: &[FlowRecord]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(flow_columns().iter().map(|c| &c.name)).unwrap();
    for r in records.iter().filter(|r| !r.background) {
        w.write_record([
            r.id.to_string(),
            format!("h{}", r.src),
            format!("h{}", r.dst),
            r.size.to_string(),
            exact_us(r.start),
            opt(r.end.map(exact_us)),
            opt(r.fct().map(exact_us)),
            exact_us(r.ideal),
            opt(r.slowdown().map(|x| fixed(x, 4))),
            opt(r.deadline.map(exact_us)),
            opt(r.met_deadline()),
            r.tenant.to_string(),
            opt(r.request),
        ])
        .unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

fn bucket(b: &BucketStats) -> [String; 5] {
    [b.flows.to_string(), fixed(b.mean_slowdown, 4), fixed(b.p99_slowdown, 4), fixed(b.afct_us, 3), fixed(b.nfct, 4)]
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
    r.extend([fixed(s.all.mean_slowdown, 4), fixed(s.all.p99_slowdown, 4), fixed(s.all.afct_us, 3), fixed(s.all.nfct, 4), pct(s.drop_rate)].map(measured));
    r.extend([s.completed.to_string(), s.stable.to_string()]);
    for b in [&s.short, &s.medium, &s.long] {
        r.extend(bucket(b).map(measured));
    }
    r.extend(s.drops_by_hop.iter().map(|d| d.to_string()));
    r.extend([opt(s.deadlines_met.map(pct)), opt(s.mean_request_us.map(|x| fixed(x, 3)))]);
    r.extend([fixed(s.throughput_gbps, 3), pct(s.control_overhead)].map(measured));
    r.extend([exact_us_f64(s.sim_time_us), s.events.to_string(), s.fault_drops.to_string(), stop_name(s.stop).to_string()]);
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

/// The summary CSV's header cells.
fn summary_names() -> Vec<String> {
    summary_columns().into_iter().map(|c| c.name).collect()
}

/// The summary CSV: a header and one row per run.
pub fn summary_csv(rows: &[Summary]) -> String {
    write_records(std::iter::once(summary_names()).chain(rows.iter().map(summary_record)))
}

/// The header line of a sweep's CSV (with its `\n`): the summary columns,
/// after a first column named after the varied field (`dcsim sweep
/// --vary PATH=...`) if there is one.
pub fn sweep_header(vary: Option<&str>) -> String {
    write_records([vary.map(text_cell).into_iter().chain(summary_names()).collect()])
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
    fn every_csv_column_has_a_dictionary_entry_and_the_docs_page_is_current() {
        let dict = dictionary_markdown();
        let s = summary("x");
        let out =
            crate::run(&Scenario::from_json(r#"{"name":"x","topology":{"kind":"single_rack","hosts":4},"workload":{"flows":3}}"#).unwrap(), Default::default())
                .unwrap();
        for csv in [flows_csv(&out.records), summary_csv(std::slice::from_ref(&s)), sweep_csv(None, &[(None, s)])] {
            let rows = cells(&csv);
            assert!(rows.len() > 1, "{csv}");
            for name in &rows[0] {
                assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{name}: not spreadsheet-friendly");
                assert!(dict.contains(&format!("| `{name}` | ")), "{name} has no dictionary entry");
            }
            assert!(rows[1..].iter().all(|r| r.len() == rows[0].len()));
        }
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/reference/csv.md");
        if std::env::var_os("DCSIM_BLESS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &dict).unwrap();
        }
        let page = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(page == dict, "{} is not the engine's dictionary: DCSIM_BLESS=1 cargo test -p dcsim-core --lib report", path.display());
    }

    #[test]
    fn numbers_are_written_at_their_column_precision() {
        assert_eq!(exact_us(SimTime(1_234_500_000)), "1234.5");
        assert_eq!(exact_us(SimTime(7)), "0.000007");
        assert_eq!(exact_us(SimTime(3_000_000)), "3");
        assert_eq!(exact_us_f64(SimTime(123_456_789).as_us_f64()), "123.456789");
        assert_eq!(fixed(1.0 / 3.0, 4), "0.3333");
        assert_eq!(fixed(2.0, 4), "2");
        assert_eq!(fixed(-0.00001, 3), "0");
        assert_eq!(significant(0.000123456, 4), "0.0001235");
        assert_eq!(significant(12.34567, 4), "12.35");
        assert_eq!(significant(123456.7, 4), "123457");
        assert_eq!(pct(0.5), "50");
        let out =
            crate::run(&Scenario::from_json(r#"{"name":"x","topology":{"kind":"single_rack","hosts":4},"workload":{"flows":3}}"#).unwrap(), Default::default())
                .unwrap();
        let rows = cells(&flows_csv(&out.records));
        assert!(rows[1][1].starts_with('h') && rows[1][2].starts_with('h'), "hosts as the page names them: {:?}", rows[1]);
        // No cell carries a float's 16 digits.
        for csv in [flows_csv(&out.records), summary_csv(&[out.summary])] {
            for cell in cells(&csv).concat() {
                let digits = cell.trim_start_matches(['-', '0', '.']).chars().filter(char::is_ascii_digit).count();
                assert!(cell.parse::<f64>().is_err() || digits <= 12, "{cell}");
            }
        }
    }

    #[test]
    fn the_sweep_header_escapes_a_hostile_varied_path() {
        assert!(sweep_header(Some("=1+1")).starts_with("'=1+1,scenario,"));
        assert!(sweep_header(None).starts_with("scenario,"));
    }
}
