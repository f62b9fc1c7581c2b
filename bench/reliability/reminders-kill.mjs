#!/usr/bin/env node
// `npm run bench:reminders-kill` (issue 20, "Reminders under kill -9"): COUNT reminders (default
// 1,000) fall due over SPREAD seconds (default 180) while the app (`npm start`) and the worker
// (`npm run worker`) are killed with SIGKILL at random moments and started again. A private
// PostgreSQL and an SMTP catcher on loopback; every reminder mail is counted as it arrives.
// Prints lost, duplicates and the delay after the due time; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { sleep } from '../lib/time.mjs';
import { percentile } from '../lib/stats.mjs';
import { benchPort, machineLine, root, startApp, startPrivatePostgres, startSmtpCatcher, startWorker } from './services.mjs';

const count = Number(process.env.COUNT ?? 1000);
const spreadMs = Number(process.env.SPREAD ?? 180) * 1000;
// A mail whose sender died mid-send is claimed again after 90 s (lib/mail/outbox.ts).
const drainMs = Number(process.env.DRAIN ?? 150) * 1000;

const pg = startPrivatePostgres(benchPort(0));
const smtp = await startSmtpCatcher(benchPort(1));
const env = {
  DATABASE_URL: pg.url,
  SMTP_URL: smtp.url,
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'enclave-bench-data-')),
  SESSION_SECRET: 'bench-reminders-session-secret-0123456789abcdef',
  REDIS_URL: '',
};
const processes = [];
try {
  // Seeding 1,000 meetings takes a minute or more on a loaded machine: the first due time after it.
  const base = Date.now() + Number(process.env.LEAD ?? 150) * 1000;
  console.log(`seeding ${count} reminders, due from ${new Date(base).toISOString()} over ${spreadMs / 1000} s…`);
  const seed = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'bench/reliability/reminders-seed.ts'], {
    cwd: root,
    env: { ...process.env, ...env, NODE_OPTIONS: '', COUNT: String(count), BASE: String(base), SPREAD_MS: String(spreadMs) },
    encoding: 'utf8',
  });
  if (seed.status !== 0) throw new Error(`seed failed: ${seed.stdout}${seed.stderr}`);
  const { first, last } = JSON.parse(seed.stdout.trim().split('\n').pop());
  if (Date.now() > first) console.warn('the seed ran late: the first reminders were due before the processes started');

  const app = { start: () => startApp(benchPort(2), env), handle: null, kills: 0, startMs: [] };
  const worker = { start: () => startWorker(env), handle: null, kills: 0, startMs: [] };
  const roles = [app, worker];
  const restart = async (role) => {
    const started = Date.now();
    role.handle = await role.start();
    role.startMs.push(Date.now() - started);
  };
  await Promise.all(roles.map(restart));
  const readyAt = Date.now();
  processes.push(...roles);
  console.log('app and worker up; killing at random until the last reminder is due…');

  // Chaos: every 4–15 s kill -9 the app, the worker or both, at once; start them again 0–3 s later.
  while (Date.now() < last + 10_000) {
    await sleep(4_000 + Math.random() * 11_000);
    const pick = Math.random();
    const victims = pick < 0.4 ? [app] : pick < 0.8 ? [worker] : [app, worker];
    await Promise.all(victims.map((role) => ((role.kills += 1), role.handle.kill9())));
    await sleep(Math.random() * 3_000);
    await Promise.all(victims.map(restart));
  }
  console.log(`kills: app ${app.kills}, worker ${worker.kills}; waiting for the mail to drain…`);

  const reminders = () => smtp.mails.filter((mail) => mail.subject.startsWith('Reminder: Bench reminder '));
  const distinct = () => new Set(reminders().map((mail) => `${mail.to}|${mail.subject}`)).size;
  const drainEnd = last + drainMs;
  while (distinct() < count && Date.now() < drainEnd) await sleep(1_000);
  await sleep(10_000); // a late duplicate still has its chance to show

  // Due time of each reminder from its title: the seed spread them as base + i * spread / count.
  const db = postgres(pg.url, { max: 1, onnotice: () => {} });
  const due = new Map((await db`select e.title, r.due_at, r.status from event_reminders r join events e on e.id = r.event_id`).map((row) => [row.title, row]));
  const statuses = await db`select status, count(*)::int as n from event_reminders group by status order by status`;
  const outbox = await db`select status, count(*)::int as n from mail_outbox group by status order by status`;
  await db.end();

  const firstArrival = new Map();
  const byMessageId = new Map();
  for (const mail of reminders()) {
    const key = `${mail.to}|${mail.subject}`;
    if (!firstArrival.has(key)) firstArrival.set(key, mail);
    byMessageId.set(mail.messageId, (byMessageId.get(mail.messageId) ?? 0) + 1);
  }
  const delays = [...firstArrival.values()].map((mail) => (mail.at - due.get(mail.subject.slice('Reminder: '.length)).due_at.getTime()) / 1000);
  const total = reminders().length;
  const sameIdTwice = [...byMessageId.values()].filter((n) => n > 1).length;
  const f = (s) => `${s.toFixed(1)} s`;
  console.log('\nReminders under kill -9');
  console.log(`  machine:             ${machineLine()}`);
  console.log(`  reminders planned:   ${due.size} (event_reminders: ${statuses.map((s) => `${s.status} ${s.n}`).join(', ')})`);
  console.log(`  kill -9:             app ${app.kills}×, worker ${worker.kills}× over ${((last - first) / 1000).toFixed(0)} s of due times`);
  console.log(`  restarts:            app p50 ${f(percentile(app.startMs, 50) / 1000)}, worker p50 ${f(percentile(worker.startMs, 50) / 1000)} to ready`);
  console.log(`  delivered (distinct):${String(firstArrival.size).padStart(5)}`);
  console.log(`  lost:                ${count - firstArrival.size}`);
  console.log(`  duplicates:          ${total - firstArrival.size} (same Message-ID re-sent: ${sameIdTwice})`);
  const early = [...due.values()].filter((row) => row.due_at.getTime() < readyAt).length;
  if (early) console.log(`  due before first start:${String(early).padStart(4)} (their delay includes the first start)`);
  console.log(`  delay after due:     p50 ${f(percentile(delays, 50))}, p99 ${f(percentile(delays, 99))}, max ${f(Math.max(...delays))}`);
  console.log(`  mail_outbox:         ${outbox.map((s) => `${s.status} ${s.n}`).join(', ')}`);
} finally {
  for (const role of processes) await role.handle?.kill9();
  await smtp.close();
  pg.destroy();
}
