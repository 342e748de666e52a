// The two reduced pages: the embedded player (`#embed`: the network, the
// play controls, the scrubber and the lesson's narration, nothing else, for
// an <iframe>) and presentation mode (`#present` or the key p: large type,
// high contrast, one panel at a time, the network or the slowdown CDF, and
// a clicker's keys for the next and previous step). In presentation mode
// the networks fill the stage and a click on a port opens its inspector
// over the stage, as in the full page.

import { useEffect, useState } from 'react';
import type { Conductor, ConductorState } from '../state/conductor';
import type { RunState } from '../state/run';
import { FLOW_LEVEL, portsOf } from '../state/settings';
import type { Lesson } from '../lessons/lesson';
import { LessonPanel } from '../lessons/LessonPanel';
import { Transport } from '../controls/Transport';
import { Scrubber } from '../controls/Scrubber';
import { TopologyView } from '../views/TopologyView';
import { PortInspector } from '../views/PortInspector';
import { CdfChart } from '../views/charts/CdfChart';
import { plural } from '../format/format';
import type { ColorBy } from '../views/palette';
import type { PresentPanel } from './mode';

/** What both reduced pages show. */
export interface PlayerProps {
  c: Conductor;
  s: ConductorState;
  /** The runs as the views draw them (flow-level runs revealed with the clock). */
  runs: RunState[];
  lesson: Lesson | null;
  lessons: Lesson[];
  colorBy: ColorBy;
}

/**
 * The packet-level networks side by side, each `height` px tall (or as tall
 * as their cell when none is given); flow-level runs get a line of text.
 * `onPort` is told of a click on a port (with the run's protocol).
 */
function Networks({ c, s, runs, colorBy, height, onPort }: { c: Conductor; s: ConductorState; runs: RunState[]; colorBy: ColorBy; height?: number; onPort?: (protocol: string, port: number | null) => void }) {
  return (
    <div className={`player-networks n${Math.min(runs.length, 4)}`}>
      {runs.map((r) => {
        const ports = portsOf(s.settings, r.engineProtocol);
        return (
        <section key={r.protocol} className="player-network" data-testid={`run-${r.protocol}`} aria-label={`${r.protocol} run`}>
          <h2>{r.protocol}</h2>
          {FLOW_LEVEL.has(r.engineProtocol) ? (
            <p className="note">{r.protocol} is flow-level: no packets to draw ({r.done} of {plural(r.total, 'flow')} done by now).</p>
          ) : (
            <TopologyView
              run={r}
              colorBy={colorBy}
              selectedPort={onPort ? s.inspectPort : null}
              onSelectPort={(p) => onPort?.(r.protocol, p)}
              onSelectFlow={() => undefined}
              nowPs={s.displayPs}
              clock={c.getClock}
              liveRun={() => c.getLiveRun(r.protocol)}
              height={height}
              bufferBytes={ports.bufferBytes}
              ecnThresholdBytes={ports.ecnThresholdBytes}
            />
          )}
        </section>
        );
      })}
    </div>
  );
}

/** The minimal player for an <iframe>: network, play/pause/step, scrubber, the lesson's narration; sized by the embed preset. */
export function EmbedPlayer({ c, s, runs, lesson, lessons, colorBy, width, height, fullPageUrl }: PlayerProps & { width: number; height: number; fullPageUrl: string }) {
  const perRow = runs.length > 1 ? 2 : 1;
  const rows = Math.ceil(runs.length / perRow);
  // What is left for the networks once the controls, the scrubber and the narration have their room.
  const chrome = 100 + (lesson ? Math.min(200, height * 0.3) : 0) + rows * 28;
  const netH = Math.max(90, Math.floor((height - chrome) / rows));
  return (
    <main className={`embed ${width < 600 ? 'embed-small' : ''}`} data-testid="embed" data-width={width} data-height={height}>
      <h1 className="sr-only">dcsim: {String(s.settings.scenario.name)}</h1>
      <Networks c={c} s={s} runs={runs} colorBy={colorBy} height={netH} />
      <Transport c={c} s={s} compact />
      <Scrubber c={c} s={s} />
      {lesson && (
        <div className="embed-lesson" style={{ maxHeight: Math.min(200, height * 0.3) }}>
          <LessonPanel lessons={lessons} lesson={lesson} modified={false} onChoose={() => undefined} c={c} s={s} compact />
        </div>
      )}
      <a className="embed-open" href={fullPageUrl} target="_blank" rel="noopener noreferrer">
        open in dcsim ↗
      </a>
    </main>
  );
}

