#!/usr/bin/env node
// `npm run bench:join`: what end-to-end encryption costs in a meeting. For meetings of N = 2, 3
// and 4 people on loopback (SIZES), two measures per mode of frame handling (E2EE):
// - join: RUNS times, how long a participant waits from the trusted click on "Join now" to the
//   first remote video frame shown, and to a frame from every other participant (p50, p95), both
//   on the page's own clock (markJoin in frame-modes.mjs), the modes taking turns run by run;
// - steady call: PAIRS calls per mode, taking turns, each measured for STEADY_S seconds once the
//   camera senders have ramped up to their full resolution (at most SETTLE_S seconds): the CPU of
//   the browser's threads from /proc, grouped (page main threads, workers, WebRTC's threads, the
//   rest), the video frames decoded per second per stream and the resolution sent. The medians
//   over the pairs are printed.
// BROWSERS=each gives every participant a Chromium process of its own (default: one for all).
// SETTLE_MS waits that long once the others are in, before the newcomer opens the page (a call
// already going, not a burst of joins: a connection's first seconds cost the most CPU).
// JOIN_TRACE=1 prints where each join's time went (API calls, every page's stream events, the
// connection's steps and when each negotiation call started and settled, the CPU of every thread
// of the server and browsers in the second before the click and from the click to the frame; it
// polls getStats, which costs the pages time); JOIN_PROFILE=1 prints the joining page's
// main-thread self time by function and by script from the click to the first frame
// (JOIN_PROFILE_FILE=path also writes the last join's raw profile there); JOIN_TIMELINE=1 the
// browser's own trace of its renderers' main threads (layout, script, WebRTC's blocking calls)
// over the same span (JOIN_TIMELINE_FILE=path also writes the whole trace there, every thread
// of every process, to follow one frame from encoder to decoder). EXTRA_CHROMIUM_ARGS passes more flags, e.g. WebRTC's own logging:
// "--enable-logging=stderr --vmodule=dtls_transport*=1,sdp_offer_answer*=1" with DEBUG=pw:browser.
// Modes (bench/frame-modes.mjs): "on" is the app as shipped; "off" makes the browser plain
// DTLS-SRTP under it; "identity" sends every frame through the browser's encoded-frame plumbing
// with a transform that changes nothing. on − off is the cost of encryption; identity − off is
// the part of it that any frame transform pays in this browser, on − identity Enclave's own.
// Encoders and decoders do the same work in every mode, so the per-thread figures separate the
// cost far better than the browser's total, which other work on the machine moves by ±10 %.
// Asserts nothing about speed, but stops if a mode is not what it claims (no frame through frame
// crypto with "on", any with the others). Every participant runs on this machine, so the figures
// include the cost of N browsers sharing its cores. Then the signaling hub's throughput
// (bench:hub; SKIP_HUB=1 skips it). Progress goes to stderr.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/e2e/support/chromium.mjs';
import { cameraSize, identityFrames, markJoin, plainWebRtc, watchPeerConnections } from './frame-modes.mjs';

const port = Number(process.env.BENCH_PORT ?? 3610);
const runs = Number(process.env.RUNS ?? 10);
const pairs = Number(process.env.PAIRS ?? 3);
const sizes = (process.env.SIZES ?? '2,3,4').split(',').map(Number);
const MODES = ['on', 'off', 'identity'];
const modes = (process.env.E2EE ?? MODES.join(',')).split(',').map((mode) => mode.trim());
const steadySeconds = Number(process.env.STEADY_S ?? 15);
const settleSeconds = Number(process.env.SETTLE_S ?? 60);
/** CAMERA=640x360: the camera size asked for instead of the app's own (1280x720, which four browsers on two cores cannot encode). */
const camera = process.env.CAMERA?.split('x').map(Number);
if (camera && (camera.length !== 2 || camera.some((n) => !Number.isInteger(n) || n <= 0)))
  throw new Error(`CAMERA must look like 640x360, not ${process.env.CAMERA}`);
const baseURL = `http://localhost:${port}`;
// The seeded accounts live in the data folder named after the port (tests/e2e/support/constants.mjs).
process.env.E2E_PORT = String(port);

