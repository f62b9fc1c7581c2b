#!/usr/bin/env node
// `npm run bench:join`: the cost of end-to-end encryption in a meeting, with encryption on and
// off. For meetings of N = 2, 3 and 4 people on loopback (SIZES), RUNS runs each: how long a
// participant waits between clicking "Join now" and the first decoded frame from the others
// (p50, p95). Then, for each N, a steady call of STEADY_S seconds: the CPU of the whole browser
// (every Chromium process), the time its pages spent encrypting and decrypting frames (E2EE.md),
// the video frames decoded per second per stream (the encoders lower their rate on a starved
// machine, so the two modes must be compared at the same rate) and the load average (the cores
// are shared). Then the signaling hub's throughput (bench:hub; SKIP_HUB=1 skips it).
// E2EE=on,off (the default) runs both modes. "Off" exists only here: the app cannot switch
// encryption off, so bench/plain-webrtc.mjs makes the browser plain DTLS-SRTP under it. Join runs
// alternate on and off, so that other work on the machine weighs on both alike.
// Prints one table with the on-vs-off CPU difference; asserts nothing about speed, but stops if
// a mode is not what it claims (no frame through frame crypto with "on", any with "off").
// Every participant runs on this machine, so the figures include the cost of N browsers sharing
// its cores. Progress goes to stderr.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/e2e/support/chromium.mjs';
import { plainWebRtc } from './plain-webrtc.mjs';

const port = Number(process.env.BENCH_PORT ?? 3610);
const runs = Number(process.env.RUNS ?? 10);
const sizes = (process.env.SIZES ?? '2,3,4').split(',').map(Number);
const modes = (process.env.E2EE ?? 'on,off').split(',').map((mode) => mode.trim());
const steadySeconds = Number(process.env.STEADY_S ?? 15);
const baseURL = `http://localhost:${port}`;
// The seeded accounts live in the data folder named after the port (tests/e2e/support/constants.mjs).
process.env.E2E_PORT = String(port);

if (modes.length === 0 || modes.some((mode) => mode !== 'on' && mode !== 'off'))
  throw new Error(`E2EE must list "on" and/or "off", not ${process.env.E2EE}`);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Progress on stderr: a full run takes minutes, and the table goes to stdout.
const progress = (line) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

const launchBrowser = () => chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

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

/** A participant in the lobby, name filled in; with mode "off" its browser has no frame API to encrypt with. */
async function open(browser, meetingId, name, mode) {
  const context = await browser.newContext({ baseURL });
  if (mode === 'off') await context.addInitScript(plainWebRtc);
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

/**
 * CPU seconds (user + system) of this process's descendants but `exclude` and theirs, from /proc
 * (Linux): Playwright starts Chromium as our child, beside the app server we started.
 */
function browserCpuSeconds(exclude) {
  const rootPid = process.pid;
  const parents = new Map();
  const cpu = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may contain spaces) start after the last ")".
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      cpu.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process ended meanwhile
    }
  }
  const inTree = (pid) => {
    if (pid === rootPid) return false;
    for (
      let current = pid, hops = 0;
      current > 1 && hops < 50;
      current = parents.get(current) ?? 0, hops += 1
    ) {
      if (current === exclude) return false;
      if (current === rootPid) return true;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, value] of cpu) if (inTree(pid)) ticks += value;
  return ticks / 100; // USER_HZ
}

/**
 * Summed over the pages: frames through frame crypto and the milliseconds spent on them
 * (encryptionStats), and video frames decoded (stats): the same media must flow in both modes.
 */
