// End-to-end checks of a live class (issue 38) in real Chromium: one
// `dcsim serve` serves the built app and the rooms, as on a department
// server; an instructor's page and student pages (one a 390x844 phone)
// join by code, follow the instructor's run (time and fingerprint), catch
// up after joining late or reloading, vote, and a student's control
// message is refused by the server. Imported by app.e2e.mjs; its checks'
// names start with "live class" (E2E_ONLY=live runs only them).

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

/** Starts `dcsim serve` on a free loopback port with the built app; resolves with its base URL and process. */
async function startServer(dcsim, root) {
  const proc = spawn(dcsim, ['serve', '--port', '0', '--bind', '127.0.0.1', '--dist', join(root, 'dist')], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: proc.stdout });
    rl.once('line', resolve);
    proc.once('exit', (c) => reject(new Error(`dcsim serve exited (${c})`)));
    setTimeout(() => reject(new Error('dcsim serve did not start in 10 s')), 10_000);
  });
  const port = /127\.0\.0\.1:(\d+)/.exec(line)?.[1];
  if (!port) throw new Error(`dcsim serve printed no port: ${line}`);
  return { base: `http://127.0.0.1:${port}/`, proc };
}

/** What a page's live panel shows: its time, fingerprint and whether it matches the instructor's. */
async function liveState(p) {
  return p.evaluate(() => {
    const q = (id) => document.querySelector(`[data-testid="${id}"]`);
    return {
      time: q('live-time')?.textContent ?? '',
      fingerprint: q('live-fingerprint')?.textContent ?? '',
      sync: q('live-sync')?.getAttribute('data-value') ?? '',
      clock: q('clock')?.textContent ?? '',
    };
  });
}

/** Waits until the instructor's page is idle (its fingerprint shown) and every student page shows the same time and fingerprint. */
async function waitInStep(assert, ins, students, what, timeoutMs = 90_000) {
  const t0 = Date.now();
  let last = null;
  while (Date.now() - t0 < timeoutMs) {
    const i = await liveState(ins);
    const s = await Promise.all(students.map(liveState));
    last = { instructor: i, students: s };
    if (i.fingerprint !== '…' && s.every((x) => x.sync === 'same' && x.fingerprint === i.fingerprint && x.time === i.time)) return i;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert(false, `${what}: the students are not in step with the instructor: ${JSON.stringify(last)}`);
}

async function waitStatus(p, re, timeout = 60_000) {
  await p.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="status"]')?.textContent ?? ''), re.source, { timeout });
}

/**
 * Registers the live-class checks. `ctx`: the runner's `check` and
 * `assert`, the browser, the repository root, the dcsim binary, the
 * screenshot folder and `watch` (console errors fail the run).
 */
