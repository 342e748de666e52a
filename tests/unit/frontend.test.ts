// Front-end logic without a browser: frame decoding, CSV writing, URL
// encoding, parameter validation, the RTT the step control uses.

import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { traceLength, traceRecord, decodeCompletions, decodePackets, departures, onWire, type BufferedPacket } from '../../web/src/engine/frame';
import { TraceCode, PacketKindCode, TRACE_WIDTH, type Topology } from '../../web/src/engine/api';
import { csvField, writeCsv, parseCsv, mergeSummaryCsvs } from '../../web/src/export/csv';
import { CSV_README, documentedColumns } from '../../web/src/export/readme';
import { validateSettings, encodeSettings, decodeSettings, exportName, dctcpProfileOf, DCTCP_PROFILE_NAMES, type Settings } from '../../web/src/state/settings';
import { baseRttPs } from '../../web/src/state/rtt';
import { applyFrame, emptyRun, revealedCount, type RunState } from '../../web/src/state/run';
import { initSync, Engine } from '../../web/src/engine-glue/dcsim_wasm.js';

const root = join(__dirname, '..', '..');
const websearch = () => JSON.parse(readFileSync(join(root, 'scenarios/websearch-leaf-spine.json'), 'utf8'));

beforeAll(() => initSync({ module: readFileSync(join(root, 'web/src/engine-glue/dcsim_wasm_bg.wasm')) }));

describe('frame decoding', () => {
  it('decodes fixed-width records and rejects a torn buffer', () => {
    const t = new Float64Array([5, TraceCode.Drop, 3, 17, 4, PacketKindCode.Data, 1, 0, 0, 9, TraceCode.FlowFinish, -1, 17, 0, 0, 0, 0, 0]);
    expect(traceLength(t)).toBe(2);
    const r = [traceRecord(t, 0), traceRecord(t, 1)];
    expect(r[0]).toEqual({ tPs: 5, code: TraceCode.Drop, port: 3, flow: 17, seq: 4, packetKind: PacketKindCode.Data, aux: 1, prio: 0, endPs: 0 });
    expect(r[1].code).toBe(TraceCode.FlowFinish);
    expect(() => traceLength(t.subarray(0, TRACE_WIDTH + 1))).toThrow(/multiple/);
    const c = decodeCompletions(new Float64Array([2, 1460, 100, 2000, 1.5, 0, 9]));
    expect(c[0]).toMatchObject({ flow: 2, sizeBytes: 1460, fctPs: 2000, slowdown: 1.5, dst: 9 });
    expect(decodePackets(new Float64Array([1, 2, 0, 3000, 1500, 0]))[0]).toMatchObject({ flow: 1, seq: 2, rank: 3000 });
  });

  it('puts a departing packet on the wire until the engine says it arrives', () => {
    // 1500 B at 10 Gbps = 1.2 us, plus 200 ns: the engine's end_ps column.
    const trace = new Float64Array([1000, TraceCode.Dequeue, 0, 4, 0, PacketKindCode.Data, 0, 2, 1000 + 1_400_000]);
    const d = departures(trace);
    expect(d[0].prio).toBe(2);
    // Kept only while some of it is still on the wire after the given time.
    expect(departures(trace, 1000 + 1_399_999)).toHaveLength(1);
    expect(departures(trace, 1000 + 1_400_000)).toHaveLength(0);
    // 1500 B at 10 Gbps = 1.2 us, plus 200 ns.
    expect(d[0].endPs - d[0].startPs).toBe(1_200_000 + 200_000);
    expect(onWire(d, 1000 + 700_000)[0].frac).toBeCloseTo(0.5, 10);
    expect(onWire(d, d[0].endPs)).toHaveLength(0);
  });
});

