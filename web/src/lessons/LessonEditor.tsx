// The lesson editor: pause where the class should look, "Add step here"
// (the time on screen and the run settings, as a lesson file says them),
// write a title, a narration (Markdown subset, previewed as the class will
// see it), what the step shows (statements checked against the runs: a
// false one is reported before the lesson is downloaded or shared) and
// optionally a prediction question; reorder and delete steps;
// preview the lesson as a student walks it; download the lesson file (it
// can go into scenarios/lessons/ as it is) or share it as a link that
// carries the whole lesson. The draft survives a reload (localStorage).

import { useEffect, useMemo, useState } from 'react';
import type { Conductor, ConductorState } from '../state/conductor';
import { fmtTime } from '../format/format';
import type { ScenarioJson } from '../state/settings';
import { download } from '../export/download';
import { copiedNote, copyText } from '../export/clipboard';
import { BRANCH_RUN, METRICS, SCOPES, metricLabel, scopeLabel, validateLesson, type Lesson, type LessonStep, type Question } from './lesson';
import { canonicalJson, lessonFileText, runsOfSettings, type LessonRuns } from './author';
import { encodeLessonHash } from './share';
import { Markdown } from './Markdown';
import { ShowsEditor, type Verdict } from './ShowsEditor';
import { verifyShows, type ShowsCheck } from './verify';

interface Draft {
  name: string;
  title: string;
  /** The runs, taken from the screen by the last "Add step here" (null before the first). */
  runs: LessonRuns | null;
  steps: LessonStep[];
}

const STORE = 'dcsim.lessonDraft';
const EMPTY: Draft = { name: '', title: '', runs: null, steps: [] };

