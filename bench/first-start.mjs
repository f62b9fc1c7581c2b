#!/usr/bin/env node
// `npm run bench:first-start`: what a person who has just cloned the project waits for (issue 34,
// item 6). Clones this checkout's HEAD into a temporary folder, then times, from the moment each
// command is typed: `npm ci`; `npm start` to the first 200 of /api/health, with the phases
// server/start.mjs prints (compile, pages, embedded database template, server up); and a
// restart on the same data folder. Prints a table; asserts nothing. The load average printed
// beside it says whether the machine was quiet. KEEP=1 keeps the clone.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sleep } from './lib/time.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'enclave-first-start-'));
const clone = path.join(work, 'enclave');
const loadBefore = os.loadavg()[0];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Runs a command in the clone; answers its duration in ms. */
function timed(command, args) {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(command, args, { cwd: clone, stdio: 'ignore', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - began) : reject(new Error(`${command} ${args.join(' ')} exited ${code}`))));
  });
}

/** `npm start` until /api/health answers 200: the total and each line the start printed, with its time. */
async function start(port, dataDir) {
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const began = performance.now();
  const child = spawn('npm', ['start'], { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const collect = (chunk) => {
    for (const line of String(chunk).split('\n')) if (line.trim()) lines.push({ at: performance.now() - began, line: line.trim() });
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${lines.map((entry) => entry.line).join('\n')}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ok) break;
    await sleep(20);
  }
  const total = performance.now() - began;
  const stopBegan = performance.now();
  child.kill('SIGTERM');
  // npm exits at once; the server after it. Stopped means: nothing listens on the port any more.
  await new Promise((resolve) => child.once('exit', resolve));
  while (await listening(port)) await sleep(20);
  return { total, lines, stop: performance.now() - stopBegan };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
try {
  const began = performance.now();
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone]);
  const cloneMs = performance.now() - began;
  const installMs = await timed('npm', ['ci', '--no-audit', '--no-fund']);
  const port = await freePort();
  const dataDir = path.join(work, 'data');
  const first = await start(port, dataDir);
  const restart = await start(port, dataDir);
  const total = performance.now() - began;

  console.log(
    `\nFirst start from a fresh clone of HEAD; node ${process.version}, ${os.cpus().length} cores, load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after\n`,
  );
  console.log('| phase | time |\n| --- | --- |');
  console.log(`| git clone | ${seconds(cloneMs)} |`);
  console.log(`| npm ci | ${seconds(installMs)} |`);
  for (const { at, line } of first.lines.filter((entry) => /^(compiled|pages|built|embedded|Enclave listening)/.test(entry.line))) {
    console.log(`| npm start: ${line.replace(/\|/g, '/')} | at ${seconds(at)} |`);
  }
  console.log(`| npm start → first 200 | ${seconds(first.total)} |`);
  console.log(`| **clone → first 200** | **${seconds(cloneMs + installMs + first.total)}** |`);
  console.log(`| restart (same build and data) → first 200 | ${seconds(restart.total)} |`);
  console.log(`| SIGTERM to npm → port free | ${seconds(restart.stop)} |`);
  console.log(`\n(bench wall time ${seconds(total)})`);
} finally {
  if (process.env.KEEP === '1') console.log(`clone kept in ${clone}`);
  else rmSync(work, { recursive: true, force: true });
}