async function pageCounters(pages) {
  const total = { cryptoFrames: 0, cryptoMs: 0, decoded: 0 };
  for (const page of pages) {
    const { frameStats, links } = await page.evaluate(async () => ({
      frameStats: (await window.enclaveMeeting?.encryptionStats()) ?? {},
      links: (await window.enclaveMeeting?.stats()) ?? {},
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
 * Stops the benchmark if a mode is not what it says: "on" must have opened frames, "off" must
 * have run the init script and touched no frame, while video was decoded (frames flowed natively).
 */
async function checkMode(pages, mode, counters) {
  const plain = await Promise.all(
    pages.map((page) => page.evaluate(() => window.enclaveBenchPlain === true)),
  );
  const ok =
    mode === 'on'
      ? counters.cryptoFrames > 0 && !plain.some(Boolean)
      : counters.cryptoFrames === 0 && counters.cryptoMs === 0 && plain.every(Boolean);
  if (!ok)
    throw new Error(
      `E2EE=${mode} is not in effect: ${counters.cryptoFrames} frames through frame crypto, init script ran in ${plain.filter(Boolean).length}/${pages.length} pages`,
    );
}

/** Until the page decodes video from `others` participants. */
async function waitForVideoFrom(page, others, timeout = 60_000) {
  await page.waitForFunction(
    async (count) =>
      Object.values((await window.enclaveMeeting?.stats()) ?? {}).filter((s) => s.framesDecoded > 0)
        .length >= count,
    others,
    { timeout, polling: 250 },
  );
}

/**
 * A call of `size` people kept running: the browser's CPU and the pages' frame-crypto time, in
 * cores, the video frames each stream decoded per second, and the machine's load meanwhile. Each
 * call has a browser of its own: after a call whose pages fell far behind (a starved machine),
 * the next call in the same browser decoded no video at all.
 */
async function steadyCall(meetingId, size, mode, serverPid) {
  const browser = await launchBrowser();
  const participants = [];
  for (let i = 0; i < size; i += 1)
    participants.push(await enter(browser, meetingId, `Steady ${i + 1}`, mode));
  const pages = participants.map((p) => p.page);
  // Until every page decodes everyone else, then a few seconds to settle.
  for (const page of pages) await waitForVideoFrom(page, size - 1);
  await sleep(3000);
  // The CPU window holds nothing but the call: the pages' counters are read outside it (on a
  // starved machine a page can take long to answer).
  const [counters0, tc0] = [await pageCounters(pages), Date.now()];
  const [cpu0, t0] = [browserCpuSeconds(serverPid), Date.now()];
  await sleep(steadySeconds * 1000);
  const [cpu1, t1] = [browserCpuSeconds(serverPid), Date.now()];
  const load = os.loadavg()[0];
  const [counters1, tc1] = [await pageCounters(pages), Date.now()];
  await checkMode(pages, mode, counters1);
  await leaveAll(participants);
  await browser.close();
  const streams = size * (size - 1);
  return {
    browserCpu: (cpu1 - cpu0) / ((t1 - t0) / 1000),
    cryptoCpu: (counters1.cryptoMs - counters0.cryptoMs) / (tc1 - tc0),
    fps: (counters1.decoded - counters0.decoded) / streams / ((tc1 - tc0) / 1000),
    load,
  };
}

/** One run: size − 1 people in the call, then the milliseconds from the last one's click on Join to its first frame from any other. */
async function joinTime(browser, meetingId, size, mode) {
  const present = [];
  for (let i = 0; i < size - 1; i += 1)
    present.push(await enter(browser, meetingId, `Bench ${i + 1}`, mode));
  const last = await open(browser, meetingId, `Bench ${size}`, mode);
  const started = Date.now();
  await last.page.getByRole('button', { name: 'Join now' }).click();
  await last.page.waitForFunction(
    async () =>
      Object.values((await window.enclaveMeeting?.stats()) ?? {}).some((s) => s.framesDecoded > 0),
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  const elapsed = Date.now() - started;
  await leaveAll([...present, last]);
  return elapsed;
}

/** Join times per mode for one size, the modes taking turns run by run. */
async function joinTimes(browser, meetingId, size) {
  const times = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let run = 0; run < runs; run += 1) {
    for (const mode of modes) {
      times[mode].push(await joinTime(browser, meetingId, size, mode));
      progress(`N=${size} E2EE=${mode} join run ${run + 1}/${runs}: ${times[mode].at(-1)} ms`);
    }
  }
  return times;
}

/** "+3.2 %": how much more browser CPU the call took with encryption on than off. */
const cpuDifference = (on, off) =>
  `${on >= off ? '+' : '−'}${Math.abs(((on - off) / off) * 100).toFixed(1)} %`;

function tableRows(size, times, steady) {
  return modes.map((mode) => ({
    N: size,
    E2EE: mode,
    'join p50 ms': percentile(times[mode], 50),
    'join p95 ms': percentile(times[mode], 95),
    'browser CPU (cores)': steady[mode].browserCpu.toFixed(2),
    'frame crypto (cores, ≤)': steady[mode].cryptoCpu.toFixed(3),
    'video fps per stream': steady[mode].fps.toFixed(1),
    'load avg': steady[mode].load.toFixed(1),
    'CPU on vs off':
      mode === 'on' && steady.off ? cpuDifference(steady.on.browserCpu, steady.off.browserCpu) : '',
  }));
}

async function main() {
  const server = spawn(process.execPath, ['tests/e2e/support/serve.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      E2E_PORT: String(port),
      MAIL_CATCHER_SMTP_PORT: String(port + 1),
      MAIL_CATCHER_HTTP_PORT: String(port + 2),
    },
    stdio: 'ignore',
  });
  try {
    await waitForHealth();
    const { E2E_DATA_DIR } = await import('../tests/e2e/support/constants.mjs');
    const meetingId = JSON.parse(readFileSync(`${E2E_DATA_DIR}/accounts.json`, 'utf8')).demo
      .meetingId;
    const loadBefore = os.loadavg()[0];
    const browser = await launchBrowser();
    const times = new Map();
    for (const size of sizes) times.set(size, await joinTimes(browser, meetingId, size));
    await browser.close();
    const rows = [];
    for (const size of sizes) {
      const steady = {};
      for (const mode of modes) {
        steady[mode] = await steadyCall(meetingId, size, mode, server.pid);
        progress(`N=${size} E2EE=${mode} steady call: ${steady[mode].browserCpu.toFixed(2)} cores`);
      }
      rows.push(...tableRows(size, times.get(size), steady));
    }
    const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`;
    console.log(`\nEncryption on vs off (${machine}, ${new Date().toISOString().slice(0, 10)})`);
    console.log(
      `Join → first decoded remote frame, ${runs} runs; steady call of ${steadySeconds} s: CPU of every Chromium process, and the time pages spent in frame crypto`,
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
