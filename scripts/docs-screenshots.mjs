#!/usr/bin/env node
// Takes the three screenshots of the README's tour and the docs from the
// production build (run `npm run build` first), in Debian's headless
// Chromium driven by playwright-core, as tests/e2e/app.e2e.mjs does:
//   docs/images/app-network.png  the default scenario mid-run, packets on the wires (1280x720, a projector)
//   docs/images/app-charts.png   pFabric and DCTCP run to the end: CDFs and summary
//   docs/images/lesson.png       a lesson step with the class's prediction revealed (1280x720)
// Usage: node scripts/docs-screenshots.mjs   (PORT, CHROMIUM override the defaults)
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.PORT ?? 4181);
const BASE = `http://127.0.0.1:${PORT}/`;
const out = join(root, 'docs/images');
mkdirSync(out, { recursive: true });
if (!existsSync(join(root, 'dist/index.html'))) throw new Error('dist/ is missing: run `npm run build` first');

const ready = (p) => p.waitForFunction(() => /ready/.test(document.querySelector('[data-testid="status"]')?.textContent ?? ''), null, { timeout: 60_000 });
const finished = (p, n) =>
  p.waitForFunction((n) => document.querySelectorAll('[data-testid$="-mean_slowdown"][data-value]').length >= n && /finished/.test(document.body.innerText), n, { timeout: 300_000, polling: 250 });

/** Runs pFabric and DCTCP on 300 flows to the end and takes the charts and the summary. */
async function runCharts(page) {
  await page.getByTestId('settings-toggle').click();
  await page.getByTestId('flows').fill('300');
  await page.getByTestId('protocol-dctcp').check();
  await page.getByTestId('apply').click();
  await ready(page);
  await page.getByTestId('full-speed').click();
  await finished(page, 2);
  await page.waitForTimeout(500);
  // From the charts down to the end of the summary table, in page coordinates.
  const [left, top, right, bottom] = await page.evaluate(() => {
    const a = document.querySelector('section.charts').getBoundingClientRect();
    const t = document.querySelector('[data-testid="summary-table"]').getBoundingClientRect();
    return [a.left + window.scrollX, a.top + window.scrollY, Math.max(a.right, t.right) + window.scrollX, t.bottom + window.scrollY];
  });
  await page.screenshot({ path: join(out, 'app-charts.png'), fullPage: true, clip: { x: left - 8, y: top - 8, width: right - left + 16, height: Math.min(bottom - top + 16, 1200) } });
}

const server = spawn(join(root, 'node_modules/.bin/vite'), ['preview', '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'], { cwd: root, stdio: 'ignore' });
let browser;
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(BASE)).ok) break;
    } catch {}
    if (i > 100) throw new Error('vite preview did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const wide = await browser.newContext({ viewport: { width: 1440, height: 900 } });

  // 1. The default scenario ("Explore freely") in the busy middle of the run, playing slowly.
  const page = await context.newPage();
  await page.goto(BASE + '#explore');
  await ready(page);
  await page.getByTestId('seek-input').fill('30000');
  await page.getByTestId('seek').click();
  await page.waitForFunction(() => /at t = 30\.000 ms/.test(document.querySelector('[data-testid="status"]')?.textContent ?? ''), null, { timeout: 120_000 });
  await page.evaluate(() => {
    const s = document.querySelector('[data-testid="speed"]');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(s, String(Math.log10(2e7)));
    s.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.getByTestId('play').click();
  await page.waitForTimeout(2500);
  await page.getByTestId('pause').click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, 'app-network.png') });

  // 2. pFabric and DCTCP side by side, run to the end: the charts and the summary.
  await page.close();
  const charts = await wide.newPage();
  await charts.goto(BASE + '#explore');
  await ready(charts);
  await runCharts(charts);

  // 3. A lesson at its first question, the class's pick revealed.
  const lesson = await context.newPage();
  await lesson.goto(BASE + '#lesson=pfabric-vs-dctcp');
  await ready(lesson);
  await lesson.getByTestId('lesson-next').click();
  await lesson.waitForFunction(() => /went to t = 1\.000 ms/.test(document.querySelector('[data-testid="status"]')?.textContent ?? ''), null, { timeout: 60_000 });
  await lesson.getByTestId('lesson-next').click();
  await lesson.waitForFunction(() => /went to t = 2\.000 ms/.test(document.querySelector('[data-testid="status"]')?.textContent ?? ''), null, { timeout: 60_000 });
  await lesson.getByTestId('lesson-guess-pfabric').click();
  await lesson.getByTestId('lesson-reveal').click();
  await lesson.waitForSelector('[data-testid="lesson-answer"]', { timeout: 300_000 });
  // The answer brought into the lesson panel's view, the page at its top.
  await lesson.getByTestId('lesson-answer').evaluate((e) => e.scrollIntoView({ block: 'end' }));
  await lesson.evaluate(() => window.scrollTo(0, 0));
  await lesson.waitForTimeout(500);
  await lesson.screenshot({ path: join(out, 'lesson.png') });
  console.log('docs-screenshots: docs/images/app-network.png, app-charts.png, lesson.png');
} finally {
  await browser?.close();
  server.kill();
}
