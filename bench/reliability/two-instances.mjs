#!/usr/bin/env node
// `npm run bench:two-instances` (issue 20, "Two instances"): two `npm start` processes against
// one PostgreSQL and one Redis (private ones), under a load from both sides at once:
// - logins: wrong passwords for one account from 130 client addresses, alternating instances —
//   the per-account limit (100 an hour) must admit exactly 100 in total, not 100 per instance;
//   and 15 from one address — the per-account-and-client limit (10) must admit exactly 10;
// - TOTP: the same code sent at the same moment through three half-logged-in sessions on both
//   instances — exactly one is accepted;
// - event edits: meetings created on one instance and moved three times through both, their
//   15-minute reminders falling due a minute or two later — each delivered exactly once, at the
//   final time, by whichever instance's worker took it;
// - signaling: two participants, one on each instance, exchanging signals through Redis.
// Prints the figures; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { generate } from 'otplib';
import { PNG } from 'pngjs';
import { browser, eventStream, pool, tally } from '../lib/http.mjs';
import { sleep } from '../lib/time.mjs';
import { percentile } from '../lib/stats.mjs';
import { benchPort, machineLine, root, startApp, startPrivatePostgres, startPrivateRedis, startSmtpCatcher } from './services.mjs';

const PASSWORD = 'Demo-Meeting-2026';
const pg = startPrivatePostgres(benchPort(10));
const redis = await startPrivateRedis(benchPort(11));
const smtp = await startSmtpCatcher(benchPort(12));
const shared = {
  DATABASE_URL: pg.url,
  REDIS_URL: redis.url,
  SMTP_URL: smtp.url,
  SESSION_SECRET: 'bench-two-instances-session-secret-0123456789',
  TRUSTED_PROXIES: '127.0.0.1',
};
const apps = [];
const figures = [];
const say = (line) => (figures.push(line), console.log(line));