if (modes.length === 0 || modes.some((mode) => !MODES.includes(mode)))
  throw new Error(`E2EE must list some of ${MODES.join(', ')}, not ${process.env.E2EE}`);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Progress on stderr: a full run takes minutes, and the table goes to stdout.
const progress = (line) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

const launchBrowser = () => chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, ...(process.env.EXTRA_CHROMIUM_ARGS ? process.env.EXTRA_CHROMIUM_ARGS.split(' ') : [])] });

async function waitForHealth(deadline = Date.now() + 300_000) {
  while (Date.now() < deadline) {
    const ok = await fetch(`${baseURL}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(500);
  }
  throw new Error('the app did not start');
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A participant in the lobby, name filled in, its browser set up for `mode`. */
async function open(browser, meetingId, name, mode) {
  // The identity mode's worker is a blob, which the meeting's CSP (rightly) refuses.
  const context = await browser.newContext({ baseURL, bypassCSP: mode === 'identity' });
  await context.addInitScript(watchPeerConnections);
  await context.addInitScript(markJoin, { trace: Boolean(process.env.JOIN_TRACE) });
  if (camera) await context.addInitScript(cameraSize, camera);
  if (mode === 'off') await context.addInitScript(plainWebRtc);
  if (mode === 'identity') await context.addInitScript(identityFrames);
  await context.grantPermissions(['camera', 'microphone'], { origin: baseURL });
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  return { context, page };
}

/** A participant in the call (its own connections may still be on the way). */
async function enter(browser, meetingId, name, mode) {
  const participant = await open(browser, meetingId, name, mode);
  await participant.page.getByRole('button', { name: 'Join now' }).click();
  await participant.page.getByRole('navigation', { name: 'Call controls' }).waitFor();
  return participant;
}

async function leaveAll(participants) {
  for (const participant of participants) await participant.context.close();
  // Let the server see everyone leave before the next call.
  await sleep(1000);
}

/** This process's descendants but `exclude` and theirs (Playwright starts Chromium as our child, beside the app server). */
function browserPids(exclude) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may contain spaces) start after the last ")".
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (pid) => {
    for (let current = pid, hops = 0; current > 1 && hops < 50; current = parents.get(current) ?? 0, hops += 1) {
      if (current === exclude) return false;
      if (current === process.pid) return pid !== process.pid;
    }
    return false;
  };
  return [...parents.keys()].filter(inTree);
}

/** Where a browser thread's CPU is counted: the pages' main threads, workers, WebRTC's own threads, or the rest. */
function threadGroup(pid, tid, name, isRenderer) {
  if (!isRenderer) return 'rest';
  if (tid === pid) return 'main';
  if (name.startsWith('DedicatedWorker')) return 'workers';
  if (name.startsWith('WebRTC')) return 'webrtc';
  return 'rest';
}

/** A process's threads from /proc (Linux): id, name and CPU ticks (user + system, 1/100 s) so far. */
function threadsOf(pid) {
  return readdirSync(`/proc/${pid}/task`).map((task) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { tid: Number(task), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) };
  });
}

/** CPU seconds (user + system) of the browser's threads so far, by group. */
function browserCpu(serverPid) {
  const cpu = { main: 0, workers: 0, webrtc: 0, rest: 0 };
  for (const pid of browserPids(serverPid)) {
    try {
      const isRenderer = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
      for (const { tid, name, ticks } of threadsOf(pid)) cpu[threadGroup(pid, tid, name, isRenderer)] += ticks / 100; // USER_HZ
    } catch {
      // the process or thread ended meanwhile
    }
  }
  return cpu;
}

/**
 * JOIN_TRACE: CPU ticks (1/100 s) of every thread of the app server and the browsers, keyed by
 * process kind and thread name, to see who had the cores between the click and the first frame.
 */
function threadTicks() {
  const ticks = new Map();
  const browser = new Set(browserPids(appServerPid));
  for (const pid of browserPids(-1)) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      // "renderer", "gpu-process", "utility:NetworkService", … or "browser"; the app server's tree is "server".
      const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
      const service = /--utility-sub-type=[\w.]*\.(\w+)/.exec(cmdline)?.[1];
      const kind = browser.has(pid) ? (service ? `${type}:${service}` : type) : 'server';
      for (const thread of threadsOf(pid)) {
        const key = `${kind} ${thread.name.replace(/\d+/g, '#')}`;
        ticks.set(key, (ticks.get(key) ?? 0) + thread.ticks);
      }
    } catch {
      // the process or thread ended meanwhile
    }
  }
  return ticks;
}

/** The CPU spent between two threadTicks(), in ms: the total and the heaviest `top` threads, as one line. */
function cpuBetween(before, after, top) {
  const spent = [];
  for (const [key, value] of after) {
    const ticks = value - (before.get(key) ?? 0);
    if (ticks > 0) spent.push([key, ticks * 10]);
  }
  spent.sort((a, b) => b[1] - a[1]);
  const total = spent.reduce((sum, [, ms]) => sum + ms, 0);
  return `${total} ms (${os.cpus().length} cores); ${spent.slice(0, top).map(([key, ms]) => `${key} ${ms}`).join(', ')}`;
}

/** A page's negotiation calls (markJoin's trace), each as "name start→settled" on the click's clock. */
function describeCalls(calls, sinceClick) {
  return (calls ?? []).map((call) => `${call.name} ${sinceClick(call.started)}→${sinceClick(call.settled)}`).join(', ');
}

/**
 * Summed over the pages: frames through frame crypto and the milliseconds spent on them
 * (encryptionStats), and video frames decoded (stats): the same media must flow in every mode.
 */
async function pageCounters(pages) {
  const total = { cryptoFrames: 0, cryptoMs: 0, decoded: 0 };
  for (const page of pages) {
    const { frameStats, links } = await page.evaluate(async () => ({
      frameStats: (await window.enclaveProbe?.encryptionStats()) ?? {},
      links: (await window.enclaveProbe?.stats()) ?? {},
    }));
    for (const peer of Object.values(frameStats)) {
      total.cryptoFrames += peer.sent.encrypted + peer.received.decrypted;
      total.cryptoMs += peer.sent.busyMs + peer.received.busyMs;
    }
    for (const link of Object.values(links)) total.decoded += link.framesDecoded;
  }
  return total;
}

/**
 * Stops the benchmark if a mode is not what it says: "on" must have opened frames and run no
 * bench script; the others must have run theirs and touched no frame, while video was decoded.
 */
async function checkMode(pages, mode, counters) {
  const ran = await Promise.all(pages.map((page) => page.evaluate(() => window.enclaveBenchMode ?? 'on')));
  const ok = ran.every((each) => each === mode) && (mode === 'on' ? counters.cryptoFrames > 0 : counters.cryptoFrames === 0);
  if (!ok)
    throw new Error(`E2EE=${mode} is not in effect: ${counters.cryptoFrames} frames through frame crypto, pages ran ${ran.join(', ')}`);
}

/** Until the page decodes video from `others` participants. */
async function waitForVideoFrom(page, others, timeout = 60_000) {
  await page.waitForFunction(
    async (count) =>
      Object.values((await window.enclaveProbe?.stats()) ?? {}).filter((s) => s.framesDecoded > 0)
        .length >= count,
    others,
    { timeout, polling: 250 },
  );
}

/** What a page's camera senders send now: "1280x720" per connection, and whether any is still held back. */
async function cameraSends(page) {
  return page.evaluate(async () => {
    const sends = [];
    let limited = false;
    for (const connection of window.enclaveBenchConnections ?? []) {
      if (connection.connectionState !== 'connected') continue;
      (await connection.getStats()).forEach((stat) => {
        if (stat.type !== 'outbound-rtp' || stat.kind !== 'video' || !stat.framesEncoded || !stat.frameWidth) return;
        // The screen-share sender is idle; the camera's is the one encoding.
        sends.push(`${stat.frameWidth}x${stat.frameHeight}`);
        if (stat.qualityLimitationReason && stat.qualityLimitationReason !== 'none') limited = true;
      });
    }
    return { sends, limited };
  });
}

/**
 * Until every camera sender sends what its camera gives, unlimited by bandwidth or CPU, for two
 * checks in a row: a new connection starts small and its bandwidth estimate ramps up for tens of
 * seconds, and a call measured on the way would compare different resolutions. At most SETTLE_S.
 */
async function settle(pages) {
  const deadline = Date.now() + settleSeconds * 1000;
  let steadyChecks = 0;
  let last = [];
  while (Date.now() < deadline && steadyChecks < 2) {
    await sleep(2000);
    const all = await Promise.all(pages.map(cameraSends));
    const now = all.flatMap((each) => each.sends);
    steadyChecks = !all.some((each) => each.limited) && now.join() === last.join() ? steadyChecks + 1 : 0;
    last = now;
  }
  return [...new Set(last)].sort().join(' ');
}

/**
 * A call of `size` people kept running: CPU by thread group in cores, the frame-crypto time the
 * pages measured themselves, the video frames each stream decoded per second and the resolution
 * sent. Each call has a browser of its own: after a call whose pages fell far behind (a starved
 * machine), the next call in the same browser decoded no video at all.
 */
async function steadyCall(meetingId, size, mode, serverPid) {
  const browser = await launchBrowser();
  const participants = [];
  for (let i = 0; i < size; i += 1)
    participants.push(await enter(browser, meetingId, `Steady ${i + 1}`, mode));
  const pages = participants.map((p) => p.page);
  for (const page of pages) await waitForVideoFrom(page, size - 1);
  const video = await settle(pages);
  // The CPU window holds nothing but the call: the pages are asked for their counters outside it
  // (on a starved machine a page can take long to answer).
  const [counters0, tc0] = [await pageCounters(pages), Date.now()];
  const [cpu0, t0] = [browserCpu(serverPid), Date.now()];
  await sleep(steadySeconds * 1000);
  const [cpu1, t1] = [browserCpu(serverPid), Date.now()];
  const load = os.loadavg()[0];
  const [counters1, tc1] = [await pageCounters(pages), Date.now()];
  await checkMode(pages, mode, counters1);
  await leaveAll(participants);
  await browser.close();
  const seconds = (t1 - t0) / 1000;
  const cores = Object.fromEntries(Object.keys(cpu1).map((group) => [group, (cpu1[group] - cpu0[group]) / seconds]));
  return {
    ...cores,
    total: cores.main + cores.workers + cores.webrtc + cores.rest,
    cryptoCpu: (counters1.cryptoMs - counters0.cryptoMs) / (tc1 - tc0),
    fps: (counters1.decoded - counters0.decoded) / (size * (size - 1)) / ((tc1 - tc0) / 1000),
    video,
    load,
  };
}

/** PAIRS steady calls per mode, the modes taking turns, so that other work weighs on all alike. */
async function steadyCalls(meetingId, size, serverPid) {
  const calls = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let pair = 0; pair < pairs; pair += 1) {
    for (const mode of modes) {
      const call = await steadyCall(meetingId, size, mode, serverPid);
      calls[mode].push(call);
      progress(
        `N=${size} E2EE=${mode} steady call ${pair + 1}/${pairs}: ${call.total.toFixed(3)} cores (main ${call.main.toFixed(3)}, workers ${call.workers.toFixed(3)}), ${call.fps.toFixed(1)} fps, ${call.video}`,
      );
    }
  }
  return calls;
}

/**
 * JOIN_PROFILE=1: the joining page's main thread, sampled from just before the click until its
 * last first frame; prints where that thread's time went (self time by function, top 25).
 */
async function startProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      // JOIN_PROFILE_FILE=path: the raw profile too (each join overwrites it), for DevTools or a source map.
      if (process.env.JOIN_PROFILE_FILE) writeFileSync(process.env.JOIN_PROFILE_FILE, JSON.stringify(profile));
      const self = new Map();
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      profile.timeDeltas.forEach((delta, index) => {
        const node = byId.get(profile.samples[index]);
        const { functionName, url, lineNumber } = node.callFrame;
        const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\//, '')}:${lineNumber + 1}`;
        self.set(key, (self.get(key) ?? 0) + delta / 1000);
      });
      const total = [...self.values()].reduce((a, b) => a + b, 0);
      const busy = [...self].filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(program)')).reduce((a, [, ms]) => a + ms, 0);
      progress(`  newcomer main thread: ${Math.round(total)} ms sampled, ${Math.round(busy)} ms in script/GC (program and idle aside)`);
      // By script file: which chunk (React's, the meeting's) or the browser's own calls (":0") took it.
      const byScript = new Map();
      for (const [key, ms] of self) {
        if (key.startsWith('(idle)') || key.startsWith('(program)')) continue;
        const script = key.slice(key.lastIndexOf(' ') + 1).replace(/:\d+$/, '') || '(native)';
        byScript.set(script, (byScript.get(script) ?? 0) + ms);
      }
      progress(`    by script: ${[...byScript].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([script, ms]) => `${script} ${ms.toFixed(1)}`).join(', ')}`);
      for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) progress(`    ${ms.toFixed(1).padStart(7)} ms  ${key.slice(0, 120)}`);
    },
  };
}

