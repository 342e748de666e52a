// The page's handle on one simulation worker: sends WorkerRequests,
// delivers WorkerResponses to a listener, reports a crash. The page imports
// only this and the API types; the engine stays inside the worker.

import type { AdvanceRequest, WorkerRequest, WorkerResponse } from './api';

/** What a client tells its owner. */
export interface ClientListener {
  onMessage(msg: WorkerResponse): void;
  /** The worker itself died (an uncaught error or a failed load). */
  onCrash(message: string): void;
}

/** One worker running one engine. */
export class SimClient {
  private worker: Worker;
  /** An advance (or finish) is outstanding: its frame has not come back yet. */
  busy = false;

  constructor(private listener: ClientListener) {
    this.worker = SimClient.spawn();
    this.wire();
  }

  /** Creates the module worker (a separate function so tests can see the URL shape Vite needs). */
  static spawn(): Worker {
    return new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'dcsim-engine' });
  }

  private wire() {
    this.worker.onmessage = (ev: MessageEvent<WorkerResponse>) => {
      const m = ev.data;
      if (m.type === 'frame' || m.type === 'error') this.busy = false;
      if (m.type === 'frame' && !m.running) this.busy = true; // 'finished' follows
      if (m.type === 'finished') this.busy = false;
      this.listener.onMessage(m);
    };
    this.worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      this.busy = false;
      this.listener.onCrash(ev.message || 'the simulation worker stopped');
    };
    this.worker.onmessageerror = () => {
      this.busy = false;
      this.listener.onCrash('a message from the simulation worker could not be read');
    };
  }

  /** Sends a request. */
  send(req: WorkerRequest) {
    if (req.type === 'advance' || req.type === 'finish' || req.type === 'seek') this.busy = true;
    this.worker.postMessage(req);
  }

  /** Asks for one slice. */
  advance(req: Omit<AdvanceRequest, 'type'>) {
    this.send({ type: 'advance', ...req });
  }

  /** Replaces a dead (or any) worker with a fresh one. */
  restart() {
    this.worker.terminate();
    this.worker = SimClient.spawn();
    this.busy = false;
    this.wire();
  }

  /** Stops the worker for good. */
  dispose() {
    this.worker.terminate();
  }
}
