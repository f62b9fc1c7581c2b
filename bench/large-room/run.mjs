#!/usr/bin/env node
// `npm run bench:large-room`: a meeting of up to N = 30 (issue 20), on this machine. Lightweight
// Node participants (bench/large-room/crowd.ts: libdatachannel, the app's own signaling, key
// exchange and frame format, Opus audio, no video) plus BROWSERS (default 2) real Chromium
// participants. The room grows in SIZES steps (default 5,10,20,30); at each step the last
// browser leaves, the Node participants are added up to size − 1, and that browser joins again
// as the size-th participant. Printed per step:
// - join: the browser's trusted click on "Join now" → audio decoded and decrypted from every
//   other participant (its page clock, polled every 500 ms); and the last Node participant's
//   join call → connected to the size − 2 others present and opening the staying browsers' audio;
// - connected pairs out of N(N−1)/2; in each browser, from how many peers audio decodes
//   (totalSamplesReceived and frames decrypted growing over the window) and decrypt failures;
// - CPU over STEADY_S seconds (default 15), in cores: each browser's process tree, the Node
//   participants' process, the app server; the load average;
// - each browser's uplink: audio and video kbit/s, camera bitrate cap (RTCRtpSender encodings
//   maxBitrate) against the quality policy (lib/meeting/client/links/quality.ts), camera kbit/s per
//   connection and the height sent; the Node participants' audio uplink.
// NODE_AUDIO=all makes Node participants send audio to each other as well (default: only to the
// browsers, whose decoding is what is checked; Node-to-Node audio only loads this machine).
// CAMERA=WxH (default 640x360) is the browsers' camera. Asserts nothing; stops if a step never
// connects. Progress on stderr, the table on stdout.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { generateRoomSecret, fragmentForSecret, encodeRoomSecret } from '../../lib/meeting/e2ee/keys.ts';
import { videoTarget } from '../../lib/meeting/client/links/quality.ts';
import { launchChromium } from '../../tests/support/chromium.mjs';
import { demoMeetingId, startApp, waitForHealth } from '../lib/app-server.mjs';
import { progress, sleep } from '../lib/time.mjs';
import { audioByPeer, cameraSize, uplink, watchPage } from './page-probes.mjs';
import { childrenOf, treeCpuSeconds } from './proc.mjs';

const port = Number(process.env.BENCH_PORT ?? 3610);
const sizes = (process.env.SIZES ?? '5,10,20,30').split(',').map(Number);
const browserCount = Number(process.env.BROWSERS ?? 2);
const steadySeconds = Number(process.env.STEADY_S ?? 15);
const audioTo = process.env.NODE_AUDIO === 'all' ? 'all' : 'browsers';
const camera = (process.env.CAMERA ?? '640x360').split('x').map(Number);
const baseURL = `http://localhost:${port}`;
process.env.E2E_PORT = String(port);
if (sizes.some((size, i) => !Number.isInteger(size) || size <= browserCount || size > 30 || (i > 0 && size <= sizes[i - 1])))
  throw new Error(`SIZES must grow, each above BROWSERS (${browserCount}) and at most 30: ${sizes.join(',')}`);

/** The Node participants' process and a promise-returning call into it. */
function startCrowd() {
  const child = fork(new URL('./crowd.ts', import.meta.url).pathname, { execArgv: ['--import', 'tsx', '--conditions=react-server'] });
  let next = 0;
  const waiting = new Map();
  child.on('exit', (code) => {
    for (const entry of waiting.values()) entry.reject(new Error(`the Node participants' process ended (${code})`));
    waiting.clear();
  });
  child.on('error', () => undefined);
  child.on('message', (reply) => {
    const entry = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.ok) entry?.resolve(reply);
    else entry?.reject(new Error(reply.error));
  });
  const call = (command) =>
    new Promise((resolve, reject) => {
      const id = (next += 1);
      waiting.set(id, { resolve, reject });
      if (!child.connected) return reject(new Error("the Node participants' process is gone"));
      child.send({ ...command, id });
    });
  return { child, call };
}

/** A Chromium of its own per browser participant, so each one's CPU is its own process tree. */
async function launchBrowser() {
  const before = new Set(childrenOf(process.pid));
  const browser = await launchChromium();
  const pid = childrenOf(process.pid).find((child) => !before.has(child) && readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('chrom'));
  return { browser, pid, page: null, context: null };
}

/** Opens the meeting link with its key and clicks "Join now" (a trusted click). */
async function joinFromBrowser(participant, meetingId, fragment, name) {
  const context = await participant.browser.newContext({ baseURL });
  await context.addInitScript(watchPage);
  await context.addInitScript(cameraSize, camera);
  await context.grantPermissions(['camera', 'microphone'], { origin: baseURL });
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}${fragment}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Join now' }).click();
  participant.context = context;
  participant.page = page;
}

async function leaveFromBrowser(participant) {
  await participant.context?.close();
  participant.context = participant.page = null;
}

