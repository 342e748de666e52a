// A page's part in a live class. The instructor's page reports every
// control the conductor is given (play, pause, speed, step, seek, a lesson's
// step, reveal, a what-if branch, a load) to the room as an action stamped
// with the simulated time on screen, and its run fingerprint once the
// workers are idle. A student's page folds the room's log into the state
// the instructor's page is in (protocol.ts `fold`) and, in "follow me",
// brings its own engine there one move at a time (`reconcile`): the same
// path for a page that was there all along, one that joined late, one that
// reloaded and one whose connection dropped. In "explore" the student is
// free; "bring everyone back" returns every page to the instructor's run.

import type { Conductor } from '../state/conductor';
import type { BranchSettings, Settings } from '../state/settings';
import { LiveConnection, liveUrl } from './client';
import { fingerprint, fold, type Action, type ClientMsg, type Desired, type Op, type Pacing, type ServerMsg, type StateReport } from './protocol';

/** What the room panel shows. */
export interface LiveView {
  role: 'instructor' | 'student' | null;
  code: string | null;
  /** The socket is open. */
  connected: boolean;
  /** The instructor's page is connected (students wait for it otherwise). */
  instructor: boolean;
  students: number;
  /** The room's pacing, and whether this student is following it now. */
  pacing: Pacing;
  /** The state the log leads to (students follow it). */
  desired: Desired;
  /** The instructor's last fingerprint report. */
  reported: StateReport | null;
  /** This page's fingerprint and time once its workers are idle. */
  mine: StateReport | null;
  /** Votes by predict step (instructor). */
  tallies: Record<number, { counts: Record<string, number>; names: [string, string][] | null }>;
  showNames: boolean;
  /** Students' what-ifs (instructor), newest last. */
  whatifs: { from: string; branch: Record<string, unknown>; note: string | null }[];
  /** The last refusal from the server. */
  error: { code: string; message: string } | null;
  /** This student's votes by step. */
  myVotes: Record<number, string>;
}

/** What the page lets the room do besides the conductor. */
export interface LiveHost {
  /** Shows bundled lesson `name` (null: none) without loading it (the load travels as its own action). */
  showLesson(name: string | null): void;
  /** The lesson on screen. */
  lessonName(): string | null;
}

/** Where a page keeps its seat across a reload (this tab only). */
const SEAT_KEY = 'dcsim-live-seat';
interface Seat {
  role: 'instructor' | 'student';
  code: string;
  secret?: string;
  name?: string;
  log?: Action[];
}

/** How often a page looks whether it should move or report, ms. */
const POLL_MS = 150;
/** How often the instructor's page sends its clock while playing, ms. */
const TICK_MS = 500;
/** A following page more than this many wall seconds of play away from the instructor's clock jumps to it. */
const MAX_DRIFT_S = 2;

/** The conductor's controls a room hears of, and the action each is. */
const CONTROLS: Record<string, (...a: never[]) => Op | null> = {
  load: (settings: Settings, keepRuns?: boolean, seekTo?: number | null) => (keepRuns || seekTo != null ? null : { kind: 'load', settings: withoutBranch(settings) as unknown as Record<string, unknown> }),
  play: () => ({ kind: 'play' }),
  pause: () => ({ kind: 'pause' }),
  fullSpeed: () => ({ kind: 'finish' }),
  finishAll: () => ({ kind: 'finish' }),
  setSpeed: (speed: number) => ({ kind: 'speed', speed }),
  stepEvent: () => ({ kind: 'step', what: 'event' }),
  stepRtt: () => ({ kind: 'step', what: 'rtt' }),
  stepBack: () => ({ kind: 'step', what: 'back_event' }),
  stepBackRtt: () => ({ kind: 'step', what: 'back_rtt' }),
  goToEvent: () => ({ kind: 'step', what: 'event' }),
  seek: (t: number) => ({ kind: 'seek', t_ps: Math.max(0, Math.round(t)) }),
  runTo: (t: number) => ({ kind: 'run_to', t_ps: Math.max(0, Math.round(t)) }),
  branch: (b: BranchSettings) => ({ kind: 'branch', branch: b as unknown as Record<string, unknown> }),
  closeBranch: () => ({ kind: 'close_branch' }),
};