/**
 * JOIN_TIMELINE=1: the browser's own trace from just before the click to the first frame: for each
 * renderer main thread, self time by trace event (layout, paint, script, tasks nobody named).
 */
async function startTimeline(page) {
  const browser = page.context().browser();
  await browser.startTracing(undefined, { categories: ['toplevel', 'blink', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'webrtc', 'renderer.scheduler'] });
  return {
    async stop() {
      const { traceEvents } = JSON.parse((await browser.stopTracing()).toString('utf8'));
      if (process.env.JOIN_TIMELINE_FILE) writeFileSync(process.env.JOIN_TIMELINE_FILE, JSON.stringify(traceEvents));
      const threadNames = new Map();
      for (const event of traceEvents) if (event.ph === 'M' && event.name === 'thread_name') threadNames.set(`${event.pid}/${event.tid}`, event.args.name);
      const byThread = new Map();
      for (const event of traceEvents) {
        if (event.ph !== 'X' || typeof event.dur !== 'number') continue;
        const key = `${event.pid}/${event.tid}`;
        if (threadNames.get(key) !== 'CrRendererMain') continue;
        byThread.set(key, [...(byThread.get(key) ?? []), event]);
      }
      for (const [key, events] of byThread) {
        events.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
        const self = new Map();
        const stack = [];
        let top = 0;
        for (const event of events) {
          while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= event.ts) stack.pop();
          const parent = stack.at(-1);
          if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - event.dur);
          else top += event.dur;
          self.set(event.name, (self.get(event.name) ?? 0) + event.dur);
          stack.push(event);
        }
        progress(`  renderer main ${key}: ${Math.round(top / 1000)} ms in tasks; self time: ${[...self].sort((a, b) => b[1] - a[1]).slice(0, 18).map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`).join(', ')}`);
      }
    },
  };
}

/**
 * One run: size − 1 people in the call, then the last one clicks Join. Answers, on that page's
 * clock, the milliseconds from the trusted click to the first remote frame shown ("first") and
 * to a frame from every other participant ("all").
 */
async function joinTime(browsers, meetingId, size, mode) {
  const browser = (i) => browsers[i % browsers.length];
  const present = [];
  for (let i = 0; i < size - 1; i += 1)
    present.push(await enter(browser(i), meetingId, `Bench ${i + 1}`, mode));
  // SETTLE_MS: let the call settle before the newcomer arrives, as in a meeting already going.
  if (process.env.SETTLE_MS) await sleep(Number(process.env.SETTLE_MS));
  const last = await open(browser(size - 1), meetingId, `Bench ${size}`, mode);
  const profiler = process.env.JOIN_PROFILE ? await startProfile(last.page) : null;
  const timeline = process.env.JOIN_TIMELINE ? await startTimeline(last.page) : null;
  if (process.env.JOIN_TRACE) {
    const idleBefore = threadTicks();
    await sleep(1000);
    progress(`  CPU in the second before the click: ${cpuBetween(idleBefore, threadTicks(), 10)}`);
  }
  const ticksBefore = process.env.JOIN_TRACE ? threadTicks() : null;
  const clickedAt = performance.now();
  await last.page.getByRole('button', { name: 'Join now' }).click();
  await last.page.waitForFunction((others) => window.enclaveJoin.frames.length >= others, size - 1, { timeout: 60_000, polling: 50 });
  if (ticksBefore) progress(`  CPU from before the click to the frame seen (${Math.round(performance.now() - clickedAt)} ms of wall time): ${cpuBetween(ticksBefore, threadTicks(), 14)}`);
  if (profiler) await profiler.stop();
  if (timeline) await timeline.stop();
  const { click, clickEpoch, frames, connections, fetches, events } = await last.page.evaluate(() => window.enclaveJoin);
  if (click === null) throw new Error('the click on Join now was not seen');
  const times = frames.map((frame) => frame.at - click);
  if (process.env.JOIN_TRACE) {
    // Every page's stream events since the click, on one clock.
    const streams = [{ who: 'newcomer', events }];
    for (const [index, { page }] of present.entries()) streams.push({ who: `present ${index + 1}`, events: await page.evaluate(() => window.enclaveJoin.events) });
    for (const { who, events: list } of streams)
      progress(`  ${who} heard: ${list.filter((e) => e.at >= clickEpoch).map((e) => `${e.what} ${Math.round(e.at - clickEpoch)}`).join(', ')}`);
    for (const [who, page] of [['newcomer', last.page], ...present.map(({ page }, index) => [`present ${index + 1}`, page])]) {
      const counters = await page.evaluate(() => window.enclaveProbe?.encryptionStats());
      for (const [peer, { sent, received }] of Object.entries(counters ?? {}))
        progress(`  ${who}'s frames for ${peer.slice(0, 6)}: sent ${sent.encrypted}, withheld ${sent.withheld}; received ${received.decrypted}, refused ${JSON.stringify(received.failed)}`);
    }
    for (const [index, { page }] of present.entries()) {
      const { marks, origin } = await page.evaluate(() => ({ marks: window.enclaveJoin.connections.at(-1), origin: performance.timeOrigin }));
      const sinceClick = (t) => Math.round(origin + t - clickEpoch);
      progress(`  present ${index + 1}'s link, after its connected: encoder target bitrate set ${Math.round(marks.target - marks.connected)}, first video encoded ${Math.round(marks.encoded - marks.connected)}, sent ${Math.round(marks.sent - marks.connected)}, received ${Math.round(marks.packet - marks.connected)}, decoded ${Math.round(marks.decoded - marks.connected)} ms; polls before its first frame: ${(marks.polls ?? []).join(' ')}; since the click: made ${sinceClick(marks.created)}, connected ${sinceClick(marks.connected)}, calls: ${describeCalls(marks.calls, sinceClick)}`);
    }
  }
  const since = (values) => Math.round(Math.min(...values.filter((v) => v !== null)) - click);
  if (process.env.JOIN_TRACE) {
    for (const c of connections) progress(`  link: made ${Math.round(c.created - click)}, local description ${Math.round(c.local - click)}, remote ${Math.round(c.remote - click)}, first remote candidate ${Math.round(c.candidate - click)}, ICE connected ${Math.round(c.ice - click)}, video track ${Math.round(c.track - click)}, connected ${Math.round(c.connected - click)}, first video encoded ${Math.round(c.encoded - click)}, sent ${Math.round(c.sent - click)}, received ${Math.round(c.packet - click)}, decoded ${Math.round(c.decoded - click)} ms; its polls before its first frame: ${(c.polls ?? []).join(' ')}; calls: ${describeCalls(c.calls, (t) => Math.round(t - click))}`);
    for (const entry of fetches.filter((e) => e.start > click)) progress(`  ${entry.method} ${entry.url.replace(/^https?:\/\/[^/]+/, '').slice(0, 60)}: ${Math.round(entry.start - click)} → ${Math.round(entry.headers - click)} ms${entry.what ? ` (${entry.what})` : ''}`);
  }
  await leaveAll([...present, last]);
  return {
    first: Math.round(Math.min(...times)),
    all: Math.round(Math.max(...times)),
    // The first connection made and the first connected, after the click.
    created: since(connections.map((c) => c.created)),
    connected: since(connections.map((c) => c.connected)),
  };
}

