// Time travel across the layers (issue 16): the WebAssembly engine's seek,
// backwards and forwards, lands on the state the uninterrupted run had
// (same clock, events, completions, buffers), it keeps working after the
// run's end, and the checkpoints' measured memory stays within the budget;
// the page's `rewound` keeps what a seek must not lose.

import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, Engine } from '../../web/src/engine-glue/dcsim_wasm.js';
import { rewound } from '../../web/src/state/workers';
import { emptyRun } from '../../web/src/state/run';

const root = join(__dirname, '..', '..');
const scenario = (flows: number, protocol = 'pfabric') => {
  const s = JSON.parse(readFileSync(join(root, 'scenarios/websearch-leaf-spine.json'), 'utf8'));
  return JSON.stringify({ ...s, protocol, workload: { ...s.workload, flows } });
};

beforeAll(() => initSync({ module: readFileSync(join(root, 'web/src/engine-glue/dcsim_wasm_bg.wasm')) }));

/** What identifies a state as the page sees it. */
function state(e: Engine) {
  return { now: e.now_ps(), events: e.events(), completions: Array.from(e.take_completions()), queues: Array.from(e.queue_bytes()) };
}

describe('seek', () => {
  for (const protocol of ['pfabric', 'phost', 'pdq']) {
    it(`${protocol}: lands on the uninterrupted state, backwards, forwards and after the end`, () => {
      const json = scenario(200, protocol);
      const e = new Engine(json, false);
      e.set_checkpoint_budget(64 * 2 ** 20);
      while (e.explore(100_000)) {
        /* explore the whole run */
      }
      const stats = JSON.parse(e.timeline_json());
      expect(stats.explored_all).toBe(true);
      expect(stats.coarse).toBeGreaterThan(1);
      expect(stats.bytes).toBeGreaterThan(0);
      expect(stats.bytes).toBeLessThanOrEqual(64 * 2 ** 20);
      const end = stats.explored_ps;
      e.finish();
      for (const f of [0.8, 0.1, 0.5, 0.5, 0.95, 0]) {
        const t = Math.floor(end * f);
        e.seek(t);
        const fresh = new Engine(json, false);
        fresh.advance(Infinity, t, false);
        expect(state(e), `${protocol} at ${t} ps`).toEqual(state(fresh));
        expect(e.finished()).toBe(false);
        fresh.free();
      }
      e.free();
    });
  }
});

describe('rewound', () => {
  it('keeps the topology, the summary and the chart up to the new time, and clears the rest', () => {
    const r = { ...emptyRun('pfabric'), topology: { nodes: [], ports: [], n_hosts: 0, host_rate: 1 }, summaryCsv: 'x', flows: [{ flow: 1 } as never], series: [1, 2, 3].map((t) => ({ tPs: t, queuedBytes: 0, maxPortBytes: 0, goodputGbps: 0, gap: false })) };
    const w = rewound(r, 2);
    expect(w.topology).toBe(r.topology);
    expect(w.summaryCsv).toBe('x');
    expect(w.flows).toEqual([]);
    expect(w.series.map((p) => p.tPs)).toEqual([1]);
  });
});

describe('branches and faults in the page', () => {
  it('a share link carries the branch; bad branches name the field', async () => {
    const { encodeSettings, decodeSettings, validateSettings, runsOf } = await import('../../web/src/state/settings');
    const s = { scenario: { name: 'x', workload: { flows: 10 } }, protocols: ['pfabric' as const], branch: { of: 'pfabric' as const, name: 'spine1 fails', at_us: 5, change: { kind: 'switch_down' as const, node: 'spine1' } } };
    const back = decodeSettings(encodeSettings(s)) as typeof s;
    expect(back.branch).toEqual(s.branch);
    expect(validateSettings(back)).toEqual([]);
    const runs = runsOf(back);
    expect(runs.map((r) => r.label)).toEqual(['pfabric', 'pfabric · what if spine1 fails']);
    expect(runs[1].scenario.branch).toEqual({ name: 'spine1 fails', at_us: 5, change: s.branch.change });
    // A branch of a run no longer shown is dropped with it.
    expect(runsOf({ ...s, branch: { ...s.branch, of: 'dctcp' } }).map((r) => r.label)).toEqual(['pfabric']);
    expect(validateSettings({ ...s, branch: { ...s.branch, at_us: -1 } }).map((e) => e.field)).toContain('branch.at_us');
  });

  it('the drawing knows which links are down when (the engine topology, the scenario faults)', async () => {
    const { downPortsAt } = await import('../../web/src/views/faults');
    const e = new Engine(scenario(10), false);
    const topo = JSON.parse(e.topology_json());
    e.free();
    const spine1 = topo.nodes.findIndex((n: { name: string }) => n.name === 'spine1');
    const sc = { faults: [{ at_us: 10, kind: 'switch_down', node: 'spine1' }, { at_us: 20, kind: 'link_up', link: ['tor0', 'spine1'] }] };
    expect(downPortsAt(sc, topo, 9e6).size).toBe(0);
    const at15 = downPortsAt(sc, topo, 15e6);
    // Every port of spine1 and every port towards it: 2 per ToR (9 ToRs).
    expect(at15.size).toBe(18);
    for (const p of at15) expect(topo.ports[p].node === spine1 || topo.ports[p].peer === spine1).toBe(true);
    expect(downPortsAt(sc, topo, 25e6).size).toBe(16);
  });
});
