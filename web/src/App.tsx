// The classroom app: settings, the shared timeline's controls, one animated
// network per protocol side by side, the port inspector and event log, the
// live charts, the summary table and the exports.

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Conductor } from './state/conductor';
import { useConductorState } from './state/useConductorState';
import { fmtTime } from './format/format';
import { dctcpProfileOf, decodeSettings, DEFAULT_PROTOCOL, descriptorOf, encodeSettings, exportName, FLOW_LEVEL, portsOf, type Settings } from './state/settings';
import { DEFAULT_SCENARIO, SCENARIOS, scenarioNamed } from './scenarios';
import { bundledLessons, lessonFromHash, lessonRunsChanged, lessonSettings, type Lesson } from './lessons/lesson';
import { LessonPanel } from './lessons/LessonPanel';
import { LessonEditor } from './lessons/LessonEditor';
import { encodeLessonHash } from './lessons/share';
import { ImportBar, type ImportHow } from './import/ImportBar';
import { Menu } from './controls/Menu';
import type { Imported } from './import/importer';
import { SweepPanel } from './sweep/SweepPanel';
import { embedCode, viewModeFromHash, withoutViewMode, withViewMode, type EmbedPreset, type PresentPanel, type ViewMode } from './present/mode';
import { EmbedPlayer, Presentation } from './present/Player';
import { Transport, SHORTCUTS } from './controls/Transport';
import { Scrubber } from './controls/Scrubber';
import { EventNav } from './controls/EventNav';
import { WhatIf } from './controls/WhatIf';
import { ParamPanel } from './controls/ParamPanel';
import { TopologyView } from './views/TopologyView';
import { PortInspector } from './views/PortInspector';
import { CdfChart } from './views/charts/CdfChart';
import { BucketChart } from './views/charts/BucketChart';
import { SeriesChart } from './views/charts/SeriesChart';
import { SummaryTable } from './views/SummaryTable';
import { EventLog } from './views/EventLog';
import { ControlPlane } from './views/ControlPlane';
import { Legend } from './views/Legend';
import { applyPalette, type ColorBy, type PaletteName } from './views/palette';
import { displayHashPart, loadDisplay, saveDisplay, type Display } from './views/display';
import { FlowInspector } from './views/FlowInspector';
import { downloadCanvas, downloadCsv, downloadSvg, downloadSvgAsPng } from './export/download';
import { mergeSummaryCsvs } from './export/csv';
import { downloadCsvReadme } from './export/readme';
import { copiedNote, copyText } from './export/clipboard';
import { revealedCount } from './state/run';
import { plural } from './format/format';
import { LiveRoom } from './live/room';
import { LivePanel, lessonLive, useLive } from './live/LivePanel';

/** The bundled lessons (scenarios/lessons). */
const LESSONS: Lesson[] = bundledLessons(SCENARIOS.map((s) => String(s.name)));

/**
 * Settings from the URL (a shared link or a lesson's link) or the default
 * scenario. `pending`: the address brings a file (`#src=`, a lesson link)
 * that the import bar opens; the default runs only if it is refused.
 */
