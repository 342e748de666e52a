// The live class in the page: "Start a live class" (the room's code, join
// link and QR code, large on the projector; pacing; the students' what-ifs;
// the votes as CSV) or joining one by its code (following the instructor,
// the fingerprint check, sending a what-if). The room itself is room.ts.

import { useMemo, useState, useSyncExternalStore } from 'react';
import qrcode from 'qrcode-generator';
import type { Conductor } from '../state/conductor';
import type { BranchSettings } from '../state/settings';
import { downloadCsv } from '../export/download';
import { fmtTime } from '../format/format';
import type { LessonLive } from '../lessons/LessonPanel';
import type { LiveRoom, LiveView } from './room';
import './live.css';

/** The room's view, re-rendered on every change. */
export function useLive(room: LiveRoom): LiveView {
  return useSyncExternalStore(room.subscribe, room.getView);
}

/** The join link students open (the page's own address, `#join=CODE`). */
export function joinLink(code: string, loc: Pick<Location, 'origin' | 'pathname'> = window.location): string {
  return `${loc.origin}${loc.pathname}#join=${code}`;
}

/** The votes as an anonymous CSV: step, answer, count (no names, whatever the tally shows). */
export function votesCsv(tallies: LiveView['tallies']): string {
  const rows = ['step,answer,votes'];
  for (const [step, t] of Object.entries(tallies).sort((a, b) => Number(a[0]) - Number(b[0]))) {
    for (const [answer, n] of Object.entries(t.counts)) rows.push(`${Number(step) + 1},${answer},${n}`);
  }
  return rows.join('\n') + '\n';
}

/** A QR code of `text` as SVG squares (qrcode-generator computes the modules). */
function Qr({ text, size, testid }: { text: string; size: string; testid: string }) {
  const cells = useMemo(() => {
    const q = qrcode(0, 'M');
    q.addData(text);
    q.make();
    const n = q.getModuleCount();
    const d: string[] = [];
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (q.isDark(r, c)) d.push(`M${c + 4},${r + 4}h1v1h-1z`);
    return { n: n + 8, path: d.join('') };
  }, [text]);
  return (
    <svg data-testid={testid} role="img" aria-label={`QR code of ${text}`} viewBox={`0 0 ${cells.n} ${cells.n}`} style={{ width: size, height: size, background: '#fff' }} shapeRendering="crispEdges">
      <path d={cells.path} fill="#000" />
    </svg>
  );
}

/** The tally of step `step` (instructor), shown under the lesson's question. */
export function Tally({ view, step }: { view: LiveView; step: number }) {
  const t = view.tallies[step];
  const total = t ? Object.values(t.counts).reduce((a, b) => a + b, 0) : 0;
  return (
    <div className="live-tally" data-testid="live-tally" data-total={total} aria-live="polite">
      <strong>The class voted:</strong> {total === 0 && 'no votes yet'}
      {t &&
        Object.entries(t.counts).map(([answer, n]) => (
          <span key={answer} className="live-tally-bar" data-testid={`live-tally-${answer}`} data-value={n}>
            {' '}
            {answer}: {n}
          </span>
        ))}
      {t?.names && <small data-testid="live-tally-names"> ({t.names.map(([name, a]) => `${name || 'anonymous'}: ${a}`).join(', ')})</small>}
    </div>
  );
}

/** The lesson panel's part in the room (see LessonLive). */
export function lessonLive(room: LiveRoom, view: LiveView): LessonLive | undefined {
  if (view.role === 'instructor')
    return {
      onStep: (k) => room.instruct({ kind: 'lesson_step', step: k }),
      onReveal: (k) => room.instruct({ kind: 'reveal', step: k }),
      beside: (k) => <Tally view={view} step={k} />,
    };
  if (view.role === 'student') {
    const following = view.desired.pacing === 'follow';
    return {
      ...(following ? { step: view.desired.lessonStep, revealed: view.desired.revealed } : {}),
      onGuess: (k, choice) => room.vote(k, choice),
      beside: (k) => (view.myVotes[k] ? <p className="note" data-testid="live-my-vote">your vote: {view.myVotes[k]} (sent)</p> : null),
    };
  }
  return undefined;
}