export async function liveChecks({ check, assert, browser, root, dcsim, out, watch, only }) {
  if (only && !only.test('live class')) return;
  let server;
  const contexts = [];
  const newPage = async (label, viewport = { width: 1280, height: 800 }) => {
    const ctx = await browser.newContext({ viewport, acceptDownloads: true });
    contexts.push(ctx);
    const p = await ctx.newPage();
    watch(p, label);
    return p;
  };
  let ins, students = [], code = null;
  try {
    server = await startServer(dcsim, root);
    const BASE = server.base;

    await check('live class: an instructor and three students (one at 390x844) join by code; the code and QR are large on the projector', async () => {
      ins = await newPage('live-instructor');
      await ins.goto(BASE + '#lesson=pfabric-vs-dctcp');
      await waitStatus(ins, /ready/);
      await ins.locator('[data-testid="live"] summary').click();
      await ins.getByTestId('live-start').click();
      await ins.waitForFunction(() => /^[A-Z0-9]{6}$/.test(document.querySelector('[data-testid="live-room-code"]')?.textContent ?? ''), null, { timeout: 10_000 });
      code = await ins.getByTestId('live-room-code').innerText();
      // Two students type the code (one of them on a phone); one follows the join link.
      for (const [i, vp] of [[0, undefined], [1, undefined], [2, { width: 390, height: 844 }]]) {
        const p = await newPage(`live-student-${i}`, vp);
        if (i === 1) await p.goto(BASE + `#join=${code}`);
        else {
          await p.goto(BASE + '#explore');
          await p.locator('[data-testid="live"] summary').click();
          await p.getByTestId('live-code').fill(code.toLowerCase());
          await p.getByTestId('live-name').fill('<b>Phone</b> & co');
          await p.getByTestId('live-join').click();
        }
        await p.waitForFunction((c) => document.querySelector('[data-testid="live-room-code"]')?.textContent === c, code, { timeout: 10_000 });
        students.push(p);
      }
      await ins.waitForFunction(() => document.querySelector('[data-testid="live-students"]')?.getAttribute('data-value') === '3', null, { timeout: 10_000 });
      await waitInStep(assert, ins, students, 'after joining');
      for (const p of students) assert(/pFabric against DCTCP/.test(await p.getByTestId('lesson-title').innerText()), 'a student does not show the lesson');
      await ins.getByTestId('live-show-code').click();
      const box = await ins.getByTestId('live-qr').boundingBox();
      assert(box && box.height >= 300, `the QR code is ${box?.height} px high on a 800 px screen`);
      assert((await ins.getByTestId('live-link').innerText()).endsWith(`#join=${code}`), 'the join link does not name the room');
      await ins.screenshot({ path: join(out, 'live-01-projector.png') });
      await ins.getByTestId('live-projector').click();
      await students[2].screenshot({ path: join(out, 'live-02-phone.png') });
    });

    await check('live class: the instructor goes to a step, plays, pauses, steps, seeks back and branches; every student shows the instructor\'s time and fingerprint', async () => {
      assert(ins && students.length === 3, 'no room (the first check failed)');
      await ins.getByTestId('lesson-next').click();
      await waitStatus(ins, /went to t = 1\.000 ms/);
      const a = await waitInStep(assert, ins, students, 'after a lesson step');
      await ins.getByTestId('play').click();
      await new Promise((r) => setTimeout(r, 1500));
      await ins.getByTestId('pause').click();
      const b = await waitInStep(assert, ins, students, 'after play and pause');
      assert(b.time !== a.time, `play did not move the clock (${a.time})`);
      await ins.getByTestId('step-event').click();
      await ins.getByTestId('step-rtt').click();
      const c = await waitInStep(assert, ins, students, 'after two steps');
      await ins.getByTestId('seek-input').fill('500');
      await ins.getByTestId('seek').click();
      await waitStatus(ins, /t = 500/);
      const d = await waitInStep(assert, ins, students, 'after a seek back');
      assert(d.time !== c.time, 'the seek back did not move the clock');
      await ins.getByTestId('whatif-kb').fill('4.5');
      await ins.getByTestId('whatif-branch').click();
      await waitStatus(ins, /runs beside the original/);
      await waitInStep(assert, ins, students, 'after a what-if branch');
      for (const p of students) assert((await p.locator('[data-testid^="run-"]').count()) === 3, 'a student does not show the branch beside the two runs');
      await students[0].screenshot({ path: join(out, 'live-03-student-in-step.png') });
    });

    await check('live class: a student who joins late and one who reloads catch up to the same fingerprint', async () => {
      assert(ins && code, 'no room (the first check failed)');
      const late = await newPage('live-late');
      await late.goto(BASE + `#join=${code}`);
      await students[1].reload();
      students.push(late);
      await waitInStep(assert, ins, students, 'after a late join and a reload');
    });

    await check('live class: three students vote on the predict step; the tally arrives on the instructor\'s page, and Reveal shows the answer beside it', async () => {
      assert(ins && code, 'no room (the first check failed)');
      await ins.getByTestId('whatif-close').click();
      await ins.getByTestId('lesson-next').click();
      await waitStatus(ins, /went to t = 2\.000 ms/);
      await waitInStep(assert, ins, students, 'at the predict step');
      const picks = ['pfabric', 'pfabric', 'dctcp'];
      for (let i = 0; i < 3; i++) {
        await students[i].getByTestId(`lesson-guess-${picks[i]}`).click();
        await students[i].getByTestId('live-my-vote').waitFor({ timeout: 5000 });
      }
      await ins.waitForFunction(() => document.querySelector('[data-testid="live-tally"]')?.getAttribute('data-total') === '3', null, { timeout: 10_000 });
      assert((await ins.getByTestId('live-tally-pfabric').getAttribute('data-value')) === '2', 'pfabric should have 2 votes');
      assert((await ins.getByTestId('live-tally-dctcp').getAttribute('data-value')) === '1', 'dctcp should have 1 vote');
      assert((await ins.getByTestId('live-tally-names').count()) === 0, 'names shown though the instructor did not turn them on');
      await ins.getByTestId('lesson-reveal').click();
      await ins.waitForSelector('[data-testid="lesson-answer"]', { timeout: 120_000 });
      assert((await ins.getByTestId('live-tally').count()) === 1, 'the tally is gone after Reveal');
      await students[0].waitForSelector('[data-testid="lesson-answer"]', { timeout: 120_000 });
      const dl = ins.waitForEvent('download');
      await ins.getByTestId('live-votes-csv').click();
      const csv = await (await dl).createReadStream().then(async (s) => {
        let t = '';
        for await (const ch of s) t += ch;
        return t;
      });
      assert(csv === 'step,answer,votes\n3,dctcp,1\n3,pfabric,2\n', `votes CSV: ${JSON.stringify(csv)}`);
      await ins.screenshot({ path: join(out, 'live-04-tally-and-answer.png') });
    });

    await check('live class: a student\'s control message is refused by the server, and the room goes on', async () => {
      assert(ins && code, 'no room (the first check failed)');
      const before = await liveState(ins);
      const reply = await students[0].evaluate(async (code) => {
        const ws = new WebSocket(`ws://${location.host}/live`);
        const msgs = [];
        await new Promise((r) => (ws.onopen = r));
        ws.onmessage = (e) => msgs.push(JSON.parse(e.data));
        ws.send(JSON.stringify({ type: 'join', code }));
        await new Promise((r) => setTimeout(r, 300));
        ws.send(JSON.stringify({ type: 'action', action: { at_ps: 0, op: { kind: 'seek', t_ps: 0 } } }));
        ws.send('{"type":"action","action":{"at_ps":"soon"}}');
        await new Promise((r) => setTimeout(r, 500));
        ws.close();
        return msgs.filter((m) => m.type === 'error');
      }, code);
      assert(reply[0]?.code === 'not_instructor', `the server did not refuse the control message: ${JSON.stringify(reply)}`);
      assert(reply[1]?.code === 'bad_message' && /^message: invalid type: string "soon", expected u64/.test(reply[1].message), `a malformed message: ${JSON.stringify(reply[1])}`);
      const after = await waitInStep(assert, ins, students, 'after the refused message');
      assert(after.time === before.time, `the refused seek moved the room from ${before.time} to ${after.time}`);
    });
  } catch (e) {
    await check('live class: setup', async () => {
      throw e;
    });
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
    server?.proc.kill();
  }
}
