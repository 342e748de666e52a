// The first screen of the app when the address names nothing: one card per
// bundled lesson (title, one sentence, protocols, a drawing of its network)
// and "Explore freely", which opens the default scenario. Each card is a
// link to the address it opens, so a card can also be copied or opened in a
// new tab.

import { SCENARIOS, DEFAULT_SCENARIO, scenarioNamed } from '../scenarios';
import { bundledLessons, type Lesson } from '../lessons/lesson';
import { runColor } from '../views/palette';
import { plural } from '../format/format';
import { EXPLORE_HASH, lessonBlurb, topologySketch } from './start';
import { DEFAULT_PROTOCOL, type ScenarioJson } from '../state/settings';

const LESSONS: Lesson[] = bundledLessons(SCENARIOS.map((s) => String(s.name)));

/** The scenario a lesson runs on (a bundled one by name, or its own). */
function scenarioOf(l: Lesson): ScenarioJson | undefined {
  return typeof l.scenario === 'string' ? scenarioNamed(l.scenario) : l.scenario;
}

/**
 * A small drawing of a network (from its topology spec), with a packet in
 * each protocol's colour on a few links: the card's thumbnail. Decorative:
 * the card's text says what it shows.
 */
export function NetworkThumb({ topology, protocols }: { topology: ScenarioJson | undefined; protocols: string[] }) {
  const W = 240;
  const H = 120;
  const sk = topologySketch(topology, 16);
  const px = (x: number) => 10 + x * (W - 20);
  const py = (y: number) => y * H;
  const hostR = Math.max(2.5, Math.min(6, (W - 20) / (sk.nodes.filter((n) => n.kind === 'host').length || 1) / 3));
  // One packet per protocol on every third link, part of the way along, in the protocol's run colour.
  const packets = sk.links
    .map(([a, b], i) => ({ a, b, i }))
    .filter(({ i }) => i % 3 === 1)
    .map(({ a, b, i }) => {
      const f = 0.3 + ((i * 37) % 40) / 100;
      return { x: px(sk.nodes[a].x + (sk.nodes[b].x - sk.nodes[a].x) * f), y: py(sk.nodes[a].y + (sk.nodes[b].y - sk.nodes[a].y) * f), c: runColor(protocols[i % protocols.length] ?? DEFAULT_PROTOCOL, i % protocols.length) };
    });
  return (
    <svg className="thumb" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false">
      <rect width={W} height={H} rx={8} className="thumb-back" />
      {sk.links.map(([a, b], i) => (
        <line key={i} x1={px(sk.nodes[a].x)} y1={py(sk.nodes[a].y)} x2={px(sk.nodes[b].x)} y2={py(sk.nodes[b].y)} className="thumb-link" />
      ))}
      {sk.nodes.map((n, i) =>
        n.kind === 'switch' ? (
          <rect key={i} x={px(n.x) - 13} y={py(n.y) - 6} width={26} height={12} rx={3} className="thumb-switch" />
        ) : (
          <circle key={i} cx={px(n.x)} cy={py(n.y)} r={hostR} className="thumb-host" />
        ),
      )}
      {packets.map((p, i) => (
        <circle key={`p${i}`} cx={p.x} cy={p.y} r={4} fill={p.c} stroke="#fff" strokeWidth={1} />
      ))}
      {sk.more > 0 && (
        <text x={W - 8} y={H - 4} textAnchor="end" className="thumb-more">
          +{sk.more} hosts
        </text>
      )}
    </svg>
  );
}

/** The start screen: lesson cards, "Explore freely", and the other ways in (paper figures, docs). */
export function StartScreen() {
  const def = scenarioNamed(DEFAULT_SCENARIO);
  return (
    <div className="start" data-testid="start">
      <header className="start-head">
        <h1>dcsim</h1>
        <p className="start-lead">Watch datacenter transport protocols move packets, side by side, and ask your class which one wins.</p>
      </header>
      <main>
        <h2 className="start-section">Lessons</h2>
        <ul className="cards" aria-label="lessons">
          {LESSONS.map((l) => {
            const sc = scenarioOf(l);
            return (
              <li key={l.name}>
                <a className="card" href={`#lesson=${l.name}`} data-testid={`start-lesson-${l.name}`}>
                  <NetworkThumb topology={sc?.topology} protocols={l.protocols} />
                  <span className="card-title">{l.title}</span>
                  <span className="card-text">{lessonBlurb(l.steps[0]?.text ?? '')}</span>
                  <span className="card-meta">
                    <span className="chips">
                      {l.protocols.map((p, i) => (
                        <span key={p} className="chip" style={{ borderColor: runColor(p, i) }}>
                          {p}
                        </span>
                      ))}
                    </span>
                    <span className="card-steps">{plural(l.steps.length, 'step')}</span>
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
        <h2 className="start-section">Or on your own</h2>
        <ul className="cards" aria-label="other ways in">
          <li>
            <a className="card card-explore" href={EXPLORE_HASH} data-testid="start-explore">
              <NetworkThumb topology={def?.topology} protocols={[String(def?.protocol ?? DEFAULT_PROTOCOL)]} />
              <span className="card-title">Explore freely</span>
              <span className="card-text">
                {lessonBlurb(String(def?.description ?? ''), 110)} Change anything in Settings, or open a scenario or lesson file from the menu.
              </span>
            </a>
          </li>
          <li>
            <a className="card card-small" href="#gallery" data-testid="start-gallery">
              <span className="card-title">The papers' claims and figures</span>
              <span className="card-text">How closely the simulator reproduces each paper, with figures you can rerun in the browser.</span>
            </a>
          </li>
          <li>
            <a className="card card-small" href="docs/guide/instructors.html" target="_blank" rel="noopener">
              <span className="card-title">Instructor's guide</span>
              <span className="card-text">Planning a class with dcsim: lessons, presentation mode, predictions and writing your own lessons (opens in a new tab).</span>
            </a>
          </li>
        </ul>
      </main>
    </div>
  );
}
