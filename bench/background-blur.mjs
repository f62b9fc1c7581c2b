#!/usr/bin/env node
// `node bench/background-blur.mjs`: what the camera's background effect costs (issue 36 item 1).
// The sender's fake camera is a 1280×720 30 fps file of the synthetic person
// (tests/e2e/support/fake-camera.mjs); one Chromium, a context per participant.
// 1. The pipeline alone: Ada alone in the call (no link, no encoder), each effect in turn for
//    STEADY_S seconds after SETTLE_S: frames the worker drew per second, its wall-clock ms per
//    720p frame and per segmentation (window.enclaveProbe.backgroundStats()), and the CPU time of
//    the page's worker threads per frame, from /proc (the frame-encryption worker idles with no
//    link): CPU time does not grow when other processes crowd the cores, wall-clock time does.
// 2. The call: Bob joins; effect off, strong blur, off again: the camera frames Ada sends per
//    second (outbound-rtp framesSent) and the CPU of every Chromium process (both participants),
//    in % of one core.
// Target (issue 36): ≤ 10 ms per 720p frame, ≥ 24 fps sent. Asserts nothing; progress on stderr.
// BENCH_PORT (default 4000; the app's helpers use port + 1, + 2 and + 5).
import { readdirSync, readFileSync } from 'node:fs';
import { chromiumArgs, launchChromium } from '../tests/support/chromium.mjs';
import { syntheticCameraFile } from '../tests/e2e/support/fake-camera.mjs';
import { cpuSeconds, descendants, startApp } from './lib/app-server.mjs';
import { watchPeerConnections } from './lib/frame-modes.mjs';
import { progress, sleep } from './lib/time.mjs';

const port = Number(process.env.BENCH_PORT ?? 4000);
const settleSeconds = Number(process.env.SETTLE_S ?? 8);
const steadySeconds = Number(process.env.STEADY_S ?? 15);

async function join(browser, baseURL, meetingId, name) {
  const context = await browser.newContext({ baseURL, permissions: ['camera', 'microphone'] });
  await context.addInitScript(watchPeerConnections);
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  await page.getByRole('button', { name: /^(Join now|Ask to join)$/ }).click();
  await page.getByRole('navigation', { name: 'Call controls' }).waitFor({ timeout: 30_000 });
  return { context, page };
}

/** The camera sender's outbound-rtp counters (the busiest video stream of the page's connections). */
function outbound(page) {
  return page.evaluate(async () => {
    const streams = [];
    for (const connection of window.enclaveBenchConnections ?? []) {
      for (const report of (await connection.getStats()).values()) {
        if (report.type === 'outbound-rtp' && report.kind === 'video')
          streams.push({ framesSent: report.framesSent ?? 0, width: report.frameWidth, height: report.frameHeight });
      }
    }
    return streams.sort((a, b) => b.framesSent - a.framesSent)[0] ?? { framesSent: 0, width: 0, height: 0 };
  });
}

const isChromium = (pid) => {
  try {
    return /chromium/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]);
  } catch {
    return false;
  }
};

/** CPU seconds of every Chromium process this script started (both participants, GPU and network processes too). */
function browserCpu() {
  return descendants(process.pid)
    .filter(isChromium)
    .reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);
}

/** CPU seconds of every dedicated worker thread in the browser's processes. */
function workerThreadsCpu() {
  let total = 0;
  for (const pid of descendants(process.pid).filter(isChromium)) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        if (!readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').startsWith('DedicatedWorker')) continue;
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        total += (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return total;
}

const workerStats = (page) => page.evaluate(() => window.enclaveProbe.backgroundStats());

async function choose(page, effect) {
  await page.getByRole('button', { name: 'Camera, microphone and speaker' }).click();
  const dialog = page.getByRole('dialog', { name: 'Camera, microphone and speaker' });
  await dialog.getByRole('radio', { name: effect, exact: true }).check();
  await page.keyboard.press('Escape');
}

const app = await startApp(port);
const camera = syntheticCameraFile(1280, 720);
const browser = await launchChromium({ args: [...chromiumArgs, `--use-file-for-fake-video-capture=${camera}`] });
const alone = [];
const call = [];
try {
  const ada = await join(browser, app.baseURL, app.meetingId, 'Ada');
  for (const effect of ['Light blur', 'Strong blur', 'Forest']) {
    progress(`alone: ${effect}`);
    await choose(ada.page, effect);
    await sleep(settleSeconds * 1000);
    const before = { at: Date.now(), cpu: workerThreadsCpu(), stats: await workerStats(ada.page) };
    await sleep(steadySeconds * 1000);
    const after = { at: Date.now(), cpu: workerThreadsCpu(), stats: await workerStats(ada.page) };
    const frames = after.stats.frames - before.stats.frames;
    alone.push({
      effect,
      fps: (frames / ((after.at - before.at) / 1000)).toFixed(1),
      cpuMs: (((after.cpu - before.cpu) * 1000) / frames).toFixed(1),
      wallMs: after.stats.msPerFrame.toFixed(1),
      segmentMs: after.stats.msSegmenting.toFixed(1),
      size: `${after.stats.width}x${after.stats.height}`,
    });
  }
  await choose(ada.page, 'Off');
  const bob = await join(browser, app.baseURL, app.meetingId, 'Bob');
  for (const effect of ['Off', 'Strong blur', 'Off']) {
    progress(`call: ${effect}`);
    await choose(ada.page, effect);
    await sleep(settleSeconds * 1000);
    const before = { at: Date.now(), cpu: browserCpu(), sent: await outbound(ada.page) };
    await sleep(steadySeconds * 1000);
    const after = { at: Date.now(), cpu: browserCpu(), sent: await outbound(ada.page) };
    const seconds = (after.at - before.at) / 1000;
    call.push({
      effect,
      fpsSent: ((after.sent.framesSent - before.sent.framesSent) / seconds).toFixed(1),
      sentSize: `${after.sent.width}x${after.sent.height}`,
      cpu: `${Math.round(((after.cpu - before.cpu) / seconds) * 100)} %`,
    });
  }
  await bob.context.close();
  await ada.context.close();
} finally {
  await browser.close();
  await app.stop();
}

const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`1280x720 30 fps fake camera; ${steadySeconds} s per row after ${settleSeconds} s; this machine's load average at the end: ${load}`);
console.log('\nThe pipeline alone (one participant, no link):');
console.log('| effect | frames drawn per s | worker CPU ms per frame | wall ms per frame | wall ms per segmentation (every other frame) | frame |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const row of alone) console.log(`| ${row.effect} | ${row.fps} | ${row.cpuMs} | ${row.wallMs} | ${row.segmentMs} | ${row.size} |`);
console.log('\nThe call (two participants on this machine):');
console.log('| effect | camera fps sent | resolution sent | browser CPU, both participants (% of one core) |');
console.log('| --- | --- | --- | --- |');
for (const row of call) console.log(`| ${row.effect} | ${row.fpsSent} | ${row.sentSize} | ${row.cpu} |`);