function loadDraft(): Draft {
  try {
    const d = JSON.parse(localStorage.getItem(STORE) ?? 'null');
    return d && Array.isArray(d.steps) ? { ...EMPTY, ...d } : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** The lesson a draft makes (the runs on screen when no step has taken them yet). */
function lessonOf(d: Draft, onScreen: LessonRuns): Lesson {
  return { name: d.name, title: d.title, ...(d.runs ?? onScreen), steps: d.steps };
}

/** "websearch-leaf-spine (seed 1; workload: flows) · pfabric, dctcp". */
function describeRuns(r: LessonRuns): string {
  const over = [r.seed !== undefined ? `seed ${r.seed}` : '', r.workload ? `workload: ${Object.keys(r.workload).join(', ')}` : '', r.params ? `params of ${Object.keys(r.params).join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
  const sc = typeof r.scenario === 'string' ? r.scenario + (over ? ` (${over})` : '') : `${String(r.scenario.name)} (the whole scenario, in the file)`;
  return `${sc} · ${r.protocols.join(', ')}${r.branch ? ` · what if ${r.branch.name}` : ''}`;
}

/** The lesson editor panel. */
export function LessonEditor({
  c,
  s,
  scenarios,
  open,
  onPreview,
  onClose,
}: {
  c: Conductor;
  s: ConductorState;
  scenarios: ScenarioJson[];
  /** The lesson open in the lesson bar, offered as a starting point. */
  open: Lesson | null;
  onPreview: (l: Lesson) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(loadDraft);
  const [link, setLink] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  /** The last check of the statements, for the lesson whose key it holds. */
  const [check, setCheck] = useState<{ key: string; result: ShowsCheck | null; error: string | null } | null>(null);
  /** A save held back because statements are false: what to do when the author saves anyway. */
  const [held, setHeld] = useState<{ what: string; go: () => void } | null>(null);
  useEffect(() => {
    try {
      localStorage.setItem(STORE, JSON.stringify(draft));
    } catch {
      /* private mode: the draft lives as long as the page */
    }
    setLink(null);
  }, [draft]);

  const onScreen = useMemo(() => runsOfSettings(s.settings, scenarios), [s.settings, scenarios]);
  const lesson = lessonOf(draft, onScreen);
  const errors = validateLesson(lesson, scenarios.map((x) => String(x.name)));
  const settingsMoved = draft.runs !== null && canonicalJson(draft.runs) !== canonicalJson(onScreen);
  const runNames = [...lesson.protocols, ...(lesson.branch ? [BRANCH_RUN] : [])];

  const setStep = (i: number, patch: Partial<LessonStep>) => setDraft({ ...draft, steps: draft.steps.map((st, k) => (k === i ? { ...st, ...patch } : st)) });
  const setQuestion = (i: number, patch: Partial<Question>) => setStep(i, { question: { ...draft.steps[i].question!, ...patch } });
  const move = (i: number, by: number) => {
    const steps = draft.steps.slice();
    [steps[i], steps[i + by]] = [steps[i + by], steps[i]];
    setDraft({ ...draft, steps });
  };
  const addHere = () => {
    c.pause();
    const at_us = Math.round(c.getClock() / 1e3) / 1e3;
    const k = draft.steps.findIndex((st) => st.at_us > at_us);
    const steps = draft.steps.slice();
    steps.splice(k < 0 ? steps.length : k, 0, { at_us, title: '', text: '' });
    setDraft({ ...draft, runs: onScreen, steps });
  };
  const share = async () => {
    try {
      setLinkError(null);
      const url = window.location.origin + window.location.pathname + (await encodeLessonHash(lesson));
      setLink(url);
      setCopied(copiedNote(await copyText(url), 'link', 'select it in the box and copy it'));
    } catch (e) {
      setLinkError(e instanceof Error ? e.message : String(e));
    }
  };
  const ok = errors.length === 0;

  // The statements are checked for this lesson as it is: its runs and its steps' times and statements.
  const checkKey = canonicalJson({ runs: { ...lesson, name: '', title: '', steps: [] }, steps: lesson.steps.map((st) => [st.at_us, st.shows ?? []]) });
  const statements = lesson.steps.reduce((n, st) => n + (st.shows?.length ?? 0), 0);
  const current = check && check.key === checkKey ? check : null;
  const checking = current !== null && current.result === null && current.error === null;
  const verdictsOf = (i: number): Verdict[] =>
    (draft.steps[i].shows ?? []).map((_, k) => {
      if (!current?.result) return undefined;
      const f = current.result.failures.find((x) => x.step === i && x.index === k);
      return f ? f.why : null;
    });
  /** Checks the statements against the runs (once per version of the lesson); resolves with the result. */
  const runCheck = async (): Promise<ShowsCheck | null> => {
    if (current?.result) return current.result;
    const key = checkKey;
    setCheck({ key, result: null, error: null });
    try {
      const result = await verifyShows(structuredClone(lesson), scenarios);
      setCheck((c) => (c && c.key === key ? { key, result, error: null } : c));
      return result;
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      setCheck((c) => (c && c.key === key ? { key, result: null, error } : c));
      return null;
    }
  };
  /** Saves (download, share) once the statements are checked; a false one holds the save back with a warning. */
  const guarded = (what: string, go: () => void) => async () => {
    setHeld(null);
    if (statements === 0) return go();
    const r = await runCheck();
    if (r && r.failures.length === 0) return go();
    setHeld({ what, go });
  };

  return (
    <section className="editor" data-testid="editor" aria-label="lesson editor">
      <div className="editor-head">
        <h3>Write a lesson</h3>
        <label>
          title <input data-testid="editor-title" value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} placeholder="pFabric against DCTCP" />
        </label>
        <label>
          file name{' '}
          <input data-testid="editor-name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} placeholder="my-first-lesson" pattern="[a-z0-9-]+" />
        </label>
        {open && (
          <button
            data-testid="editor-from-open"
            title="start from the lesson open in the lesson bar (this draft is replaced)"
            onClick={() => {
              if (draft.steps.length && !window.confirm('Replace this draft with the open lesson?')) return;
              const { name, title, steps, ...runs } = structuredClone(open);
              setDraft({ name, title, runs, steps });
            }}
          >
            Edit a copy of “{open.title}”
          </button>
        )}
        <button onClick={onClose} aria-label="close the lesson editor">
          Close
        </button>
      </div>
      <p className="note" data-testid="editor-runs">
        Runs: {describeRuns(lesson.protocols.length ? lesson : onScreen)}
        {settingsMoved && (
          <>
            {' '}
            · the settings on screen have changed since:{' '}
            <button data-testid="editor-recapture" onClick={() => setDraft({ ...draft, runs: onScreen })}>
              use the settings on screen
            </button>
          </>
        )}
      </p>
      <p>
        <button data-testid="editor-add-step" disabled={!s.loaded} onClick={addHere} title="pause and add a step at the time on screen">
          Add step here (t = {fmtTime(s.displayPs)})
        </button>{' '}
        <span className="note">Pause where the class should look, then add a step; the settings on screen go into the lesson.</span>
      </p>
      <ol className="editor-steps">
        {draft.steps.map((st, i) => {
          const id = `editor-step-${i}`;
          const q = st.question;
          return (
            <li key={i} className="editor-step" data-testid={id}>
              <div className="editor-row">
                <label>
                  at (µs) <input type="number" min={0} step="any" data-testid={`${id}-at`} value={st.at_us} onChange={(e) => setStep(i, { at_us: Number(e.target.value) })} />
                </label>
                <label className="grow">
                  step title <input data-testid={`${id}-title`} value={st.title} onChange={(e) => setStep(i, { title: e.target.value })} />
                </label>
                <button aria-label={`go to step ${i + 1}'s time`} disabled={!s.loaded} onClick={() => c.runTo(st.at_us * 1e6)}>
                  go
                </button>
                <button aria-label={`move step ${i + 1} up`} data-testid={`${id}-up`} disabled={i === 0} onClick={() => move(i, -1)}>
                  ▲
                </button>
                <button aria-label={`move step ${i + 1} down`} data-testid={`${id}-down`} disabled={i + 1 === draft.steps.length} onClick={() => move(i, 1)}>
                  ▼
                </button>
                <button aria-label={`delete step ${i + 1}`} data-testid={`${id}-delete`} onClick={() => setDraft({ ...draft, steps: draft.steps.filter((_, k) => k !== i) })}>
                  delete
                </button>
              </div>
              <div className="editor-row">
                <label className="grow">
                  narration (**bold**, *italic*, `code`, - lists, [links](https://…))
                  <textarea rows={3} data-testid={`${id}-text`} value={st.text} onChange={(e) => setStep(i, { text: e.target.value })} />
                </label>
                <Markdown text={st.text} className="editor-preview lesson-text" />
              </div>
              <ShowsEditor id={id} shows={st.shows ?? []} runs={runNames} verdicts={verdictsOf(i)} onChange={(shows) => setStep(i, { shows })} />
              <label>
                <input
                  type="checkbox"
                  data-testid={`${id}-ask`}
                  checked={q !== undefined}
                  onChange={(e) => {
                    if (e.target.checked) setStep(i, { question: { prompt: '', metric: 'mean_slowdown', pick: 'lowest', expect: lesson.protocols[0], explain: '' } });
                    else setDraft({ ...draft, steps: draft.steps.map((x, k) => (k === i ? { at_us: x.at_us, title: x.title, text: x.text, ...(x.shows ? { shows: x.shows } : {}) } : x)) });
                  }}
                />{' '}
                ask the class to predict
              </label>
              {q && (
                <div className="editor-question">
                  <label className="grow">
                    question <input data-testid={`${id}-prompt`} value={q.prompt} onChange={(e) => setQuestion(i, { prompt: e.target.value })} placeholder="Which protocol gives short flows the lower mean slowdown?" />
                  </label>
                  <label>
                    judged by{' '}
                    <select data-testid={`${id}-metric`} value={q.metric} onChange={(e) => setQuestion(i, { metric: e.target.value as Question['metric'] })}>
                      {METRICS.map((m) => (
                        <option key={m} value={m}>
                          {metricLabel(m)}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label>
                    for{' '}
                    <select data-testid={`${id}-scope`} value={q.scope ?? 'all'} onChange={(e) => setQuestion(i, { scope: e.target.value as Question['scope'] })}>
                      {SCOPES.map((m) => (
                        <option key={m} value={m}>
                          {scopeLabel(m)}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label>
                    wins{' '}
                    <select data-testid={`${id}-pick`} value={q.pick} onChange={(e) => setQuestion(i, { pick: e.target.value as Question['pick'] })}>
                      <option>lowest</option>
                      <option>highest</option>
                    </select>
                  </label>
                  <label>
                    expected winner{' '}
                    <select data-testid={`${id}-expect`} value={q.expect} onChange={(e) => setQuestion(i, { expect: e.target.value as Question['expect'] })}>
                      {runNames.map((p) => (
                        <option key={p}>{p}</option>
                      ))}
                    </select>
                  </label>
                  <label className="grow">
                    explanation (shown after the answer)
                    <textarea rows={2} data-testid={`${id}-explain`} value={q.explain} onChange={(e) => setQuestion(i, { explain: e.target.value })} />
                  </label>
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {errors.length > 0 && (
        <ul className="error" data-testid="editor-errors" aria-label="what the lesson still needs">
          {errors.map((e, i) => (
            <li key={i}>
              {e.field}: {e.message}
            </li>
          ))}
        </ul>
      )}
      {statements > 0 && (
        <p className="note" data-testid="editor-shows-status" role="status">
          <button data-testid="editor-shows-check" disabled={!ok || checking} onClick={() => void runCheck()} title="run each of the lesson's runs to its steps' times (in workers of their own) and check every statement">
            Check what the steps show
          </button>{' '}
          {checking
            ? 'checking the statements against the runs…'
            : current?.error
              ? `the check failed: ${current.error}`
              : current?.result
                ? current.result.failures.length === 0
                  ? `all ${current.result.statements} statements hold at their steps' times${current.result.unchecked ? ` (${current.result.unchecked} not checked: the runs took too long to get there)` : ''}`
                  : `${current.result.failures.length} of ${current.result.statements} statements are false at their steps' times`
                : `${statements} ${statements === 1 ? 'statement' : 'statements'}, not checked against the runs since the last change`}
        </p>
      )}
      {held && (
        <div className="banner warn" role="alert" data-testid="editor-shows-warning">
          {current?.result ? (
            <>
              <p>
                <strong>Not saved:</strong> {current.result.failures.length === 1 ? 'a step says it shows something' : `${current.result.failures.length} statements say steps show something`} the runs do not show at that time. Move the step, or change what it says.
              </p>
              <ul>
                {current.result.failures.map((f) => (
                  <li key={`${f.step}-${f.index}`}>{f.message}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>
              <strong>Not saved:</strong> the statements could not be checked ({current?.error ?? 'the check did not finish'}).
            </p>
          )}
          <button
            data-testid="editor-save-anyway"
            onClick={() => {
              const h = held;
              setHeld(null);
              h.go();
            }}
          >
            {held.what} anyway
          </button>{' '}
          <button data-testid="editor-save-cancel" onClick={() => setHeld(null)}>
            Cancel
          </button>
        </div>
      )}
      <div className="exports">
        <button data-testid="editor-preview" disabled={!ok} onClick={() => onPreview(structuredClone(lesson))} title="open the lesson in the lesson bar as a student sees it">
          Preview
        </button>
        <button data-testid="editor-download" disabled={!ok || checking} onClick={guarded('Download', () => download(`${lesson.name}.json`, new Blob([lessonFileText(lesson)], { type: 'application/json' })))}>
          Download lesson file
        </button>
        <button data-testid="editor-share" disabled={!ok || checking} onClick={guarded('Share', () => void share())} title="a link that carries the whole lesson (no server needed)">
          Share link
        </button>
        {link && <input readOnly className="editor-link" data-testid="editor-link" aria-label="the lesson's link" value={link} onFocus={(e) => e.target.select()} />}
        {link && copied && (
          <span role="status" className="note" data-testid="editor-link-copied">
            {copied}
          </span>
        )}
        {linkError && <em className="error">{linkError}</em>}
        <button
          onClick={() => {
            if (window.confirm('Discard this lesson draft?')) setDraft(EMPTY);
          }}
        >
          Start over
        </button>
      </div>
    </section>
  );
}
