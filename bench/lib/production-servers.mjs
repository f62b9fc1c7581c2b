// Production builds as a person runs them: Enclave itself (server/start.mjs) and the bare Next
// app of bench/bare-next, the two servers the page bench compares (bench/oidc-sign-in.ts starts
// Enclave with it too). Each runs in a process group of its own, so that stopping it also
// stops the `next start` it spawned; every group and temp folder is removed on exit, Ctrl-C
// included.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSessionSecret, seedAccount, sessionCookie } from './session.mjs';
import { sleep } from './time.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..', '..');
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

const groups = new Set();
const tempDirs = new Set();
const cleanups = new Set();

/** Runs fn when the bench ends, however it ends (before the servers stop). */
export function onCleanup(fn) {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

export function makeTempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `enclave-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

/** Kills what is left: only synchronous work here, since it also runs in the 'exit' event. */
function cleanupNow() {
  for (const fn of cleanups) {
    try {
      fn();
    } catch {
      // Cleaning up after a failure must not hide it.
    }
  }
  cleanups.clear();
  for (const pid of groups) killGroup(pid, 'SIGKILL');
  groups.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

process.on('exit', cleanupNow);
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping the servers\n`);
    process.exit(code);
  });
}

/** A port nobody listens on now (the server that asks for it binds it a moment later). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts a command in its own process group, its output going to a log file (a build prints
 * hundreds of lines that would bury the tables). Resolves `exited` with the exit code.
 */
function startProcess(label, args, { cwd, env, logDir }) {
  const log = path.join(logDir, `${label}.log`);
  const fd = openSync(log, 'a');
  const child = spawn(process.execPath, args, {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  groups.add(child.pid);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  exited.then(() => groups.delete(child.pid));
  return { label, log, pid: child.pid, exited };
}

function logTail(log, lines = 30) {
  try {
    return readFileSync(log, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Fails with the end of the process's log, which says why it stopped. */
function failure(proc, why) {
  return new Error(`${proc.label}: ${why}\n--- last lines of ${proc.log} ---\n${logTail(proc.log)}`);
}

/** Waits until url answers 200, failing early if the process stops first. */
async function waitForOk(proc, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let stopped = null;
  proc.exited.then((code) => (stopped = code));
  while (Date.now() < deadline) {
    if (stopped !== null) throw failure(proc, `stopped (exit ${stopped}) before ${url} answered`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      .then((res) => res.status === 200)
      .catch(() => false);
    if (ok) return;
    await sleep(500);
  }
  throw failure(proc, `${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

/** Stops a server's whole group: SIGTERM, then SIGKILL if it has not stopped after 5 s. */
export async function stopServer(proc) {
  if (!groups.has(proc.pid)) return;
  killGroup(proc.pid, 'SIGTERM');
  const stopped = await Promise.race([proc.exited.then(() => true), sleep(5_000).then(() => false)]);
  if (!stopped) killGroup(proc.pid, 'SIGKILL');
  groups.delete(proc.pid);
}

const nextEnv = () => ({ ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' });

/**
 * Builds bench/bare-next in a temp copy whose node_modules links to the project's (so it uses
 * the project's own next and react, and no build output lands in the repository), then serves it.
 */
export async function startBareNext(logDir) {
  const dir = path.join(makeTempDir('bare'), 'bare-next');
  // Only the sources: a build someone made in place must not come along.
  const sources = (src) => !['node_modules', '.next'].includes(path.basename(src));
  cpSync(path.join(here, '..', 'bare-next'), dir, { recursive: true, filter: sources });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');

  const build = startProcess('bare-next-build', [nextBin, 'build'], {
    cwd: dir,
    env: nextEnv(),
    logDir,
  });
  const code = await build.exited;
  if (code !== 0) throw failure(build, `next build failed (exit ${code})`);

  const port = await freePort();
  const server = startProcess('bare-next', [nextBin, 'start', '-p', String(port)], {
    cwd: dir,
    env: nextEnv(),
    logDir,
  });
  const base = `http://localhost:${port}`;
  await waitForOk(server, `${base}/`, 60_000);
  return { ...server, base };
}

/**
 * Starts Enclave as `npm start` does (building first when its sources changed), on a free port
 * with an empty data folder, and waits for its health check. The build can take minutes on two
 * cores, hence the long wait. With `withAccount`, the folder first gets the demo account and the
 * server a session secret of the bench's, and the answer carries a Cookie header of that
 * account's session (bench/lib/session.mjs).
 */
export async function startEnclave(logDir, { withAccount = false } = {}) {
  const port = await freePort();
  // Served as `npm start` serves it, on every interface: with `-H 127.0.0.1`, next-intl's
  // rewrite of /faq to /en/faq names localhost, which Next then takes for another host and every
  // English page redirects to itself.
  const base = `http://localhost:${port}`;
  const env = { ...nextEnv(), PORT: String(port), DATA_DIR: makeTempDir('data') };
  // The embedded database, like `npm start` without DATABASE_URL; and never a mail server.
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  let account = null;
  let cookie = null;
  if (withAccount) {
    env.SESSION_SECRET = benchSessionSecret();
    account = seedAccount(root, env);
    cookie = await sessionCookie(account, env.SESSION_SECRET);
  }
  const server = startProcess('enclave', [path.join(root, 'server', 'start.mjs')], {
    cwd: root,
    env,
    logDir,
  });
  await waitForOk(server, `${base}/api/health`, 15 * 60_000);
  return { ...server, base, account, cookie };
}
