// Cross-layer determinism: the WebAssembly engine (as the browser worker
// loads it) and the native command line give the same bytes for the same
// scenario and seed: the summary object and the per-flow CSV.

import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initSync, Engine, validate_scenario, layout_json } from '../../web/src/engine-glue/dcsim_wasm.js';
import { FLOW_WIDTH, PACKET_WIDTH, TRACE_WIDTH, CONTROL_NAMES } from '../../web/src/engine/api';

const root = join(__dirname, '..', '..');
const dcsim = join(root, 'engine/target/release/dcsim');

beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'web/src/engine-glue/dcsim_wasm_bg.wasm')) });
});

function scenarioWith(file: string, patch: (s: any) => void): string {
  const s = JSON.parse(readFileSync(join(root, 'scenarios', file), 'utf8'));
  patch(s);
  return JSON.stringify(s);
}

function native(json: string): { summary: unknown; flowsCsv: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dcsim-'));
  const path = join(dir, 'scenario.json');
  require('node:fs').writeFileSync(path, json);
  const out = execFileSync(dcsim, ['run', path, '--json', '-q', '--threads', '1', '--flows-csv', join(dir, 'flows.csv')], { encoding: 'utf8' });
  return { summary: JSON.parse(out), flowsCsv: readFileSync(join(dir, 'flows.csv'), 'utf8') };
}

describe('wasm engine against the native command line', () => {
  it('agrees on the record layout the page decodes', () => {
    const l = JSON.parse(layout_json());
    expect([l.trace_width, l.flow_width, l.packet_width]).toEqual([TRACE_WIDTH, FLOW_WIDTH, PACKET_WIDTH]);
    expect(l.control_names).toEqual([...CONTROL_NAMES]);
  });

  for (const protocol of ['pfabric', 'phost', 'fastpass', 'pase', 'pdq', 'd3', 'dctcp', 'd2tcp', 'l2dct', 'tcp', 'rcp', 'ideal', 'optimal_deadline']) {
    it(`${protocol}: identical summary and flows CSV bytes (web search, 300 flows)`, () => {
      const json = scenarioWith('websearch-leaf-spine.json', (s) => {
        s.protocol = protocol;
        s.workload.flows = 300;
        s.seed = 7;
      });
      const e = new Engine(json, false);
      // Advance in uneven slices, as the worker does, with completions taken along the way.
      let taken = 0;
      while (e.advance(12345, Infinity, false)) taken += e.take_completions().length / FLOW_WIDTH;
      taken += e.take_completions().length / FLOW_WIDTH;
      const summary = JSON.parse(e.finish());
      const n = native(json);
      expect(summary).toEqual(n.summary);
      expect(e.flows_csv()).toBe(n.flowsCsv);
      expect(taken).toBe((n.summary as any).completed);
      e.free();
    });
  }

  it('a time-bounded advance stops at the bound and the trace is time-ordered', () => {
    const json = scenarioWith('pfabric-seamless-switching.json', () => {});
    const e = new Engine(json, true);
    const bound = 50_000_000; // 50 us
    expect(e.advance(Infinity, bound, false)).toBe(true);
    expect(e.now_ps()).toBeLessThanOrEqual(bound);
    expect(e.next_event_ps()).toBeGreaterThan(bound);
    const t = e.take_trace();
    expect(t.length % TRACE_WIDTH).toBe(0);
    expect(t.length).toBeGreaterThan(0);
    for (let i = TRACE_WIDTH; i < t.length; i += TRACE_WIDTH) expect(t[i]).toBeGreaterThanOrEqual(t[i - TRACE_WIDTH]);
    // Switching the trace off stops the records.
    e.set_trace(false);
    e.advance(Infinity, 2 * bound, false);
    expect(e.take_trace().length).toBe(0);
    e.free();
  });

  it('departing packets carry the time their last bit reaches the peer', () => {
    // The default leaf-spine: host NICs at 10 Gbps, 200 ns links, so a
    // full 1500-byte data packet leaving a host NIC arrives 1.2 us + 200 ns
    // after it starts (docs/model.md#links-and-ports); nothing arrives sooner than
    // a 40-byte header at 40 Gbps plus the delay.
    const json = scenarioWith('websearch-leaf-spine.json', (s) => {
      s.workload.flows = 50;
    });
    const e = new Engine(json, true);
    const topo = JSON.parse(e.topology_json());
    e.advance(Infinity, 200_000_000, false);
    const t = e.take_trace();
    e.free();
    const nic: number[] = [];
    let n = 0;
    for (let i = 0; i < t.length; i += TRACE_WIDTH) {
      if (t[i + 1] !== 1) continue;
      n++;
      const [start, port, kind, end] = [t[i], t[i + 2], t[i + 5], t[i + 8]];
      expect(end - start).toBeGreaterThanOrEqual(8_000 + 200_000);
      if (kind === 0 && topo.ports[port].role === 'host_nic') nic.push(end - start);
    }
    expect(n).toBeGreaterThan(100);
    const full = nic.filter((d) => d === 1_200_000 + 200_000).length;
    expect(full / nic.length).toBeGreaterThan(0.5);
  });

  it('departing packets carry the priority their port ranks them by', () => {
    // pHost: strict-priority sub-queues (control 0, short-flow data 1,
    // long-flow data 2); pFabric: the rank, remaining flow bytes.
    const prios = (protocol: string) => {
      const json = scenarioWith('websearch-leaf-spine.json', (s) => {
        s.protocol = protocol;
        s.workload.flows = 50;
      });
      const e = new Engine(json, true);
      e.advance(Infinity, 200_000_000, false);
      const t = e.take_trace();
      e.free();
      const out: { kind: number; prio: number }[] = [];
      for (let i = 0; i < t.length; i += TRACE_WIDTH) if (t[i + 1] === 1) out.push({ kind: t[i + 5], prio: t[i + 7] });
      return out;
    };
    const ph = prios('phost');
    expect(ph.length).toBeGreaterThan(100);
    expect(new Set(ph.filter((x) => x.kind !== 0).map((x) => x.prio))).toEqual(new Set([0]));
    expect(new Set(ph.filter((x) => x.kind === 0).map((x) => x.prio))).toEqual(new Set([1, 2]));
    const pf = prios('pfabric');
    const dataRanks = pf.filter((x) => x.kind === 0).map((x) => x.prio);
    expect(Math.min(...dataRanks)).toBeGreaterThan(0);
    expect(Math.max(...dataRanks)).toBeGreaterThan(100_000);
  });

  it('stop-on-completion stops right after one flow completes', () => {
    const e = new Engine(scenarioWith('pfabric-seamless-switching.json', () => {}), false);
    expect(e.advance(Infinity, Infinity, true)).toBe(true);
    const c = e.take_completions();
    expect(c.length).toBe(FLOW_WIDTH);
    // The shortest of the 5 staggered flows ends first, at about 16 ms (pFabric paper Figure 5).
    expect(c[3] / 1e9).toBeGreaterThan(15);
    expect(c[3] / 1e9).toBeLessThan(17);
    e.free();
  });

  it('bad input names the field and the reason, in the browser engine too', () => {
    const bad = scenarioWith('websearch-leaf-spine.json', (s) => (s.workload.load = 1.5));
    expect(validate_scenario(bad)).toMatch(/load/);
    expect(() => new Engine(bad, false)).toThrow(/load/);
    expect(validate_scenario('{"name": "x", "topology": ')).toMatch(/scenario/);
    expect(validate_scenario(scenarioWith('websearch-leaf-spine.json', () => {}))).toBe('');
  });
});
