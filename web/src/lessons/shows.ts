// What a lesson step says is on screen, and whether its run shows it.
//
// A step may list statements (`shows`, scenarios/lessons/README.md): "a
// packet has been dropped at a first hop in pfabric", "a token has been
// sent in phost", "a flow is paused now in pdq". Each is checked against
// the run itself: the engine's trace is folded into `Facts`
// (engine/facts.ts: how many of each kind of event happened by a time, what
// is paused and buffered at that time), and a statement holds when the facts
// at its step's time say so. The lesson test (tests/unit/lessons.test.ts) checks every shipped
// lesson this way; the lesson editor checks a draft before it is saved.
// Pure code, no DOM: it runs in the page, in a worker and in Node.

import { CONTROL_NAMES, type Facts, type RunFacts } from '../engine/api';
import { HOPS, SIZES, type Hop, type Size } from '../engine/facts';
import { bytesText, fmtTime } from '../format/format';
import { DEFAULT_PROTOCOL, type FieldError } from '../state/settings';

/** Each hop in words (a single rack has only first and last hops). */
export const HOP_TEXT: Record<Hop, string> = {
  first_hop: "a first hop (a host's own link up to its switch)",
  uplink: "an uplink (a ToR's link up to a spine or core switch)",
  downlink: "a downlink (a spine or core switch's link down to a ToR)",
  last_hop: "a last hop (a ToR's link down to a host)",
};

/**
 * What a statement can say, each read from the engine's trace (the kinds
 * of trace record, engine/core/src/trace.rs) or its state at the step's
 * time. `now`: true of the moment (else: has happened by then); `filters`:
 * the optional fields that narrow it.
 */
export const SHOWN = {
  drop: { now: false, filters: ['where'], text: 'a packet has been dropped' },
  ecn_mark: { now: false, filters: ['where'], text: 'a packet has been ECN-marked' },
  timeout: { now: false, filters: [], text: "a sender's retransmission timer has fired" },
  flow_started: { now: false, filters: [], text: 'a flow has started' },
  flow_completed: { now: false, filters: ['size'], text: 'a flow has completed' },
  control_message: { now: false, filters: ['message'], text: 'a control message has been sent' },
  decision: { now: false, filters: ['message'], text: 'a scheduling decision has been made (PASE arbitration, PDQ accept, rate or pause)' },
  link_down: { now: false, filters: [], text: 'a link has gone down' },
  flow_paused: { now: true, filters: [], text: 'a flow is paused (its latest decision is a pause)' },
  queue_occupied: { now: true, filters: ['where', 'bytes_at_least'], text: "a port's buffer holds packets" },
} as const satisfies Record<string, { now: boolean; filters: readonly string[]; text: string }>;

/** The kinds of statement (`what`). */
export type ShownKind = keyof typeof SHOWN;
/** Every kind, in the order the editor lists them. */
export const SHOWN_KINDS = Object.keys(SHOWN) as ShownKind[];

/** A control message or decision's name, as the engine names it (`CONTROL_NAMES`). */
export type ControlName = (typeof CONTROL_NAMES)[number];

/** One statement of a step: "by this step's time (or: at it), in this run, at least one such event". */
export interface Shows {
  what: ShownKind;
  /** The run that shows it: one of the lesson's protocols, or "branch". Omitted: any of the lesson's runs. */
  protocol?: string;
  /** drop, ecn_mark, queue_occupied: only at ports of this hop. */
  where?: Hop;
  /** control_message, decision: only this message (e.g. "token", "pdq_pause"). */
  message?: ControlName;
  /** flow_completed: only flows of this size bucket. */
  size?: Size;
  /** Events: at least this many by the step's time; flow_paused: at least this many flows paused (default 1). */
  at_least?: number;
  /** queue_occupied: a buffer holds at least this many bytes (default 1 byte: anything). */
  bytes_at_least?: number;
}

const FIELDS = ['what', 'protocol', 'where', 'message', 'size', 'at_least', 'bytes_at_least'];

