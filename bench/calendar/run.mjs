#!/usr/bin/env node
// `npm run bench:calendar`: a user with 1,000 recurring series.
//  1. The pure expansion of one month (lib/events, through tsx): bench/calendar/expand.ts.
//  2. One request in process, step by step (bench/calendar/request.ts).
//  3. GET /api/events/calendar?start&end for this month under 50 concurrent clients (autocannon,
//     ~10 s each), against the production build (`server/start.mjs` builds when .next is missing
//     or older than the sources) on a free port, with the embedded PGlite and with a fresh
//     PostgreSQL database. Rows, in this order:
//       compact, 200    `&form=compact`, gzip, no If-None-Match: a browser's first visit
//       compact, 304    the same with If-None-Match: the ETag: what the calendar page sends on
//                       every later visit (the browser revalidates: Cache-Control private, no-cache)
//       compact, 1      one client at a time (the service time of a 200)
//       full            the form of SPEC point 7 (as before), without and with gzip
//     with the body's size on the wire (as `curl -H 'accept-encoding: gzip' -o /dev/null
//     -w '%{size_download}'` counts it), latency p50 / p95, requests per second, the server's
//     CPU per request (its process tree's, from /proc: steadier than latency on a shared
//     machine; PostgreSQL's not included), and the load average (1 min) when each row started.
// Prints tables; asserts nothing.
//   BENCH_HTTP=0            only the pure expansion
//   BENCH_DATABASES=pglite,postgres (default both; postgres from TEST_DATABASE_URL or
//                           postgres://postgres@127.0.0.1:5432/test, skipped when unreachable)
//   BENCH_DURATION=10       seconds per autocannon run;  BENCH_CONNECTIONS=50
//   BENCH_ROWS=compact200,compact304,compact1,full,fullgzip,health   which rows to run (health:
//                           GET /api/health, the cheapest route handler, as the machine's floor)
//   BENCH_PROFILE_DIR=/tmp/x  the server under node --cpu-prof (profiles written when it stops;
//                           bench/cpu-profile.mjs sums one up)
//   BENCH_CLIENT=wrk        load from wrk (C, one thread; `apt-get install wrk`) instead of
//                           autocannon: on two cores autocannon's own JavaScript takes most of a
//                           core from the server it measures, and its latencies include its
//                           event-loop delays. The rows say which client measured them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { percentile } from '../lib/stats.mjs';
import { sleep } from '../lib/time.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const databases = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',').filter(Boolean);
const email = 'calendar-bench@enclave.local';
const password = 'Calendar-Bench-2026';
const sessionSecret = 'calendar-bench-session-secret-0123456789abcdef';

const pure = spawnSync(tsx, ['--conditions=react-server', path.join(root, 'bench', 'calendar', 'expand.ts')], { stdio: 'inherit', cwd: root });
if (pure.status !== 0 || process.env.BENCH_HTTP === '0') process.exit(pure.status ?? 1);

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

function baseEnv(extra) {
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    SESSION_SECRET: sessionSecret,
    SMTP_URL: '',
    MAIL_LOG: '1',
    REDIS_URL: '',
    DATABASE_URL: '',
    DATA_DIR: '',
    SEED_EMAIL: email,
    SEED_PASSWORD: password,
    ...extra,
  };
  return env;
}

function run(script, env) {
  const result = spawnSync(tsx, ['--conditions=react-server', script], { cwd: root, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${script} failed:\n${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

/** A fresh database on the PostgreSQL server, or null when there is none to reach. */
async function createDatabase() {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `enclave_bench_${process.pid}_${Date.now()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined, connect_timeout: 5 });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end({ timeout: 1 });
    console.log(`PostgreSQL skipped: ${adminUrl} not reachable (${error.message})`);
    return null;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function startServer(port, env) {
  // BENCH_PROFILE_DIR: run the server `npm start` runs (server/server.mjs; the build must exist)
  // under --cpu-prof, so the profile holds what a request really costs, our server included.
  const profile = process.env.BENCH_PROFILE_DIR;
  const args = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, path.join(root, 'server', 'server.mjs')] : [path.join(root, 'server', 'start.mjs')];
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, PORT: String(port), NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  // A first build can take minutes on two cores.
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited:\n${output}`);
    if (
      await fetch(`${url}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the app did not start:\n${output}`);
    }
    await sleep(500);
  }
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** POST /login as the seeded account; answers the session cookie. */
async function logIn(url) {
  const response = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('enclave_session='));
  if (!response.ok || !cookie) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return cookie.split(';')[0];
}

/** One GET as a client sends it: status, headers, the body's bytes on the wire, and the time. */
function rawGet(target, headers) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(target, { headers }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, headers: response.headers, bytes: Buffer.concat(chunks), ms: performance.now() - started }),
        );
      })
      .on('error', reject);
  });
}