function initialSettings(): { settings: Settings; notice: string | null; lesson: Lesson | null; pending?: boolean } {
  if (/(?:^#|&)(src|lessonz)=/.test(window.location.hash)) {
    const s = scenarioNamed(DEFAULT_SCENARIO)!;
    return { settings: { scenario: s, protocols: [s.protocol ?? DEFAULT_PROTOCOL] }, notice: null, lesson: null, pending: true };
  }
  const name = lessonFromHash(window.location.hash);
  if (name) {
    const l = LESSONS.find((x) => x.name === name);
    if (l) return { settings: lessonSettings(l, SCENARIOS), notice: null, lesson: l };
    const s = scenarioNamed(DEFAULT_SCENARIO)!;
    return { settings: { scenario: s, protocols: [s.protocol ?? DEFAULT_PROTOCOL] }, notice: `no lesson named "${name}"; loading the default scenario instead`, lesson: null };
  }
  const d = decodeSettings(window.location.hash);
  if (d && !('error' in d)) return { settings: d, notice: null, lesson: null };
  const s = scenarioNamed(DEFAULT_SCENARIO)!;
  return { settings: { scenario: s, protocols: [s.protocol ?? DEFAULT_PROTOCOL] }, notice: d && 'error' in d ? d.error : null, lesson: null };
}

/** The browser's local storage, or null where it is refused. */
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** One sentence for screen readers when every run has finished: each run's mean slowdown and flows completed. */
export function finishedText(runs: { protocol: string; summary: { all: { mean_slowdown: number }; completed: number; flows: number } | null }[]): string {
  if (runs.length === 0 || runs.some((r) => !r.summary)) return '';
  return 'Finished. ' + runs.map((r) => `${r.protocol}: mean slowdown ${r.summary!.all.mean_slowdown.toFixed(2)}, ${r.summary!.completed} of ${plural(r.summary!.flows, 'flow')} completed.`).join(' ');
}

/** The whole page. */
export function App() {
  const [{ settings: first, notice, lesson: firstLesson, pending }] = useState(initialSettings);
  const [lesson, setLesson] = useState<Lesson | null>(firstLesson);
  const conductor = useMemo(() => new Conductor(first), [first]);
  const s = useConductorState(conductor);
  // A live class (live/): the room follows the lesson on screen; a student's page is shown the instructor's.
  const lessonNow = useRef(lesson);
  lessonNow.current = lesson;
  const live = useMemo(() => new LiveRoom(conductor, { showLesson: (n) => setLesson(LESSONS.find((l) => l.name === n) ?? null), lessonName: () => lessonNow.current?.name ?? null }), [conductor]);
  useEffect(() => () => live.dispose(), [live]);
  const liveView = useLive(live);
  useEffect(() => live.noteLesson(lesson?.name ?? null), [live, lesson]);
  const [colorBy, setColorBy] = useState<ColorBy>('flow');
  const [display, setDisplay] = useState<Display>(() => {
    const d = loadDisplay(window.location.hash, storage());
    applyPalette(d.palette);
    return d;
  });
  const choosePalette = (palette: PaletteName) => {
    const d = { ...display, palette };
    applyPalette(palette);
    saveDisplay(d, storage());
    setDisplay(d);
  };
  // Settings start collapsed: the network is what a class sees first.
  const [showParams, setShowParams] = useState(false);
  // The import bar's file opener, for the menu's file picker.
  const openFile = useRef<((f: File) => void) | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const [shareNote, setShareNote] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [mode, setMode] = useState<ViewMode>(() => viewModeFromHash(window.location.hash));
  // The networks fill the screen below the toolbar and controls: their top, in page px, as a CSS variable (--stage-top).
  const appRef = useRef<HTMLDivElement>(null);
  const chromeRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const chrome = chromeRef.current;
    const app = appRef.current;
    if (!chrome || !app) return;
    const place = () => {
      const v = `${Math.round(chrome.getBoundingClientRect().bottom + window.scrollY)}px`;
      // Only a change restyles the page (the status line changes size while a run plays).
      if (app.style.getPropertyValue('--stage-top') !== v) app.style.setProperty('--stage-top', v);
    };
    place();
    const ro = new ResizeObserver(place);
    ro.observe(chrome);
    window.addEventListener('resize', place);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', place);
    };
  }, [mode.kind]);
  const [embedPreset, setEmbedPreset] = useState<EmbedPreset>('medium');
  const [embedText, setEmbedText] = useState<string | null>(null);
  /** Enters or leaves presentation mode; the address says which. */
  const present = useCallback((on: boolean, panel: PresentPanel = 'network') => {
    const h = on ? withViewMode(window.location.hash, panel === 'cdf' ? 'present=cdf' : 'present') : withoutViewMode(window.location.hash);
    history.replaceState(null, '', h || window.location.pathname);
    setMode(on ? { kind: 'present', panel } : { kind: 'normal' });
  }, []);
  // The key p enters and leaves presentation mode (not while typing, not in an embed).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.ctrlKey || e.metaKey || e.altKey || e.key !== 'p' || mode.kind === 'embed') return;
      e.preventDefault();
      present(mode.kind !== 'present');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode, present]);

  useEffect(() => {
    if (!pending) conductor.load(first);
    return () => conductor.dispose();
  }, [conductor, first, pending]);
  // A page in the background lets its workers rest (no exploring ahead).
  useEffect(() => {
    const seen = () => conductor.setPageHidden(document.visibilityState === 'hidden');
    seen();
    document.addEventListener('visibilitychange', seen);
    return () => document.removeEventListener('visibilitychange', seen);
  }, [conductor]);

  const apply = useCallback(
    (next: Settings) => {
      history.replaceState(null, '', encodeSettings(next));
      conductor.load(next);
    },
    [conductor],
  );
  const lessonModified = useMemo(() => lesson !== null && JSON.stringify(lessonSettings(lesson, SCENARIOS)) !== JSON.stringify(s.settings), [lesson, s.settings]);
  // A what-if branch opened beside a lesson leaves the lesson's runs as they were (the link above still carries it).
  const lessonRunsModified = useMemo(() => lesson !== null && lessonRunsChanged(lesson, s.settings, SCENARIOS), [lesson, s.settings]);
  // An imported, shared or previewed lesson is listed after the bundled ones.
  const lessons = lesson && !LESSONS.includes(lesson) ? [...LESSONS, lesson] : LESSONS;
  const chooseLesson = (name: string | null) => {
    const l = lessons.find((x) => x.name === name) ?? null;
    setLesson(l);
    if (!l) {
      history.replaceState(null, '', encodeSettings(conductor.getState().settings));
      return;
    }
    if (LESSONS.includes(l)) history.replaceState(null, '', `#lesson=${l.name}`);
    conductor.load(lessonSettings(l, SCENARIOS));
  };
  /** Opens a lesson that is not bundled (a preview, a file, a link); `how` says what the address should hold. */
  const openLesson = (l: Lesson, how: ImportHow) => {
    setLesson(l);
    const settings = lessonSettings(l, SCENARIOS);
    conductor.load(settings);
    if (how === 'file')
      encodeLessonHash(l)
        .then((h) => history.replaceState(null, '', h))
        .catch(() => history.replaceState(null, '', encodeSettings(settings)));
  };
  // A checked file replaces what is on screen (importer.ts); #src= and lesson links stay in the address.
  const accept = (imp: Imported, how: ImportHow) => {
    if (imp.kind === 'lesson') return openLesson(imp.lesson, how);
    setLesson(null);
    if (how === 'file') history.replaceState(null, '', encodeSettings(imp.settings));
    conductor.load(imp.settings);
  };
  const share = async () => {
    const hash = encodeSettings(s.settings) + displayHashPart(display);
    const url = window.location.origin + window.location.pathname + hash;
    history.replaceState(null, '', hash);
    // The address bar holds the link anyway; the note says whether the clipboard does too.
    setShareNote(copiedNote(await copyText(url), 'link', 'it is in the address bar'));
    setTimeout(() => setShareNote(null), 5000);
  };
  const guard = (f: () => void | Promise<void>) => async () => {
    try {
      setExportError(null);
      await f();
    } catch (e) {
      setExportError(e instanceof Error ? e.message : String(e));
    }
  };

  const engineError = s.runs.find((r) => r.error)?.error ?? null;
  const othersRunning = s.runs.some((r) => !FLOW_LEVEL.has(r.protocol) && !r.summary);
  // Flow-level runs are computed at once; while packet-level runs go on, each shows the flows done by the time on screen.
  const shown = s.runs.map((r) => (FLOW_LEVEL.has(r.protocol) && othersRunning ? revealedCount(r, s.displayPs) : -1));
  const shownKey = shown.join(',');
  const runs = useMemo(
    () => s.runs.map((r, i) => (shown[i] >= 0 ? { ...r, flows: r.flows.slice(0, shown[i]), done: shown[i], nowPs: Math.min(r.nowPs, s.displayPs), summary: null } : r)),
    // Recomputed only when a revealed count changes, not on every frame.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [s.runs, shownKey],
  );
  const allDone = s.runs.length > 0 && s.runs.every((r) => r.summary);
  const sc = s.settings.scenario;
  /** What the address should name for the run on screen: a bundled lesson by name, else the settings. */
  const runHash = () => (lesson && LESSONS.includes(lesson) && !lessonModified ? `#lesson=${lesson.name}` : encodeSettings(s.settings)) + displayHashPart(display);
  const pageUrl = window.location.origin + window.location.pathname;
  const copyEmbed = async () => {
    const code = embedCode(pageUrl, runHash(), embedPreset, `dcsim: ${lesson ? lesson.title : String(sc.name)}`);
    setEmbedText(code);
    try {
      await navigator.clipboard?.writeText(code);
    } catch {
      /* the snippet is shown beside the button to copy by hand */
    }
  };
  // The address's file (#src=, a lesson link) is opened by the import bar, kept out of sight in the reduced pages.
  const hiddenImport = pending ? (
    <div hidden>
      <ImportBar current={s.settings} scenarios={SCENARIOS} onAccept={accept} onRefused={() => conductor.getState().runs.length === 0 && conductor.load(first)} />
    </div>
  ) : null;
  const player = { c: conductor, s, runs, lesson, lessons, colorBy };
  if (mode.kind === 'embed')
    return (
      <>
        {hiddenImport}
        <EmbedPlayer {...player} width={mode.width} height={mode.height} fullPageUrl={pageUrl + withoutViewMode(window.location.hash)} />
      </>
    );
  if (mode.kind === 'present')
    return (
      <>
        {hiddenImport}
        <Presentation {...player} panel={mode.panel} onPanel={(panel) => present(true, panel)} onExit={() => present(false)} />
      </>
    );

  const sideOpen = lesson !== null || editing;
  return (
    <div className={`app${sideOpen ? ' with-side' : ''}`} ref={appRef}>
      <div className="chrome" ref={chromeRef}>
      <header className="topbar">
        <h1 className="brand">
          <a href="#" data-testid="home" title="back to the start screen (lessons)">
            dcsim
          </a>
        </h1>
        <div className="narration" data-testid="narration" title={String(sc.description ?? '')}>
          <strong>{String(sc.name)}</strong>
          <span className="narration-desc"> — {String(sc.description ?? '')}</span>
        </div>
        {!lesson && <LessonPanel lessons={lessons} lesson={null} modified={false} onChoose={chooseLesson} c={conductor} s={s} />}
        <div className="topbar-buttons">
          <LivePanel room={live} c={conductor} displayPs={s.displayPs} />
          <button className="btn" data-testid="settings-toggle" aria-expanded={showParams} aria-controls="settings" onClick={() => setShowParams(!showParams)}>
            {showParams ? 'Hide settings' : 'Settings'}
          </button>
          <button className="btn" data-testid="present" onClick={() => present(true)} title="large type, one panel at a time, clicker keys (p)">
            Present
          </button>
          <Menu label="More" testid="menu">
            <label className="menu-item menu-file">
              Open a scenario or lesson file…
              <input
                type="file"
                accept=".json,application/json"
                data-testid="import-file"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  e.target.value = '';
                  if (f) openFile.current?.(f);
                  (e.target.closest('details') as HTMLDetailsElement | null)?.removeAttribute('open');
                }}
              />
            </label>
            <button className="menu-item" data-testid="editor-open" disabled={editing} onClick={() => setEditing(true)}>
              Write a lesson…
            </button>
            <a className="menu-item" href="#gallery" data-testid="gallery-open">
              Paper figures
            </a>
            <a className="menu-item" href="docs/index.html" target="_blank" rel="noopener" data-testid="docs-open">
              Documentation
            </a>
            <a className="menu-item" href="#" data-testid="menu-home">
              Start screen (lessons)
            </a>
          </Menu>
        </div>
      </header>
      {notice && <div className="banner warn">{notice}</div>}
      {s.crashed && (
        <div className="banner error" data-testid="crash">
          {s.crashed}{' '}
          <button data-testid="restart-worker" onClick={() => conductor.restart()}>
            Restart the engine
          </button>
        </div>
      )}
      <ImportBar
        current={s.settings}
        scenarios={SCENARIOS}
        onAccept={accept}
        opener={openFile}
        onRefused={() => {
          // The address's file was refused before anything ran: the default, then.
          if (conductor.getState().runs.length === 0) conductor.load(first);
        }}
      />
      <div className="controls">
        <Transport c={conductor} s={s} />
        <Scrubber c={conductor} s={s} steps={lesson?.steps} />
        <div className="controls-row">
          <EventNav c={conductor} s={s} />
          <div className="status" data-testid="status">
            {s.status}
            {s.fullSpeedWallMs !== null && allDone && (
              <span data-testid="full-speed-wall" data-value={String(s.fullSpeedWallMs)}>
                {' '}
                · full-speed wall time {(s.fullSpeedWallMs / 1000).toFixed(2)} s
              </span>
            )}
          </div>
        </div>
      </div>
      </div>
      <div className="layout">
        {showParams && (
          <aside className="side" id="settings" aria-label="settings">
            <ParamPanel key={JSON.stringify(s.settings)} settings={s.settings} onApply={apply} engineError={engineError} />
          </aside>
        )}
        <main>
          <div className={`networks n${s.runs.length}`}>
            {runs.map((r, i) => {
              const ports = portsOf(s.settings, r.engineProtocol);
              const profile = dctcpProfileOf(s.settings.scenario, r.engineProtocol);
              return (
                <section key={r.protocol} className="network" data-testid={`run-${r.protocol}`}>
                  <h3>
                    {r.protocol}{' '}
                    {profile && <small data-testid={`profile-of-${r.protocol}`}>({profile} profile) </small>}
                    <small data-testid={`progress-${r.protocol}`}>
                      {r.done}/{plural(r.total, 'flow')} · {plural(r.events, 'event')} · last event at t = {fmtTime(r.nowPs)}
                      {r.summary && !r.running ? ' · finished' : ''}
                    </small>
                  </h3>
                  {r.error && <em className="error">{r.error}</em>}
                  {FLOW_LEVEL.has(r.engineProtocol) ? (
                    <p className="note">
                      {descriptorOf(r.engineProtocol)?.summary ?? r.engineProtocol}.{' '}
                      It is flow-level (no packets to draw): it is computed at once, and its flows appear in the charts as the shared clock passes their
                      completion times.
                    </p>
                  ) : (
                    <TopologyView
                      run={r}
                      colorBy={colorBy}
                      selectedPort={s.inspectPort}
                      onSelectPort={(p: number | null) => conductor.inspect(p)}
                      onSelectFlow={(f: number) => conductor.selectFlow(f)}
                      nowPs={s.displayPs}
                      clock={conductor.getClock}
                      liveRun={() => conductor.getLiveRun(r.protocol)}
                      bufferBytes={ports.bufferBytes}
                      ecnThresholdBytes={ports.ecnThresholdBytes}
                    />
                  )}
                  {s.inspectPort !== null && !FLOW_LEVEL.has(r.engineProtocol) && (
                    <PortInspector run={r} port={s.inspectPort} {...ports} onClose={() => conductor.inspect(null)} />
                  )}
                  {s.selectedFlow !== null && <FlowInspector run={r} flow={s.selectedFlow} onClose={() => conductor.selectFlow(null)} />}
                  <ControlPlane run={r} topology={r.topology} nowPs={s.mode === 'full' ? r.nowPs : s.displayPs} onSelectFlow={(f: number) => conductor.selectFlow(f)} />
                  <EventLog run={r} topology={r.topology} nowPs={s.mode === 'full' ? undefined : s.displayPs} />
                  <div className="exports">
                    <button
                      data-testid={`export-flows-${i}`}
                      disabled={!r.summary}
                      onClick={guard(() => downloadCsv(exportName(sc, r.protocol, 'flows', 'csv'), r.flowsCsv))}
                      title={r.summary ? 'per-flow CSV (the columns of dcsim run)' : 'available when the run has finished'}
                    >
                      flows.csv
                    </button>
                    <button data-testid={`export-summary-${i}`} disabled={!r.summary} onClick={guard(() => downloadCsv(exportName(sc, r.protocol, 'summary', 'csv'), r.summaryCsv))}>
                      summary.csv
                    </button>
                    <button
                      disabled={FLOW_LEVEL.has(r.engineProtocol)}
                      onClick={guard(async () => {
                        const c = document.querySelector(`[data-testid="run-${r.protocol}"] canvas`) as HTMLCanvasElement | null;
                        if (!c) throw new Error('no network drawn');
                        await downloadCanvas(c, exportName(sc, r.protocol, 'network', 'png'));
                      })}
                    >
                      network.png
                    </button>
                  </div>
                </section>
              );
            })}
          </div>
          <WhatIf c={conductor} s={s} />
          <div className="view-options">
            <label>
              colour packets by{' '}
              <select value={colorBy} onChange={(e) => setColorBy(e.target.value as ColorBy)} data-testid="color-by">
                <option value="flow">flow</option>
                <option value="kind">kind</option>
                <option value="priority">priority</option>
              </select>
            </label>
            <label>
              colours{' '}
              <select value={display.palette} onChange={(e) => choosePalette(e.target.value as PaletteName)} data-testid="palette">
                <option value="default">default</option>
                <option value="okabe-ito">colour-blind safe (Okabe-Ito)</option>
              </select>
            </label>
            <Legend key={display.palette} colorBy={colorBy} protocols={s.settings.protocols} />
          </div>
          <section className="charts" key={display.palette} aria-label="charts">
            <CdfChart runs={runs} metric="fct" id="chart-fct-cdf" playing={s.mode === 'playing'} />
            <CdfChart runs={runs} metric="slowdown" id="chart-slowdown-cdf" playing={s.mode === 'playing'} />
            <BucketChart runs={runs} id="chart-buckets" playing={s.mode === 'playing'} />
            <SeriesChart runs={runs} metric="queuedBytes" id="chart-queued" playing={s.mode === 'playing'} />
            <SeriesChart runs={runs} metric="goodputGbps" id="chart-goodput" playing={s.mode === 'playing'} />
          </section>
          <div className="exports">
            {['chart-fct-cdf', 'chart-slowdown-cdf', 'chart-buckets', 'chart-queued', 'chart-goodput'].map((id) => (
              <span key={id} className="chart-export">
                {id.replace('chart-', '')}:{' '}
                <button onClick={guard(() => downloadSvg(id, exportName(sc, s.settings.protocols.join('+'), id, 'svg')))}>SVG</button>
                <button onClick={guard(() => downloadSvgAsPng(id, exportName(sc, s.settings.protocols.join('+'), id, 'png')))}>PNG</button>
              </span>
            ))}
          </div>
          <SummaryTable key={display.palette} runs={runs} />
          <p className="sr-only" aria-live="polite" data-testid="announce">
            {finishedText(s.runs)}
          </p>
          <div className="exports">
            {!allDone && (
              <button data-testid="finish-all" onClick={() => conductor.finishAll()}>
                Run all to the end
              </button>
            )}
            <button
              data-testid="export-all-summaries"
              disabled={!allDone}
              onClick={guard(() => downloadCsv(exportName(sc, s.settings.protocols.join('+'), 'summaries', 'csv'), mergeSummaryCsvs(s.runs.map((r) => r.summaryCsv))))}
            >
              all summaries.csv
            </button>
            <button data-testid="export-readme" onClick={guard(downloadCsvReadme)} title="what every column of the CSV files means, with its unit (docs: CSV columns)">
              CSV columns README.md
            </button>
            <button data-testid="share" onClick={share} title="put a link that reproduces this run exactly in the address bar and the clipboard">
              Share link
            </button>
            <span role="status" className="note" data-testid="share-note">
              {shareNote}
            </span>
            <label>
              embed size{' '}
              <select data-testid="embed-size" value={embedPreset} onChange={(e) => setEmbedPreset(e.target.value as EmbedPreset)}>
                <option value="small">small</option>
                <option value="medium">medium</option>
                <option value="large">large</option>
              </select>
            </label>
            <button data-testid="embed-copy" onClick={guard(copyEmbed)} title="an <iframe> snippet showing this run (or lesson) as a minimal player">
              Copy embed code
            </button>
            {embedText && <input className="embed-code" data-testid="embed-code" aria-label="embed code" readOnly value={embedText} onFocus={(e) => e.target.select()} />}
            {exportError && <em className="error">{exportError}</em>}
          </div>
          <SweepPanel settings={s.settings} />
          <p className="help">
            Keys:{' '}
            {Object.entries(SHORTCUTS)
              .map(([k, v]) => `${k === ' ' ? 'space' : k === 'ArrowRight' ? '→' : k === 'ArrowLeft' ? '←' : k} ${v}`)
              .join(' · ')}
            . Click a port to inspect its buffer.{' '}
            <a href="docs/guide/app.html" target="_blank" rel="noopener">How to use the app</a> ·{' '}
            <a href="docs/guide/instructors.html" target="_blank" rel="noopener">Instructor's guide</a>
          </p>
        </main>
        {sideOpen && (
          <aside className="lesson-side" aria-label="lesson">
            {lesson && <LessonPanel lessons={lessons} lesson={lesson} modified={lessonRunsModified} onChoose={chooseLesson} c={conductor} s={s} live={lessonLive(live, liveView)} />}
            {editing && <LessonEditor c={conductor} s={s} scenarios={SCENARIOS} open={lesson} onPreview={(l) => openLesson(l, 'preview')} onClose={() => setEditing(false)} />}
          </aside>
        )}
      </div>
    </div>
  );
}