/** Checks a step's `shows` list; `field` names it in messages (e.g. "steps[2].shows"), `runs` are the lesson's run names. */
export function validateShows(x: unknown, field: string, runs: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const e = (f: string, message: string) => errs.push({ field: f, message });
  if (!Array.isArray(x)) return [{ field, message: `must be a list of statements, e.g. [{"what": "drop", "protocol": "${DEFAULT_PROTOCOL}"}]` }];
  x.forEach((s: unknown, i: number) => {
    const f = `${field}[${i}]`;
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return e(f, 'must be an object such as {"what": "drop"}');
    const o = s as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!FIELDS.includes(k)) e(`${f}.${k}`, `is not a field of a statement (fields: ${FIELDS.join(', ')})`);
    if (!(SHOWN_KINDS as unknown[]).includes(o.what)) return e(`${f}.what`, `must be one of ${SHOWN_KINDS.join(', ')}, got ${JSON.stringify(o.what)}`);
    const kind = SHOWN[o.what as ShownKind];
    const allowed: readonly string[] = kind.filters;
    const only = (k: string) => {
      if (o[k] === undefined) return false;
      if (allowed.includes(k)) return true;
      e(`${f}.${k}`, `does not apply to "${String(o.what)}"${allowed.length ? ` (it takes ${allowed.join(', ')})` : ''}`);
      return false;
    };
    if (o.protocol !== undefined && !runs.includes(o.protocol as string)) e(`${f}.protocol`, `must be one of the lesson's runs (${runs.join(', ')}), got ${JSON.stringify(o.protocol)}`);
    if (only('where') && !(HOPS as readonly unknown[]).includes(o.where)) e(`${f}.where`, `must be one of ${HOPS.join(', ')}, got ${JSON.stringify(o.where)}`);
    if (only('message') && !(CONTROL_NAMES as readonly unknown[]).includes(o.message)) e(`${f}.message`, `must be a message the engine names (${CONTROL_NAMES.join(', ')}), got ${JSON.stringify(o.message)}`);
    if (only('size') && !(SIZES as readonly unknown[]).includes(o.size)) e(`${f}.size`, `must be one of ${SIZES.join(', ')}, got ${JSON.stringify(o.size)}`);
    if (o.at_least !== undefined) {
      if (o.what === 'queue_occupied') e(`${f}.at_least`, 'does not apply to "queue_occupied" (use bytes_at_least)');
      else if (!(Number.isInteger(o.at_least) && (o.at_least as number) >= 1)) e(`${f}.at_least`, `must be a whole number of at least 1, got ${JSON.stringify(o.at_least)}`);
    }
    if (only('bytes_at_least') && !(typeof o.bytes_at_least === 'number' && Number.isFinite(o.bytes_at_least) && o.bytes_at_least >= 1)) e(`${f}.bytes_at_least`, `must be a number of bytes, at least 1, got ${JSON.stringify(o.bytes_at_least)}`);
  });
  return errs;
}

/** A statement in words, e.g. "a packet has been dropped at a first hop (...) in pfabric". */
export function showsText(s: Shows): string {
  const k = SHOWN[s.what];
  let t: string = k.text;
  if (s.what === 'control_message' && s.message) t = `a ${s.message} message has been sent`;
  if (s.what === 'decision' && s.message) t = `a ${s.message} decision has been made`;
  if (s.what === 'flow_completed' && s.size) t = `a ${s.size} flow has completed`;
  if (s.what === 'queue_occupied' && s.bytes_at_least && s.bytes_at_least > 1) t = `a port's buffer holds at least ${bytesText(s.bytes_at_least)}`;
  const n = s.at_least ?? 1;
  if (n > 1) t += s.what === 'flow_paused' ? ` (at least ${n} flows)` : ` (at least ${n} times)`;
  if (s.where) t += ` at ${HOP_TEXT[s.where]}`;
  if (k.now) t += ' now';
  return t + (s.protocol ? ` in ${s.protocol}` : ' in some run');
}

// ---------------------------------------------------------------------------
// Facts: what a run's trace says by a time (engine/facts.ts).

