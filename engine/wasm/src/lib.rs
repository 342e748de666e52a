//! The browser binding: a thin wasm-bindgen layer over `dcsim-core`, run
//! inside a module Web Worker (`web/src/engine/sim.worker.ts`).
//!
//! Everything crossing the boundary is either a JSON string (topology,
//! summary, CSV text) or a flat `Float64Array` of fixed-width records, whose
//! layouts are documented on each method and decoded by
//! `web/src/engine/frame.ts`. The record widths are exported as constants
//! so the decoder can check them.

use dcsim_core::heap::{live_bytes, CountingAllocator};
use dcsim_core::ids::PortId;
use dcsim_core::packet::PacketKind;
use dcsim_core::protocol::{control_code, control_events};
use dcsim_core::report::{flows_csv, summary_csv};
use dcsim_core::timeline::{Timeline, TimelineConfig};
use dcsim_core::trace::TraceKind;
use dcsim_core::units::SimTime;
use dcsim_core::{prepare, RunOptions, RunOutput, Scenario};
use wasm_bindgen::prelude::*;

/// Counts live heap bytes, so that time travel can measure what each
/// checkpoint holds and keep them within a budget.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Heap bytes the engine's module holds now (all engines of this worker).
#[wasm_bindgen]
pub fn heap_bytes() -> f64 {
    live_bytes() as f64
}

/// Numbers per trace record: `[t_ps, kind, port, flow, seq, packet_kind,
/// aux, priority, end_ps]`; priority is what the port ranks a departing
/// packet by on Dequeue records (see `TraceKind::Dequeue`), the sub-queue
/// on Enqueue records, and 0 elsewhere; end_ps is, on Dequeue records, when
/// the packet's last bit reaches the peer (0 elsewhere).
pub const TRACE_WIDTH: usize = 9;
/// Numbers per completed-flow record:
/// `[flow, size_bytes, start_ps, fct_ps, slowdown, src, dst]`.
pub const FLOW_WIDTH: usize = 7;
/// Numbers per buffered-packet record: `[flow, seq, packet_kind, rank, size, class]`.
pub const PACKET_WIDTH: usize = 6;

/// A packet kind's code (`PacketKind::ALL` order; the page's names come
/// from `dcsim names`).
fn kind_code(k: PacketKind) -> f64 {
    k as u8 as f64
}

/// One run in the browser: created from a scenario, advanced in slices by
/// the worker, finished into a summary and CSVs. The run lives in a
/// [`Timeline`]: it keeps checkpoints, so [`Engine::seek`] goes to any
/// time, backwards too, by restoring one and replaying at most one
/// checkpoint interval.
#[wasm_bindgen]
pub struct Engine {
    timeline: Timeline,
    output: Option<RunOutput>,
    /// The shown run is at its end (a seek back clears it; the output,
    /// computed once, stays valid: runs are deterministic).
    at_end: bool,
    scenario: Scenario,
    /// Completions already handed out by [`Engine::take_completions`].
    reported: usize,
    trace_on: bool,
}

/// Checks a scenario; returns the error naming the field and the reason,
/// or an empty string when it is valid.
#[wasm_bindgen]
pub fn validate_scenario(json: &str) -> String {
    match Scenario::from_json(json) {
        Ok(_) => String::new(),
        Err(e) => e,
    }
}

/// Record widths and control names, as JSON, for the decoder to check.
#[wasm_bindgen]
pub fn layout_json() -> String {
    serde_json::json!({
        "trace_width": TRACE_WIDTH,
        "flow_width": FLOW_WIDTH,
        "packet_width": PACKET_WIDTH,
        "control_names": control_events().iter().map(|e| e.name).collect::<Vec<_>>(),
    })
    .to_string()
}