function withoutBranch(s: Settings): Settings {
  const t = { ...s };
  delete t.branch;
  return t;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A page's seat in a live class (none until it starts or joins one). */
export class LiveRoom {
  private conn: LiveConnection | null = null;
  private seat: Seat | null = null;
  private log: Action[] = [];
  private view: LiveView;
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastTick = 0;
  /** The instructor's latest time: a tick, a state report, or an action's stamp, whichever came last. */
  private instructorPs = 0;
  private restoring = false;
  private unwrap: (() => void) | null = null;

  constructor(
    private c: Conductor,
    private host: LiveHost,
  ) {
    this.view = { role: null, code: null, connected: false, instructor: false, students: 0, pacing: 'follow', desired: fold([]), reported: null, mine: null, tallies: {}, showNames: false, whatifs: [], error: null, myVotes: {} };
    const saved = readSeat();
    const join = /(?:^#|&)join=([A-Za-z0-9]{6})/.exec(window.location.hash);
    if (join) this.join(join[1].toUpperCase(), saved?.code === join[1].toUpperCase() ? saved.name : undefined);
    else if (saved) this.resume(saved);
  }

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getView = () => this.view;
  private update(patch: Partial<LiveView>) {
    this.view = { ...this.view, ...patch };
    for (const l of this.listeners) l();
  }

  /** "Start a live class": a new room with this page as its instructor. */
  start() {
    this.connect({ role: 'instructor', code: '' });
  }

  /** Joins room `code` as a student, with an optional display name. */
  join(code: string, name?: string) {
    this.connect({ role: 'student', code: code.trim().toUpperCase(), name: name?.trim() || undefined });
  }

  private resume(seat: Seat) {
    this.log = seat.log ?? [];
    this.connect(seat);
  }

  private connect(seat: Seat) {
    this.leave(false);
    this.seat = seat;
    writeSeat(seat);
    this.update({ role: seat.role, code: seat.code || null, error: null, desired: fold(this.log) });
    if (seat.role === 'instructor') this.instrument();
    this.conn = new LiveConnection(liveUrl(), () => this.hello(), (m) => this.onMessage(m), (open) => this.update({ connected: open, ...(open ? {} : { instructor: seat.role === 'instructor' ? true : false }) }));
    clearInterval(this.timer);
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  /** Leaves the room (forgets the seat). */
  leave(forget = true) {
    this.conn?.close();
    this.conn = null;
    this.unwrap?.();
    this.unwrap = null;
    clearInterval(this.timer);
    if (forget) {
      this.seat = null;
      this.log = [];
      writeSeat(null);
      this.update({ role: null, code: null, connected: false, tallies: {}, whatifs: [], reported: null, mine: null, desired: fold([]) });
    }
  }

  /** What the page says on every (re)open: create, restore, claim or join. */
  private hello(): ClientMsg {
    const s = this.seat!;
    if (s.role === 'student') return { type: 'join', code: s.code, ...(s.name ? { name: s.name } : {}) };
    if (!s.code || !s.secret) return { type: 'create' };
    // The room may be gone (a server restart): a create with the page's log brings it back; an open room is claimed.
    this.restoring = true;
    return { type: 'create', restore: { code: s.code, secret: s.secret, log: this.log } };
  }

  private onMessage(m: ServerMsg) {
    const s = this.seat;
    if (!s) return;
    switch (m.type) {
      case 'created':
        s.code = m.code;
        s.secret = m.secret;
        writeSeat({ ...s, log: this.log });
        this.update({ code: m.code });
        if (this.log.length === 0) this.snapshot();
        break;
      case 'joined':
        this.restoring = false;
        if (s.role === 'student' || this.log.length === 0) this.log = m.log;
        this.instructorPs = fold(this.log).atPs;
        if (m.state) this.instructorPs = m.state.t_ps;
        this.update({ instructor: m.instructor, students: m.students, reported: m.state, desired: fold(this.log), pacing: fold(this.log).pacing, error: null });
        break;
      case 'action':
        if (m.seq !== this.log.length + 1) {
          // A gap (this page missed messages): take the seat again for the whole log.
          this.conn?.reopen();
          return;
        }
        this.log = [...this.log, m.action];
        // After "run to the end" the instructor's time is the end, which its next state report says.
        if (m.action.op.kind !== 'finish') this.instructorPs = m.action.op.kind === 'seek' || m.action.op.kind === 'run_to' ? m.action.op.t_ps : m.action.at_ps;
        this.update({ desired: fold(this.log), pacing: fold(this.log).pacing });
        break;
      case 'ack':
        writeSeat({ ...s, log: this.log });
        break;
      case 'tick':
        this.instructorPs = m.t_ps;
        break;
      case 'state':
        this.instructorPs = m.t_ps;
        this.update({ reported: { t_ps: m.t_ps, fingerprint: m.fingerprint } });
        break;
      case 'presence':
        this.update({ instructor: m.instructor, students: m.students });
        break;
      case 'tally':
        this.update({ tallies: { ...this.view.tallies, [m.step]: { counts: m.counts, names: m.names } } });
        break;
      case 'whatif':
        this.update({ whatifs: [...this.view.whatifs, { from: m.from, branch: m.branch, note: m.note }].slice(-20) });
        break;
      case 'error':
        // The room is gone and this page cannot bring it back (it is a student's): wait for the instructor's page to restore it.
        if (m.code === 'no_room' && s.role === 'student') this.update({ instructor: false, error: m });
        else if (this.restoring && m.code === 'code_taken') this.update({ error: m });
        else this.update({ error: m });
        break;
      case 'pong':
        break;
    }
  }

  /**
   * The state a fingerprint is taken of is every event up to the time on
   * screen, and no more. After playing, the workers have run ahead of the
   * screen (they keep a lead, conductor.ts), and after a pause their runs
   * hold events the screen has not reached: a seek to the time on screen
   * (time travel, deterministic) lands them exactly there. True when it did.
   */
  private exact(): boolean {
    const st = this.c.getLive();
    if (!this.c.isIdle() || st.mode !== 'paused') return false;
    const t = Math.round(st.displayPs);
    if (t !== st.displayPs || st.runs.some((r) => r.nowPs > t && !r.summary)) {
      this.c.seek(t);
      return true;
    }
    return false;
  }

  /** Every POLL_MS: the instructor reports; a following student moves toward the instructor's run. */
  private poll() {
    if (!this.seat) return;
    if (this.seat.role === 'instructor') return void (this.exact() || this.report());
    if (!this.conn?.isOpen) return;
    const following = this.view.desired.pacing === 'follow' && this.view.desired.settings !== null;
    if (following && this.exact()) return;
    this.noteMine();
    if (following) this.reconcile();
  }

  /** This page's fingerprint, once its workers are idle and paused. */
  private noteMine() {
    const st = this.c.getLive();
    if (!this.c.isIdle() || st.mode !== 'paused') return;
    const mine = { t_ps: Math.round(st.displayPs), fingerprint: fingerprint(st.runs) };
    if (!same(mine, this.view.mine)) this.update({ mine });
  }

  /** Instructor: the clock while playing, the fingerprint when idle. */
  private report() {
    const st = this.c.getLive();
    const now = performance.now();
    if (st.mode === 'playing' && now - this.lastTick > TICK_MS) {
      this.lastTick = now;
      this.conn?.send({ type: 'tick', t_ps: Math.round(st.displayPs) });
    }
    const before = this.view.mine;
    this.noteMine();
    const mine = this.view.mine;
    if (mine && (!same(mine, before) || !same(mine, this.view.reported)) && this.conn?.send({ type: 'state', ...mine })) this.update({ reported: mine });
  }

  /** Student, following: one move toward the instructor's state (the next poll makes the next). */
  private reconcile() {
    const c = this.c;
    const d = this.view.desired;
    const st = c.getLive();
    if (!same(withoutBranch(st.settings), d.settings)) {
      this.host.showLesson(d.lesson);
      c.load(d.settings as unknown as Settings);
      return;
    }
    if (this.host.lessonName() !== d.lesson) this.host.showLesson(d.lesson);
    if (!c.isIdle()) return;
    if (!same(st.settings.branch ?? null, d.branch)) {
      // A branch opens at the time on screen, as it did on the instructor's page: go there first.
      const at = Number((d.branch as { at_us?: unknown } | null)?.at_us) * 1e6;
      if (d.branch && Number.isFinite(at) && Math.round(st.displayPs) !== at) return c.runTo(at);
      if (d.branch) c.branch(d.branch as unknown as BranchSettings);
      else c.closeBranch();
      return;
    }
    if (d.speed !== null && st.speed !== d.speed) c.setSpeed(d.speed);
    if (d.finished && !st.runs.every((r) => r.summary)) return c.finishAll();
    // Finished here, and the instructor's report of its end not in yet: stay (a seek back and forth would rebuild the runs another way).
    if (d.finished && this.log[this.log.length - 1]?.op.kind === 'finish' && this.view.reported?.t_ps !== Math.round(st.displayPs) && this.instructorPs < st.displayPs) return;
    const target = this.instructorPs;
    if (d.playing) {
      if (st.mode === 'playing') {
        if (Math.abs(st.displayPs - target) > MAX_DRIFT_S * st.speed) c.pause();
        return;
      }
      // Within the drift allowed while playing, play from here (the ticks keep moving the target).
      if (Math.abs(st.displayPs - target) > MAX_DRIFT_S * st.speed) return c.runTo(target);
      return c.play();
    }
    if (st.mode !== 'paused') return c.pause();
    if (Math.round(st.displayPs) !== target) c.runTo(target);
  }

  /** Instructor: every control the conductor is given becomes an action (only the outermost of nested calls). */
  private instrument() {
    if (this.unwrap) return;
    const c = this.c as unknown as Record<string, (...a: unknown[]) => unknown>;
    const saved: [string, (...a: unknown[]) => unknown][] = [];
    let depth = 0;
    for (const [name, toOp] of Object.entries(CONTROLS)) {
      const orig = c[name];
      saved.push([name, orig]);
      c[name] = (...a: unknown[]) => {
        const at = Math.max(0, Math.round(this.c.getClock()));
        depth++;
        try {
          return orig.apply(this.c, a);
        } finally {
          depth--;
          const op = depth === 0 ? (toOp as (...x: unknown[]) => Op | null)(...a) : null;
          if (op) this.act({ at_ps: Math.min(at, 2 ** 53), op });
        }
      };
    }
    this.unwrap = () => {
      for (const [name, orig] of saved) c[name] = orig;
    };
  }

  /** Instructor: a new room starts from what is on screen (its settings, lesson, branch and time). */
  private snapshot() {
    const st = this.c.getState();
    this.instruct({ kind: 'load', settings: withoutBranch(st.settings) as unknown as Record<string, unknown> });
    const lesson = this.host.lessonName();
    if (lesson) this.instruct({ kind: 'lesson', name: lesson });
    if (st.settings.branch) this.instruct({ kind: 'branch', branch: st.settings.branch as unknown as Record<string, unknown> });
    if (st.speed) this.instruct({ kind: 'speed', speed: st.speed });
    this.instruct({ kind: 'run_to', t_ps: Math.round(st.displayPs) });
  }

  /** Instructor: logs an action and sends it to the room. */
  act(a: Action) {
    if (this.seat?.role !== 'instructor') return;
    this.log = [...this.log, a];
    writeSeat({ ...this.seat, log: this.log });
    this.conn?.send({ type: 'action', action: a });
    this.update({ desired: fold(this.log), pacing: fold(this.log).pacing });
  }

  /** Instructor: an action of the room itself (pacing, bring back, a lesson's step, reveal, the lesson shown). */
  instruct(op: Op) {
    this.act({ at_ps: Math.max(0, Math.round(this.c.getClock())), op });
  }

  /** Instructor: the lesson on screen changed. */
  noteLesson(name: string | null) {
    if (this.seat?.role === 'instructor' && name !== null && name !== this.view.desired.lesson) this.instruct({ kind: 'lesson', name });
  }

  /** Instructor: voters' names in the tally, or counts only. */
  setShowNames(on: boolean) {
    this.conn?.send({ type: 'show_names', on });
    this.update({ showNames: on });
  }

  /** Student: an answer to predict step `step`. */
  vote(step: number, choice: string) {
    if (this.conn?.send({ type: 'vote', step, choice })) this.update({ myVotes: { ...this.view.myVotes, [step]: choice } });
  }

  /** Student: sends the what-if on screen to the instructor. */
  sendWhatif(note?: string) {
    const b = this.c.getState().settings.branch;
    if (b) this.conn?.send({ type: 'whatif', branch: b as unknown as Record<string, unknown>, ...(note ? { note } : {}) });
  }

  /** Sends a message as it is (the e2e test's refused control message). */
  sendRaw(text: string) {
    this.conn?.sendRaw(text);
  }

  /** Stops the room's timers and socket (the page is going away). */
  dispose() {
    this.conn?.close();
    this.unwrap?.();
    clearInterval(this.timer);
  }
}

function readSeat(): Seat | null {
  try {
    const s = sessionStorage.getItem(SEAT_KEY);
    return s ? (JSON.parse(s) as Seat) : null;
  } catch {
    return null;
  }
}

function writeSeat(s: Seat | null) {
  try {
    if (s) sessionStorage.setItem(SEAT_KEY, JSON.stringify(s));
    else sessionStorage.removeItem(SEAT_KEY);
  } catch {
    /* a page that cannot store its seat rejoins by code after a reload */
  }
}