/** The key a statement's events are counted under in `Facts.counts` (null for statements about the moment). */
export function factKey(s: Pick<Shows, 'what' | 'where' | 'message' | 'size'>): string | null {
  if (SHOWN[s.what].now) return null;
  const q = s.what === 'drop' || s.what === 'ecn_mark' ? s.where : s.what === 'control_message' || s.what === 'decision' ? s.message : s.what === 'flow_completed' ? s.size : undefined;
  return q ? `${s.what}.${q}` : s.what;
}

// ---------------------------------------------------------------------------
// Judging statements.

/** Whether one run's facts bear out a statement (its protocol aside), and what they say instead. */
export function judge(s: Shows, f: Facts): { holds: boolean; saw: string } {
  if (s.what === 'flow_paused') {
    const n = s.at_least ?? 1;
    return { holds: f.pausedFlows >= n, saw: f.pausedFlows === 0 ? 'no flow is paused then' : `${f.pausedFlows} ${f.pausedFlows === 1 ? 'flow is' : 'flows are'} paused then` };
  }
  if (s.what === 'queue_occupied') {
    const b = s.where ? f.queueBytesByHop[HOPS.indexOf(s.where)] : Math.max(0, ...f.queueBytesByHop);
    const need = s.bytes_at_least ?? 1;
    return { holds: b >= need, saw: b === 0 ? 'every such buffer is empty then' : `the fullest such buffer holds ${bytesText(b)} then` };
  }
  const n = f.counts[factKey(s)!] ?? 0;
  const need = s.at_least ?? 1;
  return { holds: n >= need, saw: n === 0 ? 'none by then' : `${n} by then` };
}

/** A statement a run does not bear out at its step's time. */
export interface ShowsFailure {
  step: number;
  index: number;
  statement: Shows;
  /** Why, alone: "is false at t = 1.000 ms: none by then (the first is at t = 5.422 ms)". */
  why: string;
  /** The whole message: "steps[2].shows[0] (step 3, "Drops"): "a packet has been dropped ... in pfabric" " and `why`. */
  message: string;
}

/**
 * Judges every statement of every step, given each run's facts (by run
 * name: a protocol, or "branch"; `at` one per step). A statement without
 * a protocol holds when any run bears it out. Steps a run did not reach
 * (a wall-time bound) are not judged.
 */
export function checkShows(steps: readonly { at_us: number; title?: string; shows?: Shows[] }[], facts: Readonly<Record<string, RunFacts>>): ShowsFailure[] {
  const out: ShowsFailure[] = [];
  steps.forEach((st, i) => {
    (st.shows ?? []).forEach((s, k) => {
      const names = s.protocol !== undefined ? [s.protocol] : Object.keys(facts);
      const where = `steps[${i}].shows[${k}] (step ${i + 1}${st.title ? `, "${st.title}"` : ''})`;
      const missing = names.find((n) => !facts[n]);
      if (missing !== undefined) {
        const why = `names no run of the lesson ("${missing}"; runs: ${Object.keys(facts).join(', ')})`;
        return out.push({ step: i, index: k, statement: s, why, message: `${where}: ${why}` });
      }
      const seen = names.map((n) => ({ n, f: facts[n].at[i], first: facts[n].firstPs }));
      // A step the run did not reach (a wall-time bound) is not judged.
      if (seen.some((x) => !x.f)) return;
      const verdicts = seen.map((x) => ({ ...x, ...judge(s, x.f!) }));
      if (verdicts.some((v) => v.holds)) return;
      const key = factKey(s);
      const firsts = key ? verdicts.map((v) => v.first?.[key]).filter((x): x is number => x !== undefined) : [];
      const later = firsts.length ? ` (the first is at t = ${fmtTime(Math.min(...firsts))})` : key ? ' (and none later in the part of the run looked at)' : '';
      const saw = verdicts.length === 1 ? verdicts[0].saw : verdicts.map((v) => `${v.n}: ${v.saw}`).join('; ');
      const why = `is false at t = ${fmtTime(st.at_us * 1e6)}: ${saw}${later}`;
      out.push({ step: i, index: k, statement: s, why, message: `${where}: "${showsText(s)}" ${why}` });
    });
  });
  return out;
}