/** The room's panel in the toolbar. */
export function LivePanel({ room, c, displayPs }: { room: LiveRoom; c: Conductor; displayPs: number }) {
  const v = useLive(room);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [big, setBig] = useState(false);
  if (!v.role)
    return (
      <details className="live menu" data-testid="live">
        <summary className="btn">Live class</summary>
        <div className="menu-items live-menu">
          <button className="btn" data-testid="live-start" onClick={() => room.start()}>
            Start a live class
          </button>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              room.join(code, name);
            }}
          >
            <label>
              room code <input data-testid="live-code" value={code} maxLength={6} size={7} autoCapitalize="characters" onChange={(e) => setCode(e.target.value.toUpperCase())} />
            </label>{' '}
            <label>
              name (optional) <input data-testid="live-name" value={name} maxLength={40} size={12} onChange={(e) => setName(e.target.value)} />
            </label>{' '}
            <button className="btn" data-testid="live-join" disabled={code.length !== 6}>
              Join
            </button>
          </form>
        </div>
      </details>
    );
  const link = v.code ? joinLink(v.code) : '';
  const sync = v.reported && v.mine && v.reported.t_ps === v.mine.t_ps ? (v.reported.fingerprint === v.mine.fingerprint ? 'same' : 'differs') : 'pending';
  const error = v.error && (
    <em className="error" data-testid="live-error" data-code={v.error.code}>
      {v.error.message}
    </em>
  );
  const fp = (
    <span className="live-fp">
      t = <span data-testid="live-time">{fmtTime(displayPs)}</span> · run <code data-testid="live-fingerprint">{v.mine?.fingerprint ?? '…'}</code>
    </span>
  );
  if (v.role === 'instructor')
    return (
      <div className="live live-instructor" data-testid="live" data-role="instructor">
        <span className="live-code">
          room <strong data-testid="live-room-code">{v.code ?? '…'}</strong>
        </span>{' '}
        <span data-testid="live-students" data-value={v.students}>
          {v.students} student{v.students === 1 ? '' : 's'}
        </span>
        {!v.connected && <span className="warn"> · reconnecting to the room server…</span>} · {fp}{' '}
        <button className="btn" data-testid="live-show-code" disabled={!v.code} onClick={() => setBig(true)}>
          Show the code
        </button>{' '}
        {v.desired.pacing === 'follow' ? (
          <button className="btn" data-testid="live-explore" onClick={() => room.instruct({ kind: 'pacing', mode: 'explore' })} title="each student is free: zoom, scrub back, branch">
            Let them explore
          </button>
        ) : (
          <button className="btn" data-testid="live-bring-back" onClick={() => room.instruct({ kind: 'bring_back' })} title="every student's page returns to your run and follows it">
            Bring everyone back
          </button>
        )}{' '}
        <label>
          <input type="checkbox" data-testid="live-names" checked={v.showNames} onChange={(e) => room.setShowNames(e.target.checked)} /> names in the tally
        </label>{' '}
        <button className="btn" data-testid="live-votes-csv" disabled={Object.keys(v.tallies).length === 0} onClick={() => downloadCsv(`votes-${v.code}.csv`, votesCsv(v.tallies))}>
          votes.csv
        </button>{' '}
        <button className="btn" data-testid="live-leave" onClick={() => room.leave()}>
          End the class
        </button>
        {error}
        {v.whatifs.length > 0 && (
          <ul className="live-whatifs" data-testid="live-whatifs">
            {v.whatifs.map((w, i) => (
              <li key={i}>
                {w.from || 'a student'} sent a what-if{w.note ? `: ${w.note}` : ''}{' '}
                <button className="btn" data-testid={`live-whatif-show-${i}`} onClick={() => c.branch(w.branch as unknown as BranchSettings)}>
                  Show it to everyone
                </button>
              </li>
            ))}
          </ul>
        )}
        {big && v.code && (
          <div className="live-projector" data-testid="live-projector" role="dialog" aria-label="join the live class" onClick={() => setBig(false)}>
            <p>Join at</p>
            <p className="live-link" data-testid="live-link">
              {link}
            </p>
            <p className="live-big-code">{v.code}</p>
            <Qr text={link} size="min(55vh, 80vw)" testid="live-qr" />
            <p>
              <button className="btn">Close</button>
            </p>
          </div>
        )}
      </div>
    );
  const waiting = !v.connected || !v.instructor;
  return (
    <div className="live live-student" data-testid="live" data-role="student">
      <span className="live-code">
        room <strong data-testid="live-room-code">{v.code}</strong>
      </span>{' '}
      <span data-testid="live-status" data-value={waiting ? 'waiting' : v.desired.pacing}>
        {!v.connected ? 'reconnecting…' : !v.instructor ? 'waiting for the instructor' : v.desired.pacing === 'follow' ? 'following the instructor' : 'exploring on your own'}
      </span>{' '}
      · {fp} ·{' '}
      <span data-testid="live-sync" data-value={sync} title={v.reported ? `the instructor's run at t = ${fmtTime(v.reported.t_ps)}: ${v.reported.fingerprint}` : ''}>
        {sync === 'same' ? 'same run as the instructor ✓' : sync === 'differs' ? 'differs from the instructor’s run' : 'catching up…'}
      </span>{' '}
      <span hidden data-testid="live-instructor-time" data-value={v.reported?.t_ps ?? ''} data-fingerprint={v.reported?.fingerprint ?? ''} />
      {c.getState().settings.branch && (
        <button className="btn" data-testid="live-send-whatif" onClick={() => room.sendWhatif()}>
          Send my what-if to the instructor
        </button>
      )}{' '}
      <button className="btn" data-testid="live-leave" onClick={() => room.leave()}>
        Leave
      </button>
      {error}
    </div>
  );
}
