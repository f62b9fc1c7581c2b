#!/usr/bin/env node
// postgres.js 3.4.9 (the latest release) loses pooled connections to a race between a write and
// a close, which a database restart under load sets off (docs/reliability.md, "Database faults"):
// - a connection whose socket closes while a small write waits for its setImmediate keeps that
//   timer's stale handle and the bytes: every later write, the next socket's startup message
//   included, is queued behind them and never sent, so each reconnect ends in CONNECT_TIMEOUT
//   until 1 KiB has piled up (seen: 6 of 10 connections, a 503 every 6 s for 25 s and more);
// - a write after the close (a transaction's automatic ROLLBACK) throws from the immediate,
//   outside every promise: the process dies (Cannot read properties of null (reading 'write')).
// Upstream has the reports and open fixes (porsager/postgres#1208, #1209) but no release. This
// applies the same fix to the installed copies, from `postinstall` and from server/start.mjs;
// it is idempotent, leaves any other version alone (the test of the fix then fails), and stops
// when 3.4.9's code is not the one it knows.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dir = path.join(root, 'node_modules', 'postgres');
const MARK = '/* enclave: write-close race fixed */';

const fixes = [
  // Teardown drops the dead socket's pending bytes and the cleared timer's handle.
  ['    clearImmediate(nextWriteTimer)\n    if (socket) {', '    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    if (socket) {'],
  [
    '    clearImmediate(nextWriteTimer)\n    socket.removeListener',
    '    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener',
  ],
  // Once its queries are settled, a closed connection keeps none of them as current.
  [
    "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n",
    "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n    query = results = errorResponse = null\n    result = new Result()\n",
  ],
  // A write after the close rejects its query (CONNECTION_CLOSED) instead of throwing.
  [
    '  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)',
    `  function nextWrite(fn) { ${MARK}\n    if (socket === null) {\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))\n      query = null\n      return false\n    }\n    const x = socket.write(chunk, fn)`,
  ],
];

const version = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
if (version !== '3.4.9') {
  // An install never fails here; tests/integration/postgres-write-close.postgres.test.ts does.
  console.warn(
    `patch-postgres: postgres ${version} is not 3.4.9, left as it is: check whether it fixes the write-close race, then update or remove this script.`,
  );
  process.exit(0);
}
let patched = 0;
for (const copy of ['src', 'cjs/src', 'cf/src']) {
  const file = path.join(dir, copy, 'connection.js');
  if (!existsSync(file)) continue;
  let text = readFileSync(file, 'utf8');
  if (text.includes(MARK)) continue;
  for (const [from, to] of fixes) {
    if (text.split(from).length !== 2) {
      console.error(`patch-postgres: postgres ${version} ${copy}/connection.js is not the code this fix knows.`);
      process.exit(1);
    }
    text = text.replace(from, to);
  }
  writeFileSync(file, text);
  patched += 1;
}
if (patched) console.log(`patch-postgres: fixed the write-close race in ${patched} copies of postgres ${version}`);