function seedAccount(email) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'scripts/seed.ts'], {
    cwd: root,
    env: { ...process.env, ...shared, NODE_OPTIONS: '', SEED_EMAIL: email, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'enclave-bench-seed-')) },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`seed failed: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

try {
  const [, , owner] = ['limited@bench.test', 'totp@bench.test', 'owner@bench.test'].map(seedAccount);
  for (const port of [benchPort(13), benchPort(14)]) {
    apps.push(await startApp(port, { ...shared, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'enclave-bench-data-')) }));
  }
  const [a, b] = apps.map((app) => app.url);
  const side = (i) => (i % 2 ? b : a);
  console.log(`instances ${a} and ${b}, PostgreSQL ${pg.url}, Redis ${redis.url}`);

  // 1. Rate limits across instances.
  const perAccount = await pool(
    Array.from(
      { length: 130 },
      (_, i) => () => browser(`10.20.${Math.floor(i / 200)}.${i % 200}`).post(side(i), '/login', { email: 'limited@bench.test', password: `wrong-${i}` }),
    ),
    8,
  );
  say(`login, one account from 130 addresses (limit 100/h): ${tally(perAccount)}`);
  const attacker = browser('10.30.0.1');
  const perClient = await pool(
    Array.from({ length: 15 }, (_, i) => () => attacker.post(side(i), '/login', { email: 'totp@bench.test', password: `wrong-${i}` })),
    4,
  );
  say(`login, one account from one address (limit 10/15 min): ${tally(perClient)}`);

  // 2. TOTP replay across instances: enable 2FA through A, then one code, three sessions, both sides.
  const setup = browser('10.40.0.1');
  await setup.post(a, '/login', { email: 'totp@bench.test', password: PASSWORD });
  const png = PNG.sync.read((await setup.get(b, '/2fa/g2f/setup')).bytes);
  const uri = jsQR(new Uint8ClampedArray(png.data), png.width, png.height).data;
  const secret = new URL(uri).searchParams.get('secret');
  const finished = await setup.post(a, '/2fa/g2f/finish', { code: await generate({ secret }) });
  if (finished.status !== 200) throw new Error(`2FA setup failed: ${finished.text}`);
  // The setup's code used this step: the login code is the next one.
  await sleep((30 - ((Date.now() / 1000) % 30)) * 1000 + 200);
  const sessions = [a, b, a].map((base, i) => ({ base, client: browser(`10.40.1.${i}`) }));
  for (const { base, client } of sessions) await client.post(base, '/login', { email: 'totp@bench.test', password: PASSWORD });
  const code = await generate({ secret });
  const checks = await Promise.all(sessions.map(({ base, client }) => client.post(base, '/2fa/g2f/check', { code })));
  say(`TOTP: one code through 3 sessions on both instances at once: ${checks.filter((c) => c.status === 200).length} accepted (${tally(checks)})`);

  // 3. Event edits from both sides; their reminders must arrive once each, at the final time.
  const editor = [browser('10.50.0.1'), browser('10.50.0.2')];
  for (const [i, client] of editor.entries()) {
    const login = await client.post(side(i), '/login', { email: 'owner@bench.test', password: PASSWORD });
    if (login.status !== 200) throw new Error(`owner login failed: ${login.text}`);
  }
  const EVENTS = 20;
  const base = Math.ceil(Date.now() / 1000) + 15 * 60 + 60;
  const created = await pool(
    Array.from(
      { length: EVENTS },
      (_, i) => () => editor[i % 2].post(side(i), '/api/event', { title: `Two instances ${i}`, from: base + i * 3, timezone: 'Europe/London' }),
    ),
    4,
  );
  const ids = created.map((c) => c.json?.event?.id);
  if (ids.some((id) => !id)) throw new Error(`event creation failed: ${tally(created)}`);
  // Three rounds of edits, each meeting edited at once from both instances (last write wins);
  // the final round moves every meeting to base + 30 s + i * 3 from both sides with the same values.
  const edits = [];
  for (const round of [0, 1, 2]) {
    const finalFrom = (i) => base + 30 + i * 3;
    const tasks = ids.flatMap((id, i) =>
      [0, 1].map(
        (s) => () =>
          editor[s].post(side(s), '/api/event/update', {
            id,
            title: round === 2 ? `Two instances ${i} (final)` : `Two instances ${i} (edit ${round}.${s})`,
            from: round === 2 ? finalFrom(i) : base + (round + 1) * 7 + s + i * 3,
            timezone: 'Europe/London',
          }),
      ),
    );
    edits.push(...(await pool(tasks, 6)));
  }
  say(`event edits: ${EVENTS} meetings, ${edits.length} edits from both instances at once: ${tally(edits)}`);

  // 4. Signaling through Redis: one participant on each instance, signals both ways.
  const join = (base, name) => browser(`10.60.0.${name.length}`).post(base, `/api/meeting/${owner.meetingId}/join`, { name });
  const left = (await join(a, 'Ada')).json;
  const right = (await join(b, 'Bob')).json;
  if (!left?.token || !right?.token) throw new Error(`join failed: ${JSON.stringify({ left, right })}`);
  const streamOf = (base, token) => eventStream(`${base}/api/meeting/${owner.meetingId}/signal`, { authorization: `Bearer ${token}` });
  const [atAda, atBob] = await Promise.all([streamOf(a, left.token), streamOf(b, right.token)]);
  await sleep(1500);
  const SIGNALS = 400;
  const sentAt = new Map();
  const sends = await pool(
    Array.from({ length: SIGNALS }, (_, i) => () => {
      const [from, to, base] = i % 2 ? [right, left, b] : [left, right, a];
      sentAt.set(`s${i}`, performance.now());
      return fetch(`${base}/api/meeting/${owner.meetingId}/signal`, {
        method: 'POST',
        headers: { origin: base, 'content-type': 'application/json', authorization: `Bearer ${from.token}` },
        body: JSON.stringify({ type: 'signal', to: to.self.id, envelope: `s${i}` }),
      }).then((r) => ({ status: r.status, json: null }));
    }),
    10,
  );
  await sleep(3000);
  const got = [...atAda.events, ...atBob.events].filter((e) => e.type === 'signal' && sentAt.has(e.envelope));
  const latency = got.map((e) => e.receivedAt - sentAt.get(e.envelope));
  const distinctSignals = new Set(got.map((e) => e.envelope)).size;
  say(
    `signaling A↔B through Redis: ${SIGNALS} sent (${tally(sends)}), ${distinctSignals} received, ${got.length - distinctSignals} twice; ` +
      `p50 ${percentile(latency, 50).toFixed(1)} ms, p99 ${percentile(latency, 99).toFixed(1)} ms`,
  );
  atAda.close();
  atBob.close();

  // Reminders of the edited meetings: due at base - 15 min + 30 s + i * 3 s.
  const lastDue = (base + 30 + (EVENTS - 1) * 3 - 15 * 60) * 1000;
  const reminders = () => smtp.mails.filter((m) => m.subject.startsWith('Reminder: Two instances'));
  console.log(`waiting for the reminders (last due ${new Date(lastDue).toISOString()})…`);
  while (new Set(reminders().map((m) => m.subject)).size < EVENTS && Date.now() < lastDue + 60_000) await sleep(1000);
  await sleep(10_000);
  const mails = reminders();
  const finals = mails.filter((m) => m.subject.endsWith('(final)'));
  const delays = finals.map((m) => {
    const i = Number(/Two instances (\d+)/.exec(m.subject)[1]);
    return (m.at - (base + 30 + i * 3 - 15 * 60) * 1000) / 1000;
  });
  say(
    `reminders of the edited meetings: ${new Set(finals.map((m) => m.subject)).size} of ${EVENTS} delivered at the final version, ` +
      `${mails.length - new Set(mails.map((m) => m.subject)).size} duplicates, ${mails.length - finals.length} of an older version; ` +
      `delay after due p50 ${percentile(delays, 50).toFixed(1)} s, max ${Math.max(...delays).toFixed(1)} s`,
  );
  console.log(`\nTwo instances — ${machineLine()}`);
  for (const line of figures) console.log(`  ${line}`);
} finally {
  for (const app of apps) await app.kill9();
  redis.stop();
  await smtp.close();
  pg.destroy();
}
