// The real services the reliability benches (issue 20) start for themselves: a private
// PostgreSQL they may stop, a private Redis, an SMTP catcher that counts what it receives, and
// app / worker processes they may kill -9. Never the shared PostgreSQL or Redis of the machine.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { sleep } from '../lib/time.mjs';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** Ports of the bench: BENCH_PORT (default E2E_PORT + 30, or 3540) and up. */
export const benchPort = (offset) => Number(process.env.BENCH_PORT ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 30 : 3540)) + offset;

const asPostgres = (args, options = {}) => spawnSync('runuser', ['-u', 'postgres', '--', ...args], { encoding: 'utf8', ...options });

/**
 * A PostgreSQL cluster of its own in /tmp (initdb + pg_ctl as user postgres), on `port`, so that
 * it can be stopped and started without touching anyone else's database.
 */
export function startPrivatePostgres(port, { logConnections = false } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-bench-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const init = asPostgres(['initdb', '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  // log_connections: the server's side of each connection (received, authorized), with ms times.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200${logConnections ? ' -c log_connections=on' : ''}`;
  const ctl = (...args) => {
    const result = asPostgres(['pg_ctl', '-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', ...args]);
    if (result.status !== 0) throw new Error(`pg_ctl ${args[0]} failed: ${result.stderr}${result.stdout}`);
  };
  ctl('start', '-o', options);
  asPostgres(['psql', '-h', dir, '-p', String(port), '-U', 'postgres', '-c', 'create database enclave']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/enclave`,
    /** Stops it as an operator would (-m fast: open connections are terminated, 57P01). */
    stop: () => ctl('stop', '-m', 'fast'),
    start: () => ctl('start', '-o', options),
    /** The server's log so far. */
    log: () => readFileSync(path.join(dir, 'log'), 'utf8'),
    destroy() {
      asPostgres(['pg_ctl', '-D', data, 'stop', '-m', 'immediate']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Redis of its own on `port`, without persistence. */
export async function startPrivateRedis(port) {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  await sleep(300);
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/**
 * An SMTP server on loopback that keeps, for every mail it accepts, the time, the recipient,
 * the subject, the Message-ID and the text.
 */
export async function startSmtpCatcher(port) {
  const mails = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', async () => {
        const email = await PostalMime.parse(Buffer.concat(chunks));
        mails.push({
          at: Date.now(),
          to: session.envelope.rcptTo.map((r) => r.address).join(','),
          subject: email.subject ?? '',
          messageId: email.messageId,
          text: email.text ?? '',
        });
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * A process in a group of its own (so kill -9 takes its children too: `npm start` runs the
 * server as a child). Resolves once `ready()` says so; `kill9()` is the crash, `stop()` SIGTERM.
 */
export async function startProcess(name, args, env, ready, timeoutMs = 120_000) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-200_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  const handle = {
    name,
    child,
    output: () => output,
    kill9: async () => (signal('SIGKILL'), await exited),
    stop: async () => (signal('SIGTERM'), await Promise.race([exited, sleep(10_000).then(() => signal('SIGKILL'))])),
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await ready(output))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited: ${output}`);
    if (Date.now() > deadline) {
      await handle.kill9();
      throw new Error(`${name} did not start: ${output}`);
    }
    await sleep(100);
  }
  return handle;
}

const healthy = (url) => () =>
  fetch(`${url}/api/health`)
    .then((response) => response.ok)
    .catch(() => false);

/** `npm start` (node server/start.mjs) on `port`; ready at the first 200 of /api/health. */
export async function startApp(port, env) {
  const url = `http://127.0.0.1:${port}`;
  const app = await startProcess(`app:${port}`, ['server/start.mjs'], { NEXT_TELEMETRY_DISABLED: '1', PORT: String(port), APP_URL: url, ...env }, healthy(url));
  return { ...app, url };
}

/** `npm run worker` (the mail and reminder workers alone), as node with tsx's loader. */
export function startWorker(env) {
  return startProcess('worker', ['--import', 'tsx', '--conditions=react-server', 'scripts/worker.ts'], { NODE_OPTIONS: '', ...env }, (output) =>
    output.includes('worker ready'),
  );
}

/** The line bench/RESULTS.md records under each reliability figure. */
export function machineLine() {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load average ${load}, Node ${process.version}`;
}
