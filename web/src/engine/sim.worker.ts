// The simulation worker: owns one engine (the Rust core compiled to
// WebAssembly) and advances it in slices on the page's request, so the page
// never blocks. Every request carries an id and gets exactly one reply
// with that id (a WorkerResponse, api.ts: the answer, or an error; a
// malformed request gets an error naming the field); only exploration's
// messages come unasked, without one. Typed arrays are transferred, not
// copied. The request handling is workerCore.ts (it runs in Node too, for
// the tests); this file loads the WebAssembly and schedules exploration.

import init, { Engine } from '../engine-glue/dcsim_wasm.js';
import wasmUrl from '../engine-glue/dcsim_wasm_bg.wasm?url';
import type { WorkerResponse } from './api';
import { createWorkerCore, envelopeId, failure } from './workerCore';

let ready: Promise<unknown> | null = null;

function post(msg: WorkerResponse, transfer: Transferable[] = []) {
  (self as unknown as Worker).postMessage(msg, transfer);
}

const core = createWorkerCore(Engine, post);

/** Events per exploration slice (about 10-20 ms of work). */
const EXPLORE_EVENTS = 150_000;
/** Explore only after the page has asked nothing for this long, ms. */
const EXPLORE_QUIET_MS = 30;
let lastRequest = 0;
let exploring = false;

/**
 * Time travel: while the page is idle the worker explores the run ahead in
 * small slices (a copy of the run, trace off), leaving checkpoints, so a
 * later seek anywhere replays at most one checkpoint interval. Any request
 * from the page comes first: slices run from timers, between messages.
 */
function scheduleExplore() {
  if (exploring || !core.mayExplore) return;
  exploring = true;
  setTimeout(exploreSlice, EXPLORE_QUIET_MS);
}

function exploreSlice() {
  exploring = false;
  if (!core.mayExplore) return;
  if (performance.now() - lastRequest < EXPLORE_QUIET_MS) return scheduleExplore();
  if (core.explore(EXPLORE_EVENTS)) scheduleExplore();
}

self.onmessage = async (ev: MessageEvent<unknown>) => {
  lastRequest = performance.now();
  try {
    ready ??= init({ module_or_path: wasmUrl });
    await ready;
  } catch (e) {
    post(failure(envelopeId(ev.data), e, 'init'));
    return;
  }
  core.handle(ev.data);
  // Quiet time counts from the end of the work (a full-speed slice is long).
  lastRequest = performance.now();
  scheduleExplore();
};