#[wasm_bindgen]
impl Engine {
    /// Prepares a run of the scenario (JSON text). `trace` records the
    /// packet-level trace the animation needs (off for full-speed runs).
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str, trace: bool) -> Result<Engine, JsError> {
        let scenario = Scenario::from_json(scenario_json).map_err(|e| JsError::new(&e))?;
        let runner = prepare(&scenario, RunOptions { trace, audit: false }).map_err(|e| JsError::new(&e))?;
        let mut timeline = Timeline::new(runner, TimelineConfig::default(), Some(live_bytes));
        timeline.set_trace(trace);
        Ok(Engine { timeline, output: None, at_end: false, scenario, reported: 0, trace_on: trace })
    }

    /// Sets the memory the checkpoints may hold, bytes (thinning them at
    /// once when they hold more).
    pub fn set_checkpoint_budget(&mut self, bytes: f64) {
        self.timeline.set_budget(bytes.max(0.0) as usize);
    }

    /// Goes to the state after every event at or before `t_ps` (earlier or
    /// later than now), from the nearest checkpoint. Completions are
    /// reported again from the start by the next
    /// [`Engine::take_completions`]; trace records cover the last stretch
    /// before `t_ps` when tracing. Returns the events replayed.
    pub fn seek(&mut self, t_ps: f64) -> f64 {
        let t = SimTime::from_ps(t_ps.max(0.0) as u64);
        let replayed = self.timeline.seek(t);
        self.reported = 0;
        self.at_end = self.timeline.run().next_event_time().is_none();
        replayed as f64
    }

    /// Explores ahead for at most `max_events` events while the page is
    /// idle, leaving checkpoints; true while there is more to explore.
    pub fn explore(&mut self, max_events: f64) -> bool {
        self.timeline.explore(max_events.max(0.0) as u64)
    }

    /// What time travel holds (checkpoints, bytes, budget, how far it has
    /// explored), as JSON.
    pub fn timeline_json(&self) -> String {
        serde_json::to_string(&self.timeline.stats()).unwrap_or_default()
    }

    /// The scenario with every default filled in, as JSON.
    pub fn scenario_json(&self) -> String {
        serde_json::to_string(&self.scenario).unwrap_or_default()
    }

    /// The network (nodes, ports with rates and delays), as JSON.
    pub fn topology_json(&self) -> String {
        serde_json::to_string(self.timeline.run().network()).unwrap_or_default()
    }

    /// Whether the trace is recorded.
    pub fn tracing(&self) -> bool {
        self.trace_on
    }

    /// Switches the trace on (animation) or off (full speed); switching it
    /// off discards records not yet taken.
    pub fn set_trace(&mut self, on: bool) {
        self.trace_on = on;
        self.timeline.set_trace(on);
    }

    /// Advances the run by at most `max_events` events, stopping after the
    /// last event at or before `until_ps` (pass Infinity for no limit), or
    /// right after a flow completes when `stop_on_completion` is set.
    /// Returns true while the run goes on.
    pub fn advance(&mut self, max_events: f64, until_ps: f64, stop_on_completion: bool) -> bool {
        if self.at_end {
            return false;
        }
        let alive = self.advance_run(max_events, until_ps, stop_on_completion);
        self.timeline.after_advance();
        alive
    }

    fn advance_run(&mut self, max_events: f64, until_ps: f64, stop_on_completion: bool) -> bool {
        let tl = &mut self.timeline;
        let until = if until_ps.is_finite() { SimTime::from_ps(until_ps.max(0.0) as u64) } else { SimTime::from_ps(u64::MAX) };
        let mut left = max_events.max(0.0) as u64;
        if !until_ps.is_finite() && !stop_on_completion {
            // Full speed: whole chunks, no per-event checks here.
            const CHUNK: u64 = 1 << 16;
            while left > 0 {
                let n = left.min(CHUNK);
                if !tl.run_mut().run_events(n) {
                    return false;
                }
                tl.after_advance();
                left -= n;
            }
            return true;
        }
        if !stop_on_completion {
            // Bounded in time: whole chunks up to `until`.
            const CHUNK: u64 = 1 << 14;
            while left > 0 {
                let r = tl.run_mut();
                let (before, n) = (r.events(), left.min(CHUNK));
                if !r.run_until_max(until, n) {
                    return false;
                }
                let ran = r.events() - before;
                match r.next_event_time() {
                    Some(t) if t > until => return true,
                    None => return r.run_events(1),
                    _ => {}
                }
                tl.after_advance();
                left = left.saturating_sub(ran.max(1));
            }
            return true;
        }
        let r = tl.run_mut();
        let done_before = r.completion_order().len();
        while left > 0 {
            match r.next_event_time() {
                Some(t) if t > until => return true,
                Some(_) => {}
                // Nothing pending: one more step lets the engine record why it stopped.
                None => return r.run_events(1),
            }
            if !r.run_events(1) {
                return false;
            }
            left -= 1;
            if stop_on_completion && r.completion_order().len() > done_before {
                return true;
            }
        }
        true
    }

    /// Simulated time now, picoseconds.
    pub fn now_ps(&self) -> f64 {
        self.timeline.run().now().ps() as f64
    }

    /// Time of the next pending event in picoseconds, or -1 when none.
    pub fn next_event_ps(&self) -> f64 {
        self.timeline.run().next_event_time().map_or(-1.0, |t| t.ps() as f64)
    }

    /// Events processed so far.
    pub fn events(&self) -> f64 {
        self.timeline.run().events() as f64
    }

    /// `[completed flows, total flows]`.
    pub fn progress(&self) -> Vec<f64> {
        let (d, t) = self.timeline.run().progress();
        vec![d as f64, t as f64]
    }

    /// Bytes buffered at each port now, indexed by port id.
    pub fn queue_bytes(&self) -> Vec<f64> {
        self.timeline.run().queue_bytes().into_iter().map(|b| b as f64).collect()
    }

    /// Bytes buffered per sub-queue of one port.
    pub fn subqueue_bytes(&self, port: u32) -> Vec<f64> {
        let r = self.timeline.run();
        if (port as usize) < r.network().ports.len() {
            r.subqueue_bytes(PortId(port)).into_iter().map(|b| b as f64).collect()
        } else {
            Vec::new()
        }
    }

    /// What one port's link carried for nothing (PASE section 4.2): `[wire
    /// bytes of data packets its host sent there that were dropped at a
    /// later hop, wire bytes the link has sent]`; `[0, 0]` for ports other
    /// than host NICs.
    pub fn port_waste(&self, port: u32) -> Vec<f64> {
        let r = self.timeline.run();
        if (port as usize) < r.network().ports.len() {
            let (wasted, sent) = r.port_waste(PortId(port));
            vec![wasted as f64, sent as f64]
        } else {
            vec![0.0, 0.0]
        }
    }

    /// The packets buffered at one port, [`PACKET_WIDTH`] numbers each, in
    /// the order the port sends them if nothing else arrives (the
    /// discipline's own dequeue: pFabric's priority order, strict priority's
    /// lanes, FIFO's arrival order).
    pub fn port_packets(&self, port: u32) -> Vec<f64> {
        let mut v = Vec::new();
        let r = self.timeline.run();
        if (port as usize) < r.network().ports.len() {
            for p in r.port_packets(PortId(port)).0 {
                v.extend_from_slice(&[p.flow.0 as f64, p.seq as f64, kind_code(p.kind), p.rank as f64, p.size as f64, p.class as f64]);
            }
        }
        v
    }

    /// Index in `port_packets` of the packet a full buffer at `port` drops
    /// first to admit a more urgent arrival (pFabric: the least urgent), or
    /// -1 where the discipline drops the arrival instead or the buffer is
    /// empty.
    pub fn port_drop_first(&self, port: u32) -> i32 {
        let r = self.timeline.run();
        if (port as usize) < r.network().ports.len() {
            r.port_packets(PortId(port)).1.map_or(-1, |i| i as i32)
        } else {
            -1
        }
    }

    /// One flow's record as JSON (src, dst, size, start, end, ideal FCT,
    /// deadline, tenant; times in picoseconds) with its FCT and slowdown
    /// when complete, or "null" for a flow that has not arrived.
    pub fn flow_json(&self, flow: u32) -> String {
        let records = self.timeline.run().records();
        match records.get(flow as usize) {
            Some(rec) => serde_json::json!({
                "record": rec,
                "fct_ps": rec.fct().map(|t| t.ps()),
                "slowdown": rec.slowdown(),
            })
            .to_string(),
            None => String::from("null"),
        }
    }

    /// Takes the trace recorded since the last call, [`TRACE_WIDTH`]
    /// numbers per record (kinds: `dcsim_core::trace::TraceCode`).
    pub fn take_trace(&mut self) -> Vec<f64> {
        let evs = self.timeline.run_mut().drain_trace();
        let mut v = Vec::with_capacity(evs.len() * TRACE_WIDTH);
        for e in evs {
            let t = e.t_ps as f64;
            let end = match e.kind {
                TraceKind::Dequeue { arrive_ps, .. } => arrive_ps as f64,
                _ => 0.0,
            };
            let code = e.kind.code() as u8 as f64;
            let rec: [f64; TRACE_WIDTH - 1] = match e.kind {
                TraceKind::Enqueue { port, flow, seq, kind, subqueue, .. } => {
                    [t, code, port.0 as f64, flow.0 as f64, seq as f64, kind_code(kind), subqueue as f64, subqueue as f64]
                }
                TraceKind::Dequeue { port, flow, seq, kind, queue_bytes, priority, .. } => {
                    [t, code, port.0 as f64, flow.0 as f64, seq as f64, kind_code(kind), queue_bytes as f64, priority as f64]
                }
                TraceKind::Drop { port, flow, seq, kind, reason } => {
                    [t, code, port.0 as f64, flow.0 as f64, seq as f64, kind_code(kind), reason as u8 as f64, 0.0]
                }
                TraceKind::Fault { port, up } => [t, code, port.0 as f64, -1.0, 0.0, 0.0, if up { 1.0 } else { 0.0 }, 0.0],
                TraceKind::EcnMark { port, flow, seq } => [t, code, port.0 as f64, flow.0 as f64, seq as f64, 0.0, 0.0, 0.0],
                TraceKind::FlowStart { flow } => [t, code, -1.0, flow.0 as f64, 0.0, 0.0, 0.0, 0.0],
                TraceKind::FlowFinish { flow } => [t, code, -1.0, flow.0 as f64, 0.0, 0.0, 0.0, 0.0],
                TraceKind::Timeout { flow, probe_mode } => [t, code, -1.0, flow.0 as f64, 0.0, 0.0, if probe_mode { 1.0 } else { 0.0 }, 0.0],
                TraceKind::LinkRate { port, rate_bps } => [t, code, port.0 as f64, -1.0, 0.0, 0.0, rate_bps, 0.0],
                TraceKind::Control { flow, what } => {
                    [t, code, -1.0, flow.0 as f64, 0.0, kind_code(PacketKind::Control), control_code(what).map_or(-1.0, f64::from), 0.0]
                }
                TraceKind::Decision { flow, port, what, queue, rate_bps } => {
                    let i = control_code(what).map_or(-1.0, f64::from);
                    let port = port.map_or(-1.0, |p| p.0 as f64);
                    let queue = queue.map_or(-1.0, |q| q as f64);
                    [t, code, port, flow.0 as f64, queue, kind_code(PacketKind::Control), i, rate_bps]
                }
            };
            v.extend_from_slice(&rec);
            v.push(end);
        }
        v
    }

    /// Takes the flows completed since the last call, in completion order,
    /// [`FLOW_WIDTH`] numbers each.
    pub fn take_completions(&mut self) -> Vec<f64> {
        let r = self.timeline.run();
        let (order, records) = (r.completion_order(), r.records());
        let new = &order[self.reported.min(order.len())..];
        let mut v = Vec::with_capacity(new.len() * FLOW_WIDTH);
        for f in new {
            let rec = &records[f.idx()];
            let fct = rec.fct().map_or(-1.0, |x| x.ps() as f64);
            v.extend_from_slice(&[f.0 as f64, rec.size as f64, rec.start.ps() as f64, fct, rec.slowdown().unwrap_or(-1.0), rec.src as f64, rec.dst as f64]);
        }
        self.reported = order.len();
        v
    }

    /// Whether the shown run is at its end with its summary made (a seek
    /// back makes it false again; the summary stays).
    pub fn finished(&self) -> bool {
        self.at_end && self.output.is_some()
    }

    /// Runs to the end (if not there) and returns the summary as JSON (the
    /// same object `dcsim run --json` prints). The run stays in the
    /// timeline, so seeking back after the end still works.
    pub fn finish(&mut self) -> String {
        if !self.at_end {
            const CHUNK: u64 = 1 << 16;
            while self.timeline.run_mut().run_events(CHUNK) {
                self.timeline.after_advance();
            }
            self.at_end = true;
        }
        if self.output.is_none() {
            self.output = Some(self.timeline.take_copy().finish());
        }
        self.output.as_ref().map(|o| serde_json::to_string(&o.summary).unwrap_or_default()).unwrap_or_default()
    }

    /// The per-flow CSV (the columns of `dcsim run --flows-csv`); empty
    /// until [`Engine::finish`].
    pub fn flows_csv(&self) -> String {
        self.output.as_ref().map(|o| flows_csv(&o.records)).unwrap_or_default()
    }

    /// The one-row summary CSV (`dcsim run --summary-csv`); empty until
    /// [`Engine::finish`].
    pub fn summary_csv(&self) -> String {
        self.output.as_ref().map(|o| summary_csv(std::slice::from_ref(&o.summary))).unwrap_or_default()
    }
}