/** Join times per mode for one size, the modes taking turns run by run. */
async function joinTimes(browsers, meetingId, size) {
  const times = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let run = 0; run < runs; run += 1) {
    for (const mode of modes) {
      times[mode].push(await joinTime(browsers, meetingId, size, mode));
      const { first, all, created, connected } = times[mode].at(-1);
      progress(`N=${size} E2EE=${mode} join run ${run + 1}/${runs}: first frame ${first} ms, from all ${all} ms (connection made at ${created} ms, connected at ${connected} ms)`);
    }
  }
  return times;
}

const GROUPS = ['total', 'main', 'workers', 'webrtc', 'rest'];

/** Median per field over a mode's calls. */
function medians(calls) {
  const out = {};
  for (const field of [...GROUPS, 'cryptoCpu', 'fps', 'load']) out[field] = median(calls.map((call) => call[field]));
  out.video = [...new Set(calls.flatMap((call) => call.video.split(' ')))].sort().join(' ');
  return out;
}

/** "+0.041 (+3.9 %)": how many more cores `mode` took than "off", and that share of "off"'s browser total. */
function overOff(steady, mode, field) {
  if (mode === 'off' || !steady.off) return '';
  const difference = steady[mode][field] - steady.off[field];
  const sign = difference >= 0 ? '+' : '−';
  return `${sign}${Math.abs(difference).toFixed(3)} (${sign}${Math.abs((difference / steady.off.total) * 100).toFixed(1)} %)`;
}

