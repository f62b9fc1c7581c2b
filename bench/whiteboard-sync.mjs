#!/usr/bin/env node
// `npm run bench:whiteboard`: how fast the whiteboard carries a drawing from one participant's
// screen to another's (issue 49, docs/meetings.md "Whiteboard"), on loopback: two Chromium
// participants of one call, both with the board open. The drawer draws STROKES short lines with
// the mouse (trusted input, STEPS moves each); the viewer's page notes, for every stroke, when
// its first points and its last point reached its board. Then a third person joins and we time
// how long the whole board takes to reach them (the snapshot a peer hands a late joiner).
// Prints medians and the 95th percentile, from the drawer's mouse-down or mouse-up. All pages
// share this machine's cores and clock (Date.now is the same clock in every page and here).
// Asserts nothing.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { launchChromium } from '../tests/support/chromium.mjs';
import { startApp } from './lib/app-server.mjs';
import { percentile } from './lib/stats.mjs';
import { progress, sleep } from './lib/time.mjs';

const port = Number(process.env.BENCH_PORT ?? 3650);
const strokes = Number(process.env.STROKES ?? 200);
const steps = Number(process.env.STEPS ?? 10);

async function join(browser, baseURL, meetingId, name, fragment = '') {
  const context = await browser.newContext({ baseURL, permissions: ['camera', 'microphone'], viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}${fragment}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  await page.getByRole('button', { name: /^(Join now|Ask to join)$/ }).click();
  await page.getByRole('navigation', { name: 'Call controls' }).waitFor({ timeout: 60_000 });
  return { context, page };
}

const verified = (page, count) =>
  page.waitForFunction((count) => window.enclaveProbe?.getState().peers.filter((peer) => peer.keys === 'verified').length === count, count, {
    timeout: 60_000,
  });

async function openBoard(page) {
  await page.getByRole('navigation', { name: 'Call controls' }).getByRole('button', { name: 'Whiteboard', exact: true }).click();
  await page.locator('canvas[data-whiteboard-canvas]').waitFor();
}

/** In the viewer's page: every 2 ms, when each stroke (by id) first showed and when its point count last grew. */
const watchBoard = (page) =>
  page.evaluate(() => {
    const seen = {};
    window.boardSeen = seen;
    const look = async () => {
      const view = await window.enclaveProbe.whiteboard();
      const now = Date.now();
      for (const stroke of view.strokes) {
        const known = seen[stroke.id];
        if (!known) seen[stroke.id] = { first: now, last: now, points: stroke.points };
        else if (stroke.points > known.points) Object.assign(known, { last: now, points: stroke.points });
      }
      setTimeout(look, 2);
    };
    void look();
  });

async function main() {
  const app = await startApp(port);
  const browser = await launchChromium();
  const drawn = [];
  let lateMs = null;
  try {
    const drawer = await join(browser, app.baseURL, app.meetingId, 'Drawer', `#k=${randomBytes(32).toString('base64url')}`);
    const viewer = await join(browser, app.baseURL, app.meetingId, 'Viewer');
    await verified(drawer.page, 1);
    await verified(viewer.page, 1);
    await openBoard(drawer.page);
    await openBoard(viewer.page);
    await watchBoard(viewer.page);
    const box = await drawer.page.locator('canvas[data-whiteboard-canvas]').boundingBox();
    const columns = 20;
    for (let index = 0; index < strokes; index += 1) {
      // A short diagonal in its own cell of a 20-column grid, so no stroke lies on another.
      const cellWidth = box.width / columns;
      const cellHeight = box.height / Math.ceil(strokes / columns);
      const x = box.x + (index % columns) * cellWidth + cellWidth * 0.2;
      const y = box.y + Math.floor(index / columns) * cellHeight + cellHeight * 0.2;
      await drawer.page.mouse.move(x, y);
      const down = Date.now();
      await drawer.page.mouse.down();
      for (let step = 1; step <= steps; step += 1) await drawer.page.mouse.move(x + (cellWidth * 0.6 * step) / steps, y + (cellHeight * 0.6 * step) / steps);
      const up = Date.now();
      await drawer.page.mouse.up();
      drawn.push({ down, up });
      if ((index + 1) % 50 === 0) progress(`${index + 1}/${strokes} strokes drawn`);
    }
    // The drawer's own board, in drawing order (ids sort by the author's counter), against the viewer's record.
    const ids = (await drawer.page.evaluate(() => window.enclaveProbe.whiteboard())).strokes.map((stroke) => ({ id: stroke.id, points: stroke.points }));
    if (ids.length !== strokes) throw new Error(`the drawer's board holds ${ids.length} strokes, not ${strokes}`);
    const deadline = Date.now() + 30_000;
    let seen = {};
    for (; Date.now() < deadline; await sleep(50)) {
      seen = await viewer.page.evaluate(() => window.boardSeen);
      if (ids.every(({ id, points }) => seen[id]?.points === points)) break;
    }
    const missing = ids.filter(({ id, points }) => seen[id]?.points !== points).length;
    if (missing) throw new Error(`${missing} strokes never reached the viewer whole`);
    const first = ids.map(({ id }, index) => seen[id].first - drawn[index].down);
    const whole = ids.map(({ id }, index) => seen[id].last - drawn[index].up);
    const allThere = Math.max(...ids.map(({ id }) => seen[id].last)) - drawn.at(-1).up;

    // A late joiner: from the join click to a board holding every stroke.
    const late = await browser.newContext({ baseURL: app.baseURL, permissions: ['camera', 'microphone'] });
    const latePage = await late.newPage();
    await latePage.goto(`/now/${app.meetingId}`);
    await latePage.getByLabel('Your name', { exact: true }).fill('Late');
    const clicked = Date.now();
    await latePage.getByRole('button', { name: /^(Join now|Ask to join)$/ }).click();
    const holds = () => latePage.evaluate(async () => (window.enclaveProbe ? (await window.enclaveProbe.whiteboard()).strokes.length : 0)).catch(() => 0);
    for (const lateDeadline = Date.now() + 60_000; (await holds()) !== strokes; await sleep(10))
      if (Date.now() > lateDeadline) throw new Error('the late joiner never got the whole board');
    lateMs = Date.now() - clicked;

    const ms = (value) => `${Math.round(value)} ms`;
    console.log(`\nwhiteboard sync, ${strokes} strokes of ${steps + 1} points, drawer → viewer on loopback (${os.cpus().length} cores):`);
    console.log(`  first points on the viewer's board after mouse-down: median ${ms(percentile(first, 50))}, p95 ${ms(percentile(first, 95))}`);
    console.log(`  whole stroke on the viewer's board after mouse-up: median ${ms(percentile(whole, 50))}, p95 ${ms(percentile(whole, 95))}`);
    console.log(`  all ${strokes} strokes on the viewer's board ${ms(allThere)} after the last mouse-up (drawing took ${ms(drawn.at(-1).up - drawn[0].down)})`);
    console.log(`  a late joiner's board holds all ${strokes}: ${ms(lateMs)} after the join click`);
  } finally {
    await browser.close().catch(() => {});
    await app.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
