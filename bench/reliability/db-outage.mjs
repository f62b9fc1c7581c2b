#!/usr/bin/env node
// `npm run bench:db-outage` (issue 20, "Database faults"): `npm start` on a private PostgreSQL
// under a load of writes (WRITERS clients creating meetings through POST /api/event, each
// request with a 60 s client timeout), PostgreSQL stopped (pg_ctl stop -m fast) for DOWN seconds
// (default 20) and started again. Every answer is classified; afterwards every meeting that was
// acknowledged (200 with an id) is looked for in the database. A logged-in page is fetched during
// the outage too, and PostgreSQL's own log (log_connections) says which connections it received
// and authorized after the restart. Prints the figures; asserts nothing.
import { mkdtempSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { browser, tally } from '../lib/http.mjs';
import { sleep } from '../lib/time.mjs';
import { percentile } from '../lib/stats.mjs';
import { benchPort, machineLine, root, startApp, startPrivatePostgres } from './services.mjs';

const writers = Number(process.env.WRITERS ?? 8);
const downMs = Number(process.env.DOWN ?? 20) * 1000;
const BEFORE_MS = 10_000;
const AFTER_MS = 25_000;
const pg = startPrivatePostgres(benchPort(20), { logConnections: true });
const env = {
  DATABASE_URL: pg.url,
  SESSION_SECRET: 'bench-db-outage-session-secret-0123456789abc',
  MAIL_LOG: '1',
  SMTP_URL: '',
  REDIS_URL: '',
  TRUSTED_PROXIES: '127.0.0.1',
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'enclave-bench-data-')),
};
let app;
try {
  const seed = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'scripts/seed.ts'], {
    cwd: root,
    env: { ...process.env, ...env, NODE_OPTIONS: '', SEED_EMAIL: 'writer@bench.test' },
    encoding: 'utf8',
  });
  if (seed.status !== 0) throw new Error(`seed failed: ${seed.stdout}${seed.stderr}`);
  app = await startApp(benchPort(21), env);
  const client = browser('10.70.0.1');
  const login = await client.post(app.url, '/login', { email: 'writer@bench.test', password: 'Demo-Meeting-2026' });
  if (login.status !== 200) throw new Error(`login failed: ${login.text}`);

  const answers = [];
  let counter = 0;
  let running = true;
  const t0 = performance.now();
  const from = Math.ceil(Date.now() / 1000) + 86_400;
  const write = async () => {
    while (running) {
      const title = `Outage write ${String(++counter).padStart(5, '0')}`;
      const started = performance.now() - t0;
      let answer;
      try {
        answer = await client.post(app.url, '/api/event', { title, from, timezone: 'Europe/London' });
      } catch (error) {
        answer = { status: 0, type: '', json: null, text: String(error), headers: new Headers(), ms: performance.now() - t0 - started };
      }
      answers.push({
        title,
        started,
        ms: answer.ms,
        status: answer.status,
        type: answer.type,
        code: answer.json?.errorCode,
        id: answer.json?.event?.id,
        retryAfter: answer.headers.get('retry-after'),
      });
      if (answer.status !== 200) await sleep(250); // a client told to wait a moment
    }
  };
  const load = Array.from({ length: writers }, write);

  await sleep(BEFORE_MS);
  const stoppedAt = performance.now() - t0;
  pg.stop();
  console.log(`PostgreSQL stopped at ${(stoppedAt / 1000).toFixed(1)} s`);
  await sleep(downMs / 2);
  const hung = (error) => ({ status: 0, type: `no answer (${error.name})`, json: null, text: '', ms: 60_000 });
  // Not awaited here: a page that hangs must not stretch the outage.
  const probes = Promise.all([client.get(app.url, '/en/calendar').catch(hung), client.get(app.url, '/api/me').catch(hung)]);
  await sleep(downMs / 2);
  const restartedAt = performance.now() - t0;
  pg.start();
  const upAt = performance.now() - t0;
  console.log(`PostgreSQL started again at ${(restartedAt / 1000).toFixed(1)} s (accepting at ${(upAt / 1000).toFixed(1)} s)`);
  await sleep(AFTER_MS);
  running = false;
  await Promise.all(load);
  const [page, api] = await probes;

  const acknowledged = answers.filter((a) => a.status === 200 && a.id);
  const db = postgres(pg.url, { max: 1, onnotice: () => {} });
  const stored = new Set((await db`select title from events where title like 'Outage write %'`).map((r) => r.title));
  await db.end();
  const lost = acknowledged.filter((a) => !stored.has(a.title)).length;
  const during = answers.filter((a) => a.started + a.ms > stoppedAt && a.started < upAt);
  const unavailable = answers.filter((a) => a.status === 503 && a.code === 'service_unavailable');
  const other = answers.filter((a) => a.status !== 200 && !(a.status === 503 && a.code === 'service_unavailable'));
  const firstOkAfter = answers.filter((a) => a.status === 200 && a.started >= upAt).sort((x, y) => x.started - y.started)[0];
  const lastFailure = answers.filter((a) => a.status !== 200).sort((x, y) => y.started + y.ms - (x.started + x.ms))[0];
  const stack = /\n\s+at [\w.<>]+ \(|node_modules|webpack-internal/;
  const describe = (list) => tally(list, (a) => `${a.status} ${a.code ?? a.type}`);

  console.log(`\nDatabase faults — ${machineLine()}`);
  console.log(`  writes:                    ${answers.length} requests by ${writers} clients, PostgreSQL down ${((upAt - stoppedAt) / 1000).toFixed(1)} s`);
  console.log(
    `  answers:                   200: ${answers.filter((a) => a.status === 200).length}, 503 service_unavailable: ${unavailable.length} (Retry-After ${[...new Set(unavailable.map((a) => a.retryAfter))].join('/')}), other: ${describe(other)}`,
  );
  console.log(`  answers while down:        ${describe(during)}`);
  console.log(
    `  slowest answer:            ${(Math.max(...answers.map((a) => a.ms)) / 1000).toFixed(2)} s (503s: p50 ${percentile(
      unavailable.map((a) => a.ms),
      50,
    )?.toFixed(0)} ms, p99 ${percentile(
      unavailable.map((a) => a.ms),
      99,
    )?.toFixed(0)} ms)`,
  );
  console.log(
    `  recovered:                 first 200 sent ${firstOkAfter ? ((firstOkAfter.started - upAt) / 1000).toFixed(1) : 'never'} s after PostgreSQL accepted again; last failure answered ${lastFailure ? ((lastFailure.started + lastFailure.ms - upAt) / 1000).toFixed(1) : '-'} s after`,
  );
  const lateFailures = answers.filter((a) => a.status !== 200 && a.started >= upAt);
  console.log(
    `  failures begun after:      ${describe(lateFailures)}${lateFailures.length ? ` (begun ${lateFailures.map((a) => ((a.started - upAt) / 1000).toFixed(1)).join(', ')} s after)` : ''}`,
  );
  const codes = [...app.output().matchAll(/"message":"database unavailable","code":"(\w+)"/g)].map((m) => m[1]);
  console.log(`  causes the app logged:     ${tally(codes, (code) => code)}`);
  console.log(`  acknowledged writes lost:  ${lost} of ${acknowledged.length}`);
  console.log(
    `  page during the outage:    GET /en/calendar ${page.status} ${page.type.split(';')[0]} in ${page.ms.toFixed(0)} ms, stack trace shown: ${stack.test(page.text) ? 'yes' : 'no'}`,
  );
  console.log(`  API read during outage:    GET /api/me ${api.status} ${api.json?.errorCode ?? api.type} in ${api.ms.toFixed(0)} ms`);
  // PostgreSQL's side since it restarted (log_connections): a connection received but never
  // authorized is one whose client sent no startup message before giving up.
  const sinceRestart = pg.log().split('database system is ready to accept connections').pop();
  const pids = (what) => new Set([...sinceRestart.matchAll(new RegExp(`\\[(\\d+)\\] LOG:  connection ${what}`, 'g'))].map((m) => m[1]));
  const received = pids('received');
  const authorized = pids('authorized');
  console.log(
    `  PostgreSQL after restart:  ${received.size} connections received, ${authorized.size} authorized, ${[...received].filter((pid) => !authorized.has(pid)).length} without a startup message`,
  );
} finally {
  await app?.kill9();
  pg.destroy();
}