/** This month, as the calendar's month list asks for it. */
function monthWindow() {
  const now = new Date();
  return {
    start: Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000),
    end: Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000),
  };
}

const ROWS = {
  compact200: { form: 'compact', encoding: 'gzip, deflate, br', revalidate: false, clients: connections },
  compact304: { form: 'compact', encoding: 'gzip, deflate, br', revalidate: true, clients: connections },
  compact1: { form: 'compact', encoding: 'gzip, deflate, br', revalidate: false, clients: 1 },
  full: { form: 'full', encoding: null, revalidate: false, clients: connections },
  fullgzip: { form: 'full', encoding: 'gzip, deflate, br', revalidate: false, clients: connections },
  // The floor of this machine: the cheapest route handler there is (no session, `select 1`).
  health: { form: 'health', encoding: null, revalidate: false, clients: connections },
};
const rowNames = (process.env.BENCH_ROWS ?? Object.keys(ROWS).join(',')).split(',').filter((name) => ROWS[name]);

const loadClient = process.env.BENCH_CLIENT ?? 'autocannon';
if (loadClient === 'wrk' && !existsSync('/usr/bin/wrk')) throw new Error('BENCH_CLIENT=wrk needs wrk: apt-get install -y wrk');
// wrk's summary as one JSON line (latencies in microseconds).
const wrkReport = path.join(os.tmpdir(), 'enclave-bench-wrk.lua');
writeFileSync(
  wrkReport,
  `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"p50":%d,"p95":%d,"max":%d,"requests":%d,"us":%d,"failed":%d}\\n',
    latency:percentile(50), latency:percentile(95), latency.max, summary.requests, summary.duration,
    e.status + e.connect + e.read + e.write + e.timeout))
end
`,
);

/** One wrk run: one thread, `clients` connections, the bench's duration. */
function wrkRun(target, headers, clients) {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const result = spawnSync('wrk', ['-t1', `-c${clients}`, `-d${duration}s`, '--timeout', '10s', '-s', wrkReport, ...headerArgs, target], { encoding: 'utf8' });
  const line = result.stdout.split('\n').find((l) => l.startsWith('{"p50"'));
  if (!line) throw new Error(`wrk: ${result.stdout}${result.stderr}`);
  const report = JSON.parse(line);
  return {
    client: 'wrk',
    'req/s': Math.round(report.requests / (report.us / 1e6)),
    'p50 ms': (report.p50 / 1000).toFixed(1),
    'p95 ms': (report.p95 / 1000).toFixed(1),
    'max ms': (report.max / 1000).toFixed(1),
    failed: report.failed,
    requests: report.requests,
  };
}

/**
 * CPU seconds (user + system) used so far by a process and its descendants (start.mjs runs
 * server.mjs), from /proc: the server's own cost per request, which the other work on a shared
 * machine changes far less than it changes latency. PostgreSQL's processes are not counted.
 */
function treeCpu(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return own + children.reduce((sum, child) => sum + treeCpu(Number(child)), 0);
  } catch {
    return 0;
  }
}

