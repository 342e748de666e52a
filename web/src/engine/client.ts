// The page's handle on one simulation worker: every request is a promise of
// its reply, matched by id (the worker echoes it), so running several
// workers in lockstep is `await Promise.all(...)`. A crash, a restart or
// dispose rejects every request still waiting: none is left hanging.
// Messages the worker sends unasked go to a listener. The page imports only
// this and the API types; the engine stays inside the worker.

import type { ReplyTo, Unsolicited, WorkerEnvelope, WorkerFailure, WorkerRequest, WorkerResponse } from './api';

/** What a client tells its owner besides replies. */
export interface ClientListener {
  /** A message the worker sent unasked (exploration progress, an exploration that failed). */
  onMessage?(msg: Unsolicited): void;
  /** The worker itself died (an uncaught error, a script that failed to load, an unreadable message). */
  onCrash?(message: string): void;
}

/** The engine refused a request: its own message (a request's promise rejects with this). */
export class EngineError extends Error {
  constructor(
    message: string,
    /** The request it refused (`init`: the engine could not start; `request`: a malformed message). */
    readonly during: WorkerFailure['during'],
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** The worker is gone (a request's promise rejects with this): it crashed, or was stopped or restarted. */
export class WorkerGone extends Error {
  constructor(
    message: string,
    /** True when the worker crashed (false: stopped or restarted by the page). */
    readonly crashed: boolean,
  ) {
    super(message);
    this.name = 'WorkerGone';
  }
}

/** Request types that run the engine: while one is unanswered the client is busy. */
const MOVES: ReadonlySet<WorkerRequest['type']> = new Set(['load', 'advance', 'seek', 'finish', 'find']);

interface Pending {
  type: WorkerRequest['type'];
  resolve(reply: unknown): void;
  reject(e: Error): void;
}

/** One worker running one engine. */
export class SimClient {
  private worker: Worker;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  /** Set once the worker crashed or was disposed: every request rejects with it. */
  private gone: WorkerGone | null = null;

  /** `spawn` makes the worker (tests pass a fake one). */
  constructor(
    private listener: ClientListener = {},
    private spawn: () => Worker = SimClient.spawn,
  ) {
    this.worker = this.spawn();
    this.wire();
  }

  /** Creates the module worker (a separate function so tests can see the URL shape Vite needs). */
  static spawn(): Worker {
    return new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'dcsim-engine' });
  }

  /** A request that runs the engine (load, advance, seek, finish) is unanswered. */
  get busy(): boolean {
    for (const p of this.pending.values()) if (MOVES.has(p.type)) return true;
    return false;
  }

  /** Requests sent and not answered yet. */
  get waiting(): number {
    return this.pending.size;
  }

  private wire() {
    const worker = this.worker;
    worker.onmessage = (ev: MessageEvent<WorkerResponse>) => {
      if (worker !== this.worker) return;
      const m = ev.data;
      if (!('id' in m)) return this.listener.onMessage?.(m);
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.type === 'error') p.reject(new EngineError(m.message, m.during));
      else p.resolve(m);
    };
    worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      if (worker === this.worker) this.crash(ev.message || 'the simulation worker stopped');
    };
    worker.onmessageerror = () => {
      if (worker === this.worker) this.crash('a message from the simulation worker could not be read');
    };
  }

  private crash(message: string) {
    this.worker.terminate();
    this.gone = new WorkerGone(message, true);
    this.listener.onCrash?.(message);
    this.rejectAll(this.gone);
  }

  private rejectAll(e: WorkerGone) {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(e);
  }

  /**
   * Sends a request; resolves with its reply (matched by id, whatever the
   * order replies come in), rejects with `EngineError` when the engine
   * refuses it and with `WorkerGone` when the worker crashes, restarts or
   * is disposed first (or already has).
   */
  request<R extends WorkerRequest>(req: R): Promise<ReplyTo<R>> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise<ReplyTo<R>>((resolve, reject) => {
      this.pending.set(id, { type: req.type, resolve: resolve as (r: unknown) => void, reject });
      try {
        this.worker.postMessage({ ...req, id } satisfies WorkerEnvelope);
      } catch (e) {
        this.pending.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  /** Replaces a dead (or any) worker with a fresh one; requests still waiting are rejected. */
  restart() {
    this.worker.terminate();
    this.rejectAll(new WorkerGone('the simulation worker was restarted', false));
    this.gone = null;
    this.worker = this.spawn();
    this.wire();
  }

  /** Stops the worker for good; requests still waiting (and any later one) are rejected. */
  dispose() {
    this.worker.terminate();
    this.gone ??= new WorkerGone('the simulation worker was stopped', false);
    this.rejectAll(this.gone);
  }
}