describe('CSV', () => {
  it('quotes what needs quoting and parses back what it wrote', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
    const rows = [['name', 'note'], ['x', 'one, two'], ['y', 'line\nbreak'], ['z', '']];
    expect(parseCsv(writeCsv(rows))).toEqual(rows);
  });

  it('merges the engine summary CSVs of two runs under one header', () => {
    const a = new Engine(JSON.stringify({ ...websearch(), workload: { ...websearch().workload, flows: 50 } }), false);
    const b = new Engine(JSON.stringify({ ...websearch(), protocol: 'dctcp', workload: { ...websearch().workload, flows: 50 } }), false);
    a.finish();
    b.finish();
    const merged = parseCsv(mergeSummaryCsvs([a.summary_csv(), b.summary_csv()]));
    expect(merged).toHaveLength(3);
    expect(merged[0]).toEqual(parseCsv(a.summary_csv())[0]);
    expect(merged.slice(1).map((r) => r[merged[0].indexOf('protocol')])).toEqual(['pfabric', 'dctcp']);
    expect(() => mergeSummaryCsvs(['a,b\n1,2\n', 'a,c\n1,2\n'])).toThrow(/columns/);
  });

  it('every column of the CSVs the page downloads is in the README beside them, in plain units', () => {
    const e = new Engine(JSON.stringify({ ...websearch(), workload: { ...websearch().workload, flows: 50 } }), false);
    e.finish();
    const documented = documentedColumns();
    const flows = parseCsv(e.flows_csv());
    const summary = parseCsv(e.summary_csv());
    for (const name of [...flows[0], ...summary[0]]) expect(documented.has(name), `${name} is not in the README`).toBe(true);
    // Hosts as the page names them, percentages, no float's 16 digits.
    expect(flows[1][flows[0].indexOf('src')]).toMatch(/^h\d+$/);
    expect(summary[0]).toContain('drop_rate_pct');
    expect(summary[0]).toContain('short_under_100KB_afct_us');
    for (const raw of ['nfct', 'stop', 'fault_drops', 'drop_rate']) expect(summary[0]).not.toContain(raw);
    for (const cell of [...flows.slice(1).flat(), ...summary.slice(1).flat()]) expect(cell).not.toMatch(/\.\d{7,}/);
    expect(CSV_README).toMatch(/^# CSV columns/);
  });
});