async function measure(url, cookie, { form, encoding, revalidate, clients }, serverPid) {
  const { start, end } = monthWindow();
  const target = form === 'health' ? `${url}/api/health` : `${url}/api/events/calendar?start=${start}&end=${end}${form === 'compact' ? '&form=compact' : ''}`;
  const probe = await rawGet(target, { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) });
  if (probe.status !== 200) throw new Error(`GET ${target}: ${probe.status}`);
  const etag = probe.headers.etag;
  const headers = { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}), ...(revalidate ? { 'if-none-match': etag } : {}) };
  const plain = await (await fetch(target, { headers: { cookie } })).json();
  const occurrences = Array.isArray(plain) ? plain.length : (plain.series?.reduce((n, s) => n + s.starts.length + (s.changed?.length ?? 0), 0) ?? '-');
  const expected = revalidate ? 304 : 200;
  const check = await rawGet(target, headers);
  if (check.status !== expected) throw new Error(`GET ${target} with ${JSON.stringify(headers)}: ${check.status}, not ${expected}`);
  // Warm the route (JIT, caches), then measure.
  await autocannon({ url: target, connections: 4, amount: 40, headers });
  const load = os.loadavg()[0];
  const common = {
    form,
    status: expected,
    clients,
    'accept-encoding': encoding ?? '(none)',
    occurrences,
    'body KB': +(check.bytes.length / 1024).toFixed(1),
    'content-encoding': check.headers['content-encoding'] ?? '-',
  };
  const cpuBefore = treeCpu(serverPid);
  const cpuPerRequest = (requests) => ((1e6 * (treeCpu(serverPid) - cpuBefore)) / requests).toFixed(0);
  if (loadClient === 'wrk') {
    const measured = wrkRun(target, headers, clients);
    return { ...common, ...measured, 'server CPU µs/req': cpuPerRequest(measured.requests), load: load.toFixed(1) };
  }
  const latencies = [];
  let unexpected = 0;
  const instance = autocannon({ url: target, connections: clients, duration, headers });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode === expected) latencies.push(responseTime);
    else unexpected += 1;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    ...common,
    client: 'autocannon',
    'req/s': Math.round(result.requests.average),
    'server CPU µs/req': cpuPerRequest(result.requests.total),
    'p50 ms': percentile(latencies, 50)?.toFixed(1),
    'p95 ms': percentile(latencies, 95)?.toFixed(1),
    'max ms': latencies.at(-1)?.toFixed(1),
    failed: unexpected + result.errors + result.timeouts,
    load: load.toFixed(1),
  };
}

const rows = [];
const firsts = [];
for (const database of databases) {
  const prepared = database === 'postgres' ? await createDatabase() : { env: {}, drop: async () => {} };
  if (!prepared) continue;
  // The PGlite database (and anything else the app keeps) in a folder of its own.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'enclave-calendar-bench-'));
  const env = baseEnv({ DATA_DIR: dataDir, ...prepared.env });
  let server;
  try {
    run('scripts/seed.ts', env);
    const seeded = run('bench/calendar/seed.ts', env);
    // Where one request's time goes, in process (before the server opens the PGlite folder).
    spawnSync(tsx, ['--conditions=react-server', path.join(root, 'bench', 'calendar', 'request.ts')], { stdio: 'inherit', cwd: root, env });
    server = await startServer(await freePort(), env);
    const cookie = await logIn(server.url);
    // The first request of each form meets an empty cache: the expansion's cost, once.
    const { start, end } = monthWindow();
    for (const form of ['compact', 'full']) {
      const first = await rawGet(`${server.url}/api/events/calendar?start=${start}&end=${end}&form=${form}`, { cookie, 'accept-encoding': 'gzip' });
      firsts.push({
        database,
        series: seeded.series,
        exceptions: seeded.exceptions,
        form,
        'first request ms': first.ms.toFixed(1),
        'body KB (gzip)': +(first.bytes.length / 1024).toFixed(1),
      });
    }
    for (const name of rowNames) rows.push({ database, ...(await measure(server.url, cookie, ROWS[name], server.pid)) });
  } finally {
    await server?.stop();
    await prepared.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(
  `\nGET /api/events/calendar (this month), ${duration} s each; Node ${process.version}, ${os.cpus().length} cores, load average now ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.table(firsts);
console.table(rows);
