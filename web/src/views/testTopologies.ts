// Real topologies for the view tests, built by the engine itself (the
// WebAssembly build, loaded synchronously under Node).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Topology } from '../engine/api';
import { initSync, Engine } from '../engine-glue/dcsim_wasm.js';

const root = join(__dirname, '..', '..', '..');
let ready = false;

/** The default scenario (websearch on the 144-host leaf-spine). */
export function websearchScenario(): Record<string, unknown> & { workload: Record<string, unknown> } {
  return JSON.parse(readFileSync(join(root, 'scenarios/websearch-leaf-spine.json'), 'utf8'));
}

/** Builds the topology `topology` (a scenario's topology object) with the engine. */
export function engineTopology(topology: Record<string, unknown>): Topology {
  if (!ready) {
    initSync({ module: readFileSync(join(root, 'web/src/engine-glue/dcsim_wasm_bg.wasm')) });
    ready = true;
  }
  const sc = { ...websearchScenario(), topology, workload: { ...websearchScenario().workload, flows: 10 } };
  const e = new Engine(JSON.stringify(sc), false);
  const t = JSON.parse(e.topology_json()) as Topology;
  e.free();
  return t;
}