describe('settings', () => {
  const base = (): Settings => ({ scenario: websearch(), protocols: ['pfabric', 'dctcp'] });

  it('accepts the default and names the field of each bad value', () => {
    expect(validateSettings(base())).toEqual([]);
    const bad = (patch: (s: Settings) => void) => {
      const s = base();
      patch(s);
      return validateSettings(s).map((e) => e.field);
    };
    expect(bad((s) => (s.scenario.workload.load = -0.1))).toEqual(['workload.load']);
    expect(bad((s) => (s.scenario.workload.load = 1.2))).toEqual(['workload.load']);
    expect(bad((s) => (s.scenario.workload.flows = 2.5))).toEqual(['workload.flows']);
    expect(bad((s) => (s.scenario.workload.flows = 50_000_000))).toEqual(['workload.flows']);
    expect(bad((s) => (s.scenario.topology.racks = 0))).toEqual(['topology.racks']);
    expect(bad((s) => (s.scenario.seed = -1))).toEqual(['seed']);
    expect(bad((s) => (s.protocols = []))).toEqual(['protocols']);
    expect(bad((s) => (s.protocols = ['pfabric', 'dctcp', 'tcp', 'rcp', 'ideal']))).toEqual(['protocols']);
    expect(bad((s) => (s.scenario.params = { pfabric: { buffer_bytes: 100 } }))).toEqual(['params.pfabric.buffer_bytes']);
    expect(bad((s) => (s.scenario.params = { phost: { priority_queues: 2 } }))).toEqual(['params.phost.priority_queues']);
    expect(bad((s) => (s.scenario.params = { phost: { priority_queues: 8 } }))).toEqual([]);
    expect(bad((s) => (s.scenario.params = { dctcp: { profile: 'bsd' } }))).toEqual(['params.dctcp.profile']);
    expect(bad((s) => (s.scenario.params = { l2dct: { profile: 'Linux' } }))).toEqual(['params.l2dct.profile']);
    expect(bad((s) => (s.scenario.params = { d2tcp: { profile: 'testbed_kernel' } }))).toEqual([]);
  });

  it("names the DCTCP profile each run uses, the engine's default when unset", () => {
    expect(DCTCP_PROFILE_NAMES).toEqual(['linux', 'ns2', 'testbed_kernel']);
    const sc = { ...websearch(), params: { d2tcp: { profile: 'ns2' } } };
    expect(dctcpProfileOf(sc, 'd2tcp')).toBe('ns2');
    expect(dctcpProfileOf(sc, 'dctcp')).toBe('linux');
    expect(dctcpProfileOf(sc, 'pfabric')).toBeNull();
  });

  it('agrees with the engine on DCTCP profiles', () => {
    const flows = { ...websearch().workload, flows: 20 };
    for (const p of ['dctcp', 'd2tcp', 'l2dct']) {
      for (const profile of [...DCTCP_PROFILE_NAMES, 'bsd', 'Linux', '']) {
        const s = base();
        s.scenario = { ...s.scenario, protocol: p, workload: flows, params: { [p]: { profile } } };
        const known = (DCTCP_PROFILE_NAMES as string[]).includes(profile);
        expect(validateSettings(s).map((e) => e.field)).toEqual(known ? [] : [`params.${p}.profile`]);
        if (known) expect(() => new Engine(JSON.stringify(s.scenario), false).free()).not.toThrow();
        else expect(() => new Engine(JSON.stringify(s.scenario), false)).toThrow(new RegExp(`params\\.${p}\\.profile`));
      }
    }
  });

  it('agrees with the engine on loads the engine rejects', () => {
    for (const load of [-0.5, 0, 1.01]) {
      const s = base();
      s.scenario.workload.load = load;
      expect(validateSettings(s).length).toBeGreaterThan(0);
      expect(() => new Engine(JSON.stringify(s.scenario), false)).toThrow(/load/);
    }
  });

  it('round-trips through a shared URL exactly, and reports a damaged one', () => {
    const s = base();
    s.scenario.seed = 42;
    s.scenario.description = 'unicode: µs — ✓';
    s.scenario.params = { dctcp: { profile: 'testbed_kernel' } };
    const hash = encodeSettings(s);
    expect(hash).toMatch(/^#run=[A-Za-z0-9_-]+$/);
    expect(decodeSettings(hash)).toEqual(s);
    expect(decodeSettings('')).toBeNull();
    expect(decodeSettings('#run=@@@')).toBeNull();
    expect(decodeSettings('#run=AAAA')).toHaveProperty('error');
  });

  it('names export files by scenario, protocol and seed', () => {
    expect(exportName({ name: 'websearch-leaf-spine', seed: 3 }, 'pfabric', 'flows', 'csv')).toBe('websearch-leaf-spine_pfabric_seed3_flows.csv');
    expect(exportName({ name: 'a b/c' }, 'dctcp', 'summary', 'csv')).toBe('a-b-c_dctcp_seed1_summary.csv');
  });
});

describe('base RTT of the default fabric', () => {
  it('is propagation both ways plus an MTU and an ACK serialized per hop', () => {
    const e = new Engine(JSON.stringify(websearch()), false);
    const topo: Topology = JSON.parse(e.topology_json());
    expect(topo.n_hosts).toBe(144);
    // Inter-rack: 4 links (host 10G, fabric 40G, 40G, 10G), 200 ns each way.
    const ser = (gbps: number) => (1540 * 8) / gbps; // ns
    const expected = 2 * 4 * 200 + 2 * ser(10) + 2 * ser(40);
    expect(baseRttPs(topo) / 1000).toBeCloseTo(expected, 0);
  });
});

describe('run state', () => {
  it('accumulates completions and keeps packets on the wire only while they are there', () => {
    const e = new Engine(JSON.stringify({ ...websearch(), workload: { ...websearch().workload, flows: 30 } }), true);
    let r: RunState = { ...emptyRun('pfabric'), topology: JSON.parse(e.topology_json()) as Topology };
    let total = 0;
    for (let k = 0; k < 50 && e.advance(20_000, Infinity, false); k++) {
      const completions = new Float64Array(e.take_completions());
      total += completions.length / 7;
      r = applyFrame(r, {
        type: 'frame', reset: false, replayed: 0, timeline: JSON.parse(e.timeline_json()), nowPs: e.now_ps(), nextPs: e.next_event_ps(), events: e.events(), done: e.progress()[0], total: e.progress()[1], running: true, end: null,
        queueBytes: new Float64Array(e.queue_bytes()), trace: new Float64Array(e.take_trace()), traceDropped: 0, completions, inspect: null, wallMs: 1,
      });
      for (const d of r.inFlight) expect(d.endPs).toBeGreaterThan(r.nowPs);
    }
    expect(r.flows.length).toBe(total);
    expect(r.done).toBe(total);
    expect(r.series.length).toBeGreaterThan(1);
  });
});

describe('notable events', () => {
  it('keeps drops and finishes from a frame even when it carries thousands of queue records', () => {
    const recs: number[] = [];
    recs.push(1, TraceCode.Drop, 3, 9, 4, PacketKindCode.Data, 1, 0, 0);
    for (let i = 0; i < 5000; i++) recs.push(2 + i, TraceCode.Enqueue, 3, 9, i, PacketKindCode.Data, 0, 0, 0);
    recs.push(9000, TraceCode.FlowFinish, -1, 9, 0, 0, 0, 0, 0);
    const r = applyFrame(emptyRun('pfabric'), {
      type: 'frame', reset: false, replayed: 0, timeline: { coarse: 1, fine: 0, bytes: 0, budget_bytes: 0, interval_events: 1, explored_ps: 0, explored_all: false }, nowPs: 9000, nextPs: 9001, events: 5002, done: 1, total: 2, running: true, end: null,
      queueBytes: new Float64Array(1), trace: new Float64Array(recs), traceDropped: 0, completions: new Float64Array(0), inspect: null, wallMs: 1,
    });
    expect(r.log).toHaveLength(200);
    // The log is the frame's newest 200 records, oldest first.
    expect(r.log[0]).toMatchObject({ code: TraceCode.Enqueue, seq: 4801, tPs: 4803 });
    expect(r.log[199]).toMatchObject({ code: TraceCode.FlowFinish, flow: 9, tPs: 9000 });
    expect(r.notable.map((x) => x.code)).toEqual([TraceCode.Drop, TraceCode.FlowFinish]);
    expect(r.portEvents).toEqual([{ tPs: 1, port: 3, flow: 9, kind: 'drop', reason: 'least urgent' }]);
  });
});

describe('the Ideal run on a shared clock', () => {
  it('reveals exactly the flows it completed by the time on screen', () => {
    const e = new Engine(JSON.stringify({ ...websearch(), protocol: 'ideal', workload: { ...websearch().workload, flows: 400 } }), false);
    e.advance(Infinity, Infinity, false);
    const flows = decodeCompletions(new Float64Array(e.take_completions()));
    const r: RunState = { ...emptyRun('ideal'), flows };
    expect(flows).toHaveLength(400);
    const ends = flows.map((f) => f.startPs + f.fctPs);
    for (const t of [0, ends[0] - 1, ends[0], ends[123], ends[399] - 1, ends[399]]) {
      expect(revealedCount(r, t)).toBe(ends.filter((x) => x <= t).length);
    }
  });
});
