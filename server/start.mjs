#!/usr/bin/env node
// `npm start`: builds when there is no build of the current sources, then serves in production
// mode on PORT. Migrations run in the server itself at start (instrumentation.ts).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
process.env.NEXT_TELEMETRY_DISABLED = '1';
const next = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

/** The newest modification time among the files a build depends on. */
function newestSource() {
  const watched = [
    'app',
    'components',
    'lib',
    'messages',
    'public',
    'proxy.ts',
    'next.config.mjs',
    'package-lock.json',
    'instrumentation.ts',
    'server/patch-postgres.mjs',
    'scripts/build-integrity.mjs',
  ];
  let newest = 0;
  const visit = (entry) => {
    if (!existsSync(entry)) return;
    const stat = statSync(entry);
    if (stat.isDirectory()) for (const child of readdirSync(entry)) visit(path.join(entry, child));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  watched.forEach(visit);
  return newest;
}

// The build bundles postgres.js: its fix must be in node_modules first (also run by postinstall).
const patched = spawnSync(process.execPath, [path.join(root, 'server', 'patch-postgres.mjs')], { stdio: 'inherit' });
if (patched.status !== 0) process.exit(patched.status ?? 1);

const stamp = path.join(root, '.next', 'enclave-build-stamp');
const built = existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(stamp);
// Taken before building: a file changed during the build makes the next start build again.
const sources = newestSource();
const stale = !built || Number(readFileSync(stamp, 'utf8')) < sources;
if (stale || process.env.FORCE_BUILD === '1') {
  const status = await buildQuietly();
  if (status !== 0) process.exit(status);
  writeFileSync(stamp, String(sources));
  // A new build (new PGlite, new migrations) gets a new template.
  rmSync(path.join(root, '.next', 'pglite-template'), { recursive: true, force: true });
}
// Only the embedded database needs it; made once per build (server/pglite-template.mjs).
if (!process.env.DATABASE_URL && !existsSync(path.join(root, '.next', 'pglite-template', 'PG_VERSION'))) {
  const began = Date.now();
  const template = spawnSync(process.execPath, [path.join(root, 'server', 'pglite-template.mjs')], { stdio: 'ignore' });
  if (template.status === 0) phase(`embedded database template made in ${seconds(Date.now() - began)}`);
  else console.warn('No embedded database template: a first start will take a few seconds longer.');
}

const port = process.env.PORT ?? '3000';

// A local trial (no APP_URL, or one on localhost) without SMTP_URL keeps the dev mailbox: mail goes
// to this log. A server with a public APP_URL must be given SMTP_URL, or MAIL_LOG=1 on purpose.
const local = !process.env.APP_URL || /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?\/?$/.test(process.env.APP_URL);
if (!process.env.SMTP_URL && !process.env.MAIL_LOG && local) {
  console.log('No SMTP_URL: mail is written to this log (the dev mailbox). Set SMTP_URL before serving anyone else.');
  process.env.MAIL_LOG = '1';
}
// server/server.mjs serves the build: Next.js's handler, told the address of each TCP peer. The
// IPC channel is how it notices if this process dies without passing a signal on (SIGKILL): it
// then stops too, instead of holding the port and the data folder as an orphan.
const server = spawn(process.execPath, [path.join(root, 'server', 'server.mjs')], {
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, PORT: port, NODE_ENV: 'production' },
});
forwardSignals(server);
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

/**
 * SIGINT and SIGTERM go to the child, which stops gracefully; this process exits with it. Under
 * `npm start` a shell sits between npm and this process, and a SIGTERM to npm ends that shell
 * without passing the signal on: this process then finds itself adopted by another parent, and
 * stops the child as if it had been told to.
 */
function forwardSignals(child) {
  const handlers = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((signal) => {
    const handler = () => child.kill(signal);
    process.on(signal, handler);
    return [signal, handler];
  });
  const parent = process.ppid;
  const orphanWatch = setInterval(() => {
    if (process.ppid !== parent) child.kill('SIGTERM');
  }, 250);
  child.once('exit', () => {
    clearInterval(orphanWatch);
    handlers.forEach(([signal, handler]) => process.off(signal, handler));
  });
}

/**
 * `next build`, with one line per phase instead of its full output (no route table). Type
 * checking and lint are not part of it (next.config.mjs): they run in `npm test` and CI. On
 * failure the whole output is printed, so the error is there to read.
 */
function buildQuietly() {
  console.log('Building Enclave (first start, or the sources changed)…');
  const began = Date.now();
  let lastPhase = began;
  let output = '';
  let pending = '';
  const child = spawn(process.execPath, [next, 'build'], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  forwardSignals(child);
  const onText = (chunk) => {
    output += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const text = line.trim();
      const compiled = /Compiled successfully in ([\d.]+)\s*(m?s)/.exec(text);
      if (compiled) {
        phase(`compiled in ${seconds(Number(compiled[1]) * (compiled[2] === 'ms' ? 1 : 1000))}`);
        lastPhase = Date.now();
      } else if (/^✓ Generating static pages/.test(text)) {
        phase(`pages prepared in ${seconds(Date.now() - lastPhase)}`);
        lastPhase = Date.now();
      } else if (/^⚠/.test(text)) {
        console.log(`  ${text}`);
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', onText);
  child.stderr.setEncoding('utf8').on('data', onText);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (code === 0) {
        // The chunks loaded on demand get their integrity (scripts/build-integrity.mjs).
        const integrity = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-integrity.mjs')], { encoding: 'utf8' });
        if (integrity.status !== 0) {
          process.stderr.write(integrity.stdout + integrity.stderr);
          return resolve(integrity.status ?? 1);
        }
        phase(`built in ${seconds(Date.now() - began)}`);
        return resolve(0);
      }
      process.stderr.write(output);
      console.error(signal ? `The build was stopped (${signal}).` : 'The build failed: its output is above.');
      resolve(code ?? 1);
    });
  });
}

function phase(text) {
  console.log(`  ${text}`);
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}