function tableRows(size, times, steady) {
  return modes.map((mode) => ({
    N: size,
    E2EE: mode,
    'join → first frame p50 / p95 ms': `${percentile(times[mode].map((t) => t.first), 50)} / ${percentile(times[mode].map((t) => t.first), 95)}`,
    'join → frames from all p50 / p95 ms': `${percentile(times[mode].map((t) => t.all), 50)} / ${percentile(times[mode].map((t) => t.all), 95)}`,
    'browser CPU': steady[mode].total.toFixed(3),
    'page main': steady[mode].main.toFixed(3),
    workers: steady[mode].workers.toFixed(3),
    'WebRTC threads': steady[mode].webrtc.toFixed(3),
    'frame crypto (≤)': steady[mode].cryptoCpu.toFixed(3),
    'video sent': steady[mode].video,
    'fps per stream': steady[mode].fps.toFixed(1),
    'load avg': steady[mode].load.toFixed(1),
    'browser vs off': overOff(steady, mode, 'total'),
    'main + workers + WebRTC vs off': overOff(steady, mode, 'frames'),
  }));
}

let appServerPid = -1;

async function main() {
  const server = spawn(process.execPath, ['tests/e2e/support/serve.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      E2E_PORT: String(port),
      MAIL_CATCHER_SMTP_PORT: String(port + 1),
      MAIL_CATCHER_HTTP_PORT: String(port + 2),
      // The meeting page's window.enclaveProbe, read below (serve.mjs sets it too).
      MEETING_TEST_PROBE: '1',
    },
    stdio: 'ignore',
  });
  appServerPid = server.pid;
  try {
    await waitForHealth();
    const { E2E_DATA_DIR } = await import('../tests/e2e/support/constants.mjs');
    const meetingId = JSON.parse(readFileSync(`${E2E_DATA_DIR}/accounts.json`, 'utf8')).demo
      .meetingId;
    const loadBefore = os.loadavg()[0];
    // BROWSERS=each: every participant in a Chromium process of its own, as people on their own
    // computers are (the processes still share this machine's cores); else one for all.
    const browsers = [];
    for (let i = 0; i < (process.env.BROWSERS === 'each' ? Math.max(...sizes) : 1); i += 1) browsers.push(await launchBrowser());
    const times = new Map();
    for (const size of sizes) times.set(size, await joinTimes(browsers, meetingId, size));
    for (const browser of browsers) await browser.close();
    const rows = [];
    for (const size of sizes) {
      const calls = await steadyCalls(meetingId, size, server.pid);
      const steady = {};
      for (const mode of modes) {
        steady[mode] = medians(calls[mode]);
        // The threads that carry frames through JS: what a frame transform can cost.
        steady[mode].frames = median(calls[mode].map((call) => call.main + call.workers + call.webrtc));
      }
      rows.push(...tableRows(size, times.get(size), steady));
    }
    const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`;
    console.log(`\nEncryption on vs off (${machine}, ${new Date().toISOString().slice(0, 10)}${camera ? `, camera ${camera.join('x')}` : ''})`);
    console.log(
      `Join → first decoded remote frame, ${runs} runs per mode; steady calls: median of ${pairs} per mode, ${steadySeconds} s each once the cameras send at full resolution; CPU in cores`,
    );
    console.table(rows);
  } finally {
    server.kill('SIGTERM');
  }
  if (!process.env.SKIP_HUB)
    spawnSync('npm', ['run', '--silent', 'bench:hub'], { stdio: 'inherit' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