/** page.evaluate, or an error once `ms` pass: a starved page can stop answering altogether. */
function evaluateWithin(page, fn, ms = 60_000) {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the page did not answer within ${ms / 1000} s`)), ms)));
  return Promise.race([page.evaluate(fn), timeout]).finally(() => clearTimeout(timer));
}

/** Until the page has audio decoded and decrypted from `others` peers; ms since its click on Join (polled every 500 ms). */
async function waitForAudioFromAll(page, others, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < deadline) {
    last = await evaluateWithin(page, audioByPeer);
    const ready = Object.values(last.peers).filter((p) => p.connected && p.samples > 0 && (p.decrypted === null || p.decrypted > 0));
    if (ready.length >= others) return { ms: last.click === null ? null : Math.round(last.at - last.click), probe: last.probe };
    await sleep(500);
  }
  const peers = Object.values(last?.peers ?? {});
  const missing = peers.filter((p) => !(p.connected && p.samples > 0 && (p.decrypted === null || p.decrypted > 0)));
  const why = missing.map((p) => `${p.connected ? 'connected' : 'not connected'}, ${p.samples} samples, ${p.decrypted} decrypted`).join('; ');
  throw new Error(`audio from ${peers.length - missing.length}/${others} peers after ${timeoutMs / 1000} s (${others - peers.length} without a connection; ${why})`);
}

/** In the window: peers whose audio samples and decrypted frames grew, and decrypt failures. */
function audioGrowth(before, after) {
  let decoding = 0;
  let failed = 0;
  for (const [id, now] of Object.entries(after.peers)) {
    const then = before.peers[id];
    if (!then) continue;
    if (now.samples > then.samples && (now.decrypted === null || now.decrypted > then.decrypted)) decoding += 1;
    failed += (now.failed ?? 0) - (then.failed ?? 0);
  }
  return { decoding, failed, peers: Object.keys(after.peers).length, connected: Object.values(after.peers).filter((p) => p.connected).length };
}

function uplinkFigures(before, after, participants) {
  const seconds = (after.at - before.at) / 1000;
  const kbps = (bytes) => Math.round((bytes * 8) / seconds / 1000);
  const caps = [...new Set(after.camera.filter((c) => c.track).map((c) => c.maxBitrate))];
  const perConnection = after.camera.map((c, i) => kbps(c.bytes - (before.camera[i]?.bytes ?? 0)));
  const expected = videoTarget(participants).maxBitrate;
  const withTrack = after.camera.filter((c) => c.track);
  return {
    audio: kbps(after.audioBytes - before.audioBytes),
    video: kbps(after.videoBytes - before.videoBytes),
    cap: withTrack.length === 0 ? 'camera off' : `${caps.map((c) => (c ? c / 1000 : 'none')).join('/')} (policy ${expected / 1000}) ${withTrack.every((c) => c.maxBitrate === expected) ? 'ok' : 'NOT APPLIED'}`,
    cameraPerConnection: withTrack.length ? `${Math.min(...perConnection)}–${Math.max(...perConnection)}` : '-',
    height: [...new Set(after.camera.filter((c) => c.height).map((c) => c.height))].join('/') || '-',
  };
}

async function main() {
  // REUSE_SERVER=1: the app already runs on BENCH_PORT (SERVER_PID: its process, for its CPU).
  const reuse = process.env.REUSE_SERVER === '1';
  const healthTimeoutMs = 400_000;
  if (reuse) await waitForHealth(baseURL, Date.now() + healthTimeoutMs);
  const server = reuse ? null : await startApp(port, { healthTimeoutMs });
  const crowd = startCrowd();
  const browsers = [];
  try {
    const meetingId = reuse ? await demoMeetingId() : server.meetingId;
    const serverPid = reuse ? Number(process.env.SERVER_PID ?? 0) : server.pid;
    // The full link: every participant holds the key, as someone who was sent the link with #k.
    const secret = generateRoomSecret();
    const fragment = fragmentForSecret(secret);
    await crowd.call({ cmd: 'init', baseURL, meetingId, secret: encodeRoomSecret(secret), audioTo });
    for (let i = 0; i < browserCount; i += 1) browsers.push(await launchBrowser());
    const staying = browsers.slice(0, -1);
    const joiner = browsers.at(-1);
    for (const [i, participant] of staying.entries()) await joinFromBrowser(participant, meetingId, fragment, `Browser ${i + 1}`);
    const loadBefore = os.loadavg()[0];
    const rows = [];
    let nodes = 0;
    for (const size of sizes) {
      try {
        await leaveFromBrowser(joiner);
        await sleep(1500);
        const added = await crowd.call({ cmd: 'add', count: size - browserCount - nodes });
        nodes = added.total;
        progress(`N=${size}: ${nodes} Node participants joined; waiting for the mesh`);
        // Everyone but the joiner connected, Node participants opening the staying browsers' audio.
        const before = await crowd.call({ cmd: 'settle', participants: size - 1, browsers: staying.length, timeoutMs: 180_000 });
        if (!before.settled) {
          // Where the mesh stops forming on this machine: say so in the table and stop growing.
          const links = before.behind.flatMap((peer) => peer.notConnected);
          progress(`N=${size}: the mesh of ${size - 1} did not form in 180 s; links not connected (seen from Node participants): ${links.join(', ')}`);
          rows.push({ N: size, 'pairs connected': `mesh of ${size - 1} not formed: ${links.length} links down after 180 s`, load: os.loadavg()[0].toFixed(1) });
          break;
        }
        for (const participant of staying) await waitForAudioFromAll(participant.page, size - 2, 120_000);
        progress(`N=${size}: ${size - 1} connected; the last browser joins`);
        await joinFromBrowser(joiner, meetingId, fragment, `Browser ${browserCount}`);
        const join = await waitForAudioFromAll(joiner.page, size - 1, 180_000);
        const mesh = await crowd.call({ cmd: 'settle', participants: size, browsers: browserCount, timeoutMs: 120_000 });
        progress(`N=${size}: joined in ${join.ms} ms (probe ${join.probe ? 'on' : 'missing'}); Node side ${mesh.settled ? 'settled' : 'NOT settled'}`);
        await sleep(3000); // bandwidth estimates and the policy's setParameters settle
        const pages = browsers.map((b) => b.page);
        const audio0 = await Promise.all(pages.map((page) => evaluateWithin(page, audioByPeer)));
        const up0 = await Promise.all(pages.map((page) => evaluateWithin(page, uplink)));
        const crowd0 = await crowd.call({ cmd: 'summary' });
        const cpu0 = { browsers: browsers.map((b) => treeCpuSeconds(b.pid)), crowd: treeCpuSeconds(crowd.child.pid), server: serverPid ? treeCpuSeconds(serverPid) : 0, at: Date.now() };
        await sleep(steadySeconds * 1000);
        const cpu1 = { browsers: browsers.map((b) => treeCpuSeconds(b.pid)), crowd: treeCpuSeconds(crowd.child.pid), server: serverPid ? treeCpuSeconds(serverPid) : 0, at: Date.now() };
        const load = os.loadavg()[0];
        const crowd1 = await crowd.call({ cmd: 'summary' });
        const audio1 = await Promise.all(pages.map((page) => evaluateWithin(page, audioByPeer)));
        const up1 = await Promise.all(pages.map((page) => evaluateWithin(page, uplink)));
        const seconds = (cpu1.at - cpu0.at) / 1000;
        const cores = (a, b) => ((b - a) / seconds).toFixed(2);
        const growth = audio1.map((after, i) => audioGrowth(audio0[i], after));
        const links = up1.map((u, i) => uplinkFigures(up0[i], u, size));
        const browserLinks = growth.reduce((sum, g) => sum + g.connected, 0);
        const row = {
          N: size,
          'browser join → audio from all ms': join.ms,
          'last Node join → mesh ms': before.lastReadyMs === null ? '-' : Math.round(before.lastReadyMs),
          'pairs connected': `${(crowd1.connectedLinks + browserLinks) / 2}/${(size * (size - 1)) / 2}`,
          'Node links remade': crowd1.relinks,
          'browsers: audio decoding from': growth.map((g) => `${g.decoding}/${size - 1}`).join(' '),
          'decrypt failures': growth.map((g) => g.failed).join(' '),
          'browser CPU cores': browsers.map((_, i) => cores(cpu0.browsers[i], cpu1.browsers[i])).join(' '),
          'Node peers CPU cores': cores(cpu0.crowd, cpu1.crowd),
          'server CPU cores': serverPid ? cores(cpu0.server, cpu1.server) : '-',
          'browser uplink kbit/s audio+video': links.map((l) => `${l.audio}+${l.video}`).join(' '),
          'camera cap kbit/s': links.map((l) => l.cap).join(' | '),
          'camera kbit/s per connection': links.map((l) => l.cameraPerConnection).join(' '),
          'height sent': links.map((l) => l.height).join(' '),
          'Node audio kbit/s per stream': Math.round(((crowd1.sentBytes - crowd0.sentBytes) * 8) / seconds / 1000 / (crowd1.sentStreams || 1)),
          load: load.toFixed(1),
        };
        rows.push(row);
        progress(`N=${size}: ${JSON.stringify(row)}`);
      } catch (error) {
        // A step that did not complete is a figure too: say where, and stop growing.
        progress(`N=${size}: ${error.message}`);
        rows.push({ N: size, 'pairs connected': `step failed: ${error.message.slice(0, 120)}`, load: os.loadavg()[0].toFixed(1) });
        break;
      }
    }
    const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`;
    console.log(`\nLarge room (${machine}, ${new Date().toISOString().slice(0, 10)}): ${browserCount} Chromium + Node participants, camera ${camera.join('x')}, Node audio to ${audioTo}, ${steadySeconds} s per step`);
    console.table(rows);
  } finally {
    for (const participant of browsers) await participant.browser.close().catch(() => undefined);
    await crowd.call({ cmd: 'leave-all' }).catch(() => undefined);
    if (crowd.child.connected) crowd.child.disconnect();
    await server?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
