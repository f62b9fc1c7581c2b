#!/usr/bin/env node
// `npm run bench:start`: `npm start` on an existing build, from the spawn to the first 200 of
// /api/health, on a fresh data folder each run (the first start a person makes) and then again on
// that same folder (a restart). Embedded PGlite by default; BENCH_DATABASE_URL for PostgreSQL.
// RUNS=n (default 5). Prints a table; asserts nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sleep } from './lib/time.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const runs = Number(process.env.RUNS ?? 5);

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

async function startOnce(dataDir) {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' };
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  else delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, ['server/start.mjs'], { cwd: root, env, stdio: 'ignore' });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error('the server stopped before answering');
    await sleep(10);
  }
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return ms;
}

// The first start may build and make the database template; it is not what is measured.
const warm = mkdtempSync(path.join(os.tmpdir(), 'enclave-start-'));
await startOnce(warm);
rmSync(warm, { recursive: true, force: true });

const fresh = [];
const restart = [];
for (let i = 0; i < runs; i += 1) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-start-'));
  fresh.push(await startOnce(dir));
  restart.push(await startOnce(dir));
  rmSync(dir, { recursive: true, force: true });
}
const p = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const row = (name, values) => `| ${name} | ${Math.round(p(values, 0.5))} | ${Math.round(Math.max(...values))} |`;
console.log(
  `\nnpm start → first 200 of /api/health, ${runs} runs, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
console.log('| start | p50 ms | max ms |\n| --- | --- | --- |');
console.log(row('fresh data folder', fresh));
console.log(row('restart, same folder', restart));
