#!/usr/bin/env node
// `npm run bench:log`: the cost of one log line, Enclave's logger (lib/log.ts: JSON.stringify and
// console.log, the request id read from the request's AsyncLocalStorage) against pino 10 with the
// same line shape (ISO time, level name, message, requestId through a mixin), synchronous and
// asynchronous (sonic-boom buffering). Each logger runs in a child process of its own, inside one
// request's state, writing LINES lines to a file and to a pipe that the parent drains (how
// systemd, Docker and podman take a service's output). ROUNDS rounds; the median is printed.
// The decision it informs is in docs/self-hosting/metrics-and-logs.md. Asserts nothing.
import { spawn } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const LINES = Number(process.env.LINES ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const LOGGERS = ['enclave', 'pino-sync', 'pino-async'];

// What a busy request logs: a message and a few fields (lib/mail/outbox.ts's "mail queued").
const FIELDS = { to: '3f2a9c0d1b7e4a55', template: 'eventReminder' };

async function child(kind, lines) {
  const storage = new AsyncLocalStorage();
  globalThis[Symbol.for('enclave.request-state')] = storage;
  let info;
  let flush = () => {};
  if (kind === 'enclave') {
    const { log } = await import(path.join(root, 'lib/log.ts'));
    info = (message, fields) => log.info(message, fields);
  } else {
    const { default: pino } = await import('pino');
    const destination = pino.destination({ dest: 1, sync: kind === 'pino-sync' });
    const logger = pino(
      {
        base: null,
        messageKey: 'message',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        mixin: () => ({ requestId: storage.getStore()?.requestId }),
      },
      destination,
    );
    info = (message, fields) => logger.info(fields, message);
    flush = () => destination.flushSync();
  }
  await storage.run({ requestId: '6f1c2d9e-0b7a-4c3e-9a51-2d8f7e6b4c10' }, async () => {
    for (let i = 0; i < 2000; i += 1) info('warm-up', FIELDS);
    const start = process.hrtime.bigint();
    for (let i = 0; i < lines; i += 1) info('mail queued', FIELDS);
    flush();
    const ns = Number(process.hrtime.bigint() - start);
    process.stderr.write(`${JSON.stringify({ ns })}\n`);
  });
}

/** Runs one child with stdout on `sink` ('file' or 'pipe'); its elapsed nanoseconds. */
function run(kind, sink, dir) {
  return new Promise((resolve, reject) => {
    const file = sink === 'file' ? openSync(path.join(dir, `${kind}.log`), 'w') : null;
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/log.mjs'), '--child', kind, String(LINES)], {
      cwd: root,
      stdio: ['ignore', file ?? 'pipe', 'pipe'],
    });
    if (!file) proc.stdout.resume(); // drain the pipe as a log collector would
    let err = '';
    proc.stderr.on('data', (chunk) => (err += chunk));
    proc.on('exit', (code) => {
      if (file) closeSync(file);
      const line = err.trim().split('\n').pop();
      if (code !== 0 || !line?.startsWith('{')) return reject(new Error(`${kind} failed (${code}): ${err}`));
      resolve(JSON.parse(line).ns);
    });
  });
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], Number(process.argv[4]));
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-log-bench-'));
  try {
    console.log(`${LINES} lines per run, median of ${ROUNDS} rounds, Node ${process.version}, ${os.cpus().length} cores`);
    console.log('logger       sink  lines/s    µs/line');
    for (const sink of ['file', 'pipe']) {
      for (const kind of LOGGERS) {
        const times = [];
        for (let round = 0; round < ROUNDS; round += 1) times.push(await run(kind, sink, dir));
        const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
        const perLine = median / LINES / 1000;
        console.log(`${kind.padEnd(12)} ${sink.padEnd(5)} ${String(Math.round(LINES / (median / 1e9))).padStart(8)}  ${perLine.toFixed(2).padStart(7)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
