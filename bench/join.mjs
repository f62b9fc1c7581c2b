#!/usr/bin/env node
// `npm run bench:join`: how long a participant waits between clicking "Join now" and the
// first decoded frame from the others, for meetings of N = 2, 3 and 4 people on loopback,
// RUNS runs each, with p50 and p95. Then, for each N, a steady call of STEADY_S seconds: the
// CPU of the whole browser (every Chromium process) and the time its pages spent encrypting
// and decrypting frames (E2EE.md), so the cost of end-to-end encryption shows as a share of
// the CPU. Then the signaling hub's throughput (bench:hub).
// Prints tables; asserts nothing. Every participant runs on this machine, so the figures
// include the cost of N browsers sharing its cores.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/e2e/support/chromium.mjs';

const port = Number(process.env.BENCH_PORT ?? 3610);
const runs = Number(process.env.RUNS ?? 10);
const sizes = (process.env.SIZES ?? '2,3,4').split(',').map(Number);
const steadySeconds = Number(process.env.STEADY_S ?? 15);
const baseURL = `http://localhost:${port}`;
// The seeded accounts live in the data folder named after the port (tests/e2e/support/constants.mjs).
process.env.E2E_PORT = String(port);

async function waitForHealth(deadline = Date.now() + 300_000) {
  while (Date.now() < deadline) {
    const ok = await fetch(`${baseURL}/api/health`).then((r) => r.ok).catch(() => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the app did not start');
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function join(browser, meetingId, name) {
  const context = await browser.newContext({ baseURL });
  await context.grantPermissions(['camera', 'microphone'], { origin: baseURL });
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}`);
  await page.getByLabel('Your name', { exact: true }).fill(name);
  return { context, page };
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
    for (let current = pid, hops = 0; current > 1 && hops < 50; current = parents.get(current) ?? 0, hops += 1) {
      if (current === exclude) return false;
      if (current === rootPid) return true;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, value] of cpu) if (inTree(pid)) ticks += value;
  return ticks / 100; // USER_HZ
}

async function cryptoMs(pages) {
  let total = 0;
  for (const page of pages) {
    const stats = await page.evaluate(async () => (await window.enclaveMeeting?.encryptionStats()) ?? {});
    for (const peer of Object.values(stats)) total += peer.sent.busyMs + peer.received.busyMs;
  }
  return total;
}

/** A call of `size` people kept running: the browser's CPU and the pages' frame-crypto time. */
async function steadyCall(browser, meetingId, size, serverPid) {
  const participants = [];
  for (let i = 0; i < size; i += 1) {
    const participant = await join(browser, meetingId, `Steady ${i + 1}`);
    await participant.page.getByRole('button', { name: 'Join now' }).click();
    await participant.page.getByRole('navigation', { name: 'Call controls' }).waitFor();
    participants.push(participant);
  }
  const pages = participants.map((p) => p.page);
  // Until every page decodes everyone else, then a few seconds to settle.
  for (const page of pages) {
    await page.waitForFunction(
      async (others) => Object.values((await window.enclaveMeeting?.stats()) ?? {}).filter((s) => s.framesDecoded > 0).length >= others,
      size - 1,
      { timeout: 60_000, polling: 250 },
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const [cpu0, crypto0, t0] = [browserCpuSeconds(serverPid), await cryptoMs(pages), Date.now()];
  await new Promise((resolve) => setTimeout(resolve, steadySeconds * 1000));
  const [cpu1, crypto1, t1] = [browserCpuSeconds(serverPid), await cryptoMs(pages), Date.now()];
  for (const participant of participants) await participant.context.close();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const seconds = (t1 - t0) / 1000;
  const browserCpu = (cpu1 - cpu0) / seconds;
  const cryptoCpu = (crypto1 - crypto0) / 1000 / seconds;
  return {
    N: size,
    seconds: Math.round(seconds),
    'browser CPU (cores)': browserCpu.toFixed(2),
    'frame crypto (cores, upper bound)': cryptoCpu.toFixed(3),
    'crypto share of browser CPU': `${((cryptoCpu / browserCpu) * 100).toFixed(1)} %`,
  };
}

/** Milliseconds from the click on Join to the first frame decoded from any other participant. */
async function timeToFirstFrame(page) {
  const started = Date.now();
  await page.getByRole('button', { name: 'Join now' }).click();
  await page.waitForFunction(
    async () => {
      const stats = (await window.enclaveMeeting?.stats()) ?? {};
      return Object.values(stats).some((s) => s.framesDecoded > 0);
    },
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  return Date.now() - started;
}

async function main() {
  const server = spawn(process.execPath, ['tests/e2e/support/serve.mjs'], {
    env: { ...process.env, PORT: String(port), E2E_PORT: String(port), MAIL_CATCHER_SMTP_PORT: String(port + 1), MAIL_CATCHER_HTTP_PORT: String(port + 2) },
    stdio: 'ignore',
  });
  try {
    await waitForHealth();
    const { E2E_DATA_DIR } = await import('../tests/e2e/support/constants.mjs');
    const meetingId = JSON.parse(readFileSync(`${E2E_DATA_DIR}/accounts.json`, 'utf8')).demo.meetingId;
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    const rows = [];
    for (const size of sizes) {
      const times = [];
      for (let run = 0; run < runs; run += 1) {
        const present = [];
        for (let i = 0; i < size - 1; i += 1) {
          const participant = await join(browser, meetingId, `Bench ${i + 1}`);
          await participant.page.getByRole('button', { name: 'Join now' }).click();
          await participant.page.getByRole('navigation', { name: 'Call controls' }).waitFor();
          present.push(participant);
        }
        const last = await join(browser, meetingId, `Bench ${size}`);
        times.push(await timeToFirstFrame(last.page));
        for (const participant of [...present, last]) await participant.context.close();
        // Let the server see everyone leave before the next run.
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      rows.push({ N: size, runs, 'p50 ms': percentile(times, 50), 'p95 ms': percentile(times, 95), 'min ms': Math.min(...times) });
    }
    const steady = [];
    for (const size of sizes) steady.push(await steadyCall(browser, meetingId, size, server.pid));
    await browser.close();
    console.log(`\nJoin → first decoded remote frame, end-to-end encrypted (${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, ${new Date().toISOString().slice(0, 10)})`);
    console.table(rows);
    console.log(`\nSteady call of ${steadySeconds} s: CPU of every Chromium process, and the time pages spent in frame encryption`);
    console.table(steady);
  } finally {
    server.kill('SIGTERM');
  }
  if (!process.env.SKIP_HUB) spawnSync('npm', ['run', '--silent', 'bench:hub'], { stdio: 'inherit' });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
