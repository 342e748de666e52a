// The lesson bar: pick a lesson, walk its steps (each one moves the shared
// clock to the step's time and pauses), read the narration, let the class
// predict the answer to a question, then reveal the answer the runs give.
// In self-check mode a student answers alone: each answer is final, the
// right answer and the explanation follow at once, the score adds up, and
// the results download as CSV.

import { useEffect, useState, type ReactNode } from 'react';
import type { Conductor, ConductorState } from '../state/conductor';
import { fmtTime } from '../format/format';
import { answer, judgedRuns, judgedSummaries, metricText, metricValueText, type Lesson } from './lesson';
import { Markdown } from './Markdown';
import { showsText } from './shows';
import { selfCheckCsv, selfCheckRows, selfCheckScore } from './author';
import { downloadCsv } from '../export/download';

/** The lesson chooser and, with a lesson open, its current step. */
export function LessonPanel({
  lessons,
  lesson,
  modified,
  onChoose,
  c,
  s,
  compact = false,
  clicker = false,
  live,
}: {
  /** A live class (live/LivePanel.tsx): the instructor's moves reported, a student's page following. */
  live?: LessonLive;
  /** The embedded player and presentation mode: no chooser, no self-check. */
  compact?: boolean;
  /** Presentation mode: a clicker's keys (→, PageDown; ←, PageUp) walk the steps too. */
  clicker?: boolean;
  lessons: Lesson[];
  lesson: Lesson | null;
  /** The settings were edited since the lesson loaded them. */
  modified: boolean;
  onChoose: (name: string | null) => void;
  c: Conductor;
  s: ConductorState;
}) {
  const [step, setStep] = useState(0);
  // Per step: the class's prediction, and whether the answer is shown.
  const [guess, setGuess] = useState<Record<number, string>>({});
  const [revealed, setRevealed] = useState<Record<number, boolean>>({});
  const [selfCheck, setSelfCheck] = useState(false);
  useEffect(() => {
    setStep(0);
    setGuess({});
    setRevealed({});
  }, [lesson]);
  // A student following the room: the instructor's step and revealed answers.
  const followStep = live?.step;
  const followRevealed = live?.revealed?.join(',');
  useEffect(() => {
    if (followStep !== undefined) setStep(followStep);
  }, [followStep, lesson]);
  useEffect(() => {
    if (followRevealed !== undefined) setRevealed(Object.fromEntries(followRevealed.split(',').filter(Boolean).map((k) => [Number(k), true])));
  }, [followRevealed, lesson]);

  // Keys n (next step) and b (back), as the transport bar's keys: not while typing.
  useEffect(() => {
    if (!lesson) return;
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const st = c.getState();
      if (!st.loaded || st.seeking) return;
      const fwd = e.key === 'n' || (clicker && (e.key === 'ArrowRight' || e.key === 'PageDown'));
      const back = e.key === 'b' || (clicker && (e.key === 'ArrowLeft' || e.key === 'PageUp'));
      const k = fwd ? step + 1 : back ? step - 1 : -1;
      if (clicker && (fwd || back)) e.preventDefault();
      if (k < 0 || k >= lesson.steps.length) return;
      setStep(k);
      live?.onStep?.(k);
      c.runTo(lesson.steps[k].at_us * 1e6);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [lesson, step, c, clicker, live]);

  const chooser = (
    <label className="lesson-choose">
      lesson{' '}
      <select data-testid="lesson-select" aria-label="lesson" value={lesson?.name ?? ''} onChange={(e) => onChoose(e.target.value || null)}>
        <option value="">(none: free exploration)</option>
        {lessons.map((l) => (
          <option key={l.name} value={l.name}>
            {l.title}
          </option>
        ))}
      </select>
    </label>
  );
  if (!lesson) return <div className="lesson closed">{chooser}</div>;

  const st = lesson.steps[Math.min(step, lesson.steps.length - 1)];
  const busy = !s.loaded || s.seeking;
  const go = (k: number) => {
    setStep(k);
    live?.onStep?.(k);
    c.runTo(lesson.steps[k].at_us * 1e6);
  };
  // Judged among the lesson's own runs: a branch opened beside it is shown, never judged.
  const { summaries, done: allDone, outsideBranch } = judgedSummaries(lesson, s.settings, s.runs.map((r) => r.summary));
  const q = st.question;
  const shown = q && revealed[step] && allDone ? answer(q, summaries) : null;
  const atStep = Math.abs(s.displayPs - st.at_us * 1e6) < 1 || s.displayPs >= st.at_us * 1e6;
  const reveal = () => {
    setRevealed({ ...revealed, [step]: true });
    live?.onReveal?.(step);
    if (!allDone) c.finishAll();
  };
  const checkRows = selfCheck ? selfCheckRows(lesson, guess) : [];
  const score = selfCheck && allDone ? selfCheckScore(checkRows, summaries) : null;

  return (
    <section className="lesson" data-testid="lesson">
      <div className="lesson-head">
        {!compact && chooser}
        <strong data-testid="lesson-title">{lesson.title}</strong>
        <span className="lesson-pos" data-testid="lesson-step">
          step {step + 1} of {lesson.steps.length} · t = {fmtTime(st.at_us * 1e6)}
        </span>
        <button data-testid="lesson-prev" disabled={busy || step === 0} onClick={() => go(step - 1)} title="previous step [b]">
          ◂ Back
        </button>
        <button data-testid="lesson-go" disabled={busy || atStep} onClick={() => go(step)} title="move the clock to this step's time">
          Go to t = {fmtTime(st.at_us * 1e6)}
        </button>
        <button data-testid="lesson-next" disabled={busy || step + 1 >= lesson.steps.length} onClick={() => go(step + 1)} title="next step [n]">
          Next step ▸
        </button>
        {!compact && <label title="each student answers alone: answers are final and scored, with the explanation after each">
          <input
            type="checkbox"
            data-testid="selfcheck"
            checked={selfCheck}
            onChange={(e) => {
              setSelfCheck(e.target.checked);
              setGuess({});
              setRevealed({});
            }}
          />{' '}
          self-check
        </label>}
        {selfCheck && (
          <>
            <span data-testid="selfcheck-score" data-right={score?.right ?? ''} data-answered={score?.answered ?? ''}>
              {score ? `score: ${score.right} of ${score.answered} answered · ${score.of} questions` : `${checkRows.filter((r) => r.chosen).length} of ${checkRows.length} questions answered`}
            </span>
            <button
              data-testid="selfcheck-csv"
              disabled={!allDone}
              title={allDone ? 'your answers and the right ones, as CSV' : 'available once the runs have finished'}
              onClick={() => downloadCsv(`${lesson.name}_self-check.csv`, selfCheckCsv(lesson, checkRows, summaries))}
            >
              results.csv
            </button>
          </>
        )}
      </div>
      {modified && <p className="note">The settings were changed after the lesson loaded them: the runs (and the answers below) are those of the changed settings.</p>}
      {/* Read out when the step changes. */}
      <div aria-live="polite" data-testid="lesson-live">
        <h4 data-testid="lesson-step-title">{st.title}</h4>
        <Markdown text={st.text} className="lesson-text" testid="lesson-text" />
        {st.shows && st.shows.length > 0 && (
          <div data-testid="lesson-shows">
            <strong>On screen by this time</strong> <small>(checked against the runs)</small>:
            <ul className="lesson-shows">
              {st.shows.map((x, k) => (
                <li key={k}>{showsText(x)}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
      {q && (
        <div className="lesson-question" data-testid="lesson-question">
          <p>
            <strong>Predict:</strong> {q.prompt} <small>(judged by the {metricText(q)}, {q.pick} wins, over the whole run)</small>
          </p>
          <div className="lesson-choices">
            {(q.among ?? judgedRuns(lesson)).map((p) => (
              <button
                key={p}
                data-testid={`lesson-guess-${p}`}
                className={guess[step] === p ? 'chosen' : ''}
                aria-pressed={guess[step] === p}
                disabled={selfCheck && guess[step] !== undefined}
                onClick={() => {
                  setGuess({ ...guess, [step]: p });
                  live?.onGuess?.(step, p);
                  if (selfCheck) reveal();
                }}
              >
                {p}
              </button>
            ))}
            {!revealed[step] && !selfCheck && !live?.revealed && (
              <button data-testid="lesson-reveal" onClick={reveal}>
                {allDone ? 'Reveal the answer' : 'Run to the end and reveal'}
              </button>
            )}
          </div>
          {outsideBranch && (
            <p className="note" data-testid="lesson-branch-note">
              The what-if branch beside the lesson's runs is there to compare with; the answer is judged among the lesson's {judgedRuns(lesson).join(', ')} only.
            </p>
          )}
          {live?.beside?.(step)}
          {revealed[step] && !allDone && <p className="note">running every protocol to the end…</p>}
          {shown && (
            <div className="lesson-answer" data-testid="lesson-answer" data-winner={shown.winner ?? ''} role="status">
              <p>
                {shown.winner ? (
                  <>
                    <strong>{shown.winner}</strong> has the {q.pick} {metricText(q)}
                  </>
                ) : (
                  'No single protocol wins (a tie, or no run has this number)'
                )}
                {guess[step] && shown.winner && !selfCheck && <> · the class predicted {guess[step]}: {guess[step] === shown.winner ? 'right' : 'not this time'}</>}
                {guess[step] && selfCheck && (
                  <span data-testid="selfcheck-result" data-right={String(guess[step] === shown.winner)}>
                    {' '}
                    · you answered {guess[step]}: {guess[step] === shown.winner ? 'right' : 'wrong'}
                  </span>
                )}
              </p>
              <ul>
                {shown.values.map((v) => (
                  <li key={v.protocol}>
                    {v.protocol}: {metricValueText(q.metric, v.value)}
                  </li>
                ))}
              </ul>
              {shown.winner === q.expect ? (
                <Markdown text={q.explain} testid="lesson-explain" />
              ) : (
                <p className="note">The lesson's explanation is about {q.expect} winning, which these runs do not show.</p>
              )}
            </div>
          )}
        </div>
      )}
    </section>
  );
}

/** A lesson panel's part in a live class. */
export interface LessonLive {
  /** A student following the room: the instructor's step (undefined: the panel's own). */
  step?: number;
  /** A student following the room: the steps whose answer the instructor revealed (the panel's own reveal button is hidden). */
  revealed?: number[];
  /** The instructor went to step `k`. */
  onStep?: (k: number) => void;
  /** A student predicted `choice` at step `step` (a vote). */
  onGuess?: (step: number, choice: string) => void;
  /** The instructor revealed step `step`'s answer. */
  onReveal?: (step: number) => void;
  /** Shown under a step's question: the room's tally, beside the answer once revealed. */
  beside?: (step: number) => ReactNode;
}