/**
 * Presentation mode: the title, one panel (the networks or the slowdown
 * CDF), the narration, and the controls, in large type. Keys: → or
 * PageDown the next step (a lesson's, else one RTT), ← or PageUp back,
 * space play/pause, v the other panel, Escape (or p) leaves.
 */
export function Presentation({ c, s, runs, lesson, lessons, colorBy, panel, onPanel, onExit }: PlayerProps & { panel: PresentPanel; onPanel: (p: PresentPanel) => void; onExit: () => void }) {
  // The run whose port the inspector shows (the conductor holds the port).
  const [inspected, setInspected] = useState<string | null>(null);
  const inspectRun = inspected !== null && s.inspectPort !== null ? runs.find((r) => r.protocol === inspected && !FLOW_LEVEL.has(r.engineProtocol)) : undefined;
  const closeInspector = () => {
    setInspected(null);
    c.inspect(null);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const st = c.getState();
      const step = e.key === 'ArrowRight' || e.key === 'PageDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'PageUp' ? -1 : 0;
      if (step !== 0) {
        // With a lesson open the lesson bar takes these keys (its steps).
        if (lesson) return;
        if (st.loaded && !st.seeking) step > 0 ? c.stepRtt() : c.stepBackRtt();
      } else if (e.key === ' ') {
        st.mode === 'playing' || st.mode === 'full' ? c.pause() : c.play();
      } else if (e.key === 'v') {
        onPanel(panel === 'network' ? 'cdf' : 'network');
      } else if (e.key === 'Escape') {
        // Escape closes the port inspector first, then leaves.
        if (c.getState().inspectPort !== null) {
          setInspected(null);
          c.inspect(null);
        } else onExit();
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [c, lesson, panel, onPanel, onExit]);
  const packetRuns = runs.filter((r) => !FLOW_LEVEL.has(r.engineProtocol));
  return (
    <div className="present" data-testid="present" data-panel={panel}>
      <header className="present-head">
        <h1>{lesson ? lesson.title : String(s.settings.scenario.name)}</h1>
        <div className="present-buttons" role="group" aria-label="presentation">
          <button data-testid="present-network" aria-pressed={panel === 'network'} onClick={() => onPanel('network')} title="the animated network (v switches)">
            Network
          </button>
          <button data-testid="present-cdf" aria-pressed={panel === 'cdf'} onClick={() => onPanel('cdf')} title="the slowdown CDF (v switches)">
            CDF
          </button>
          <button data-testid="present-exit" onClick={onExit} title="leave presentation mode (Escape or p)">
            Exit
          </button>
        </div>
      </header>
      <div className="present-body">
      <main className="present-stage">
        {panel === 'network' ? (
          <>
            <Networks
              c={c}
              s={s}
              runs={packetRuns.length ? packetRuns : runs}
              colorBy={colorBy}
              onPort={(protocol, port) => {
                setInspected(port === null ? null : protocol);
                c.inspect(port);
              }}
            />
            {inspectRun && s.inspectPort !== null && (
              <div className="present-inspector" role="dialog" aria-label="port inspector" data-testid="present-inspector">
                <PortInspector run={inspectRun} port={s.inspectPort} {...portsOf(s.settings, inspectRun.engineProtocol)} onClose={closeInspector} />
              </div>
            )}
          </>
        ) : (
          <div className="present-chart">
            <CdfChart runs={runs} metric="slowdown" id="chart-present-cdf" />
          </div>
        )}
      </main>
      {lesson && (
        <div className="present-lesson">
          <LessonPanel lessons={lessons} lesson={lesson} modified={false} onChoose={() => undefined} c={c} s={s} compact clicker />
        </div>
      )}
      </div>
      <Transport c={c} s={s} compact keys={false} />
    </div>
  );
}
