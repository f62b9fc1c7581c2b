import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import postgres from 'postgres';
import type * as DbModule from '@/lib/db/client';
import type * as ApiSupport from '../support/api';
import type * as AddressBook from '../support/address-book';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

// Issue 7, "Reminders": the app is down when a reminder falls due; after a restart every
// recipient gets it exactly once, and further restarts send nothing more. The worker is a real
// separate process (`npm run worker`) on a PostgreSQL database of this file's own, killed with
// SIGKILL as a crash would. PostgreSQL only: two processes cannot share an embedded PGlite.

jest.setTimeout(120_000);

let smtp: TestSmtpServer;
let book: typeof AddressBook;
let closeDb: () => Promise<void>;
let admin: ReturnType<typeof postgres>;
const DATABASE = 'enclave_test_reminders_restart';
let databaseUrl: string;
const root = path.resolve(__dirname, '../..');

beforeAll(async () => {
  smtp = await startSmtpServer();
  process.env.SMTP_URL = smtp.url;
  const shared = process.env.DATABASE_URL!;
  admin = postgres(shared, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${DATABASE} with (force)`);
  await admin.unsafe(`create database ${DATABASE}`);
  const own = new URL(shared);
  own.pathname = `/${DATABASE}`;
  databaseUrl = own.toString();
  process.env.DATABASE_URL = databaseUrl;
  book = await import('../support/address-book');
  const client: typeof DbModule = await import('@/lib/db/client');
  await client.getDb();
  closeDb = client.closeDb;
}, 60_000);

afterAll(async () => {
  await closeDb?.();
  await admin?.unsafe(`drop database if exists ${DATABASE} with (force)`);
  await admin?.end();
  await smtp?.close();
});

/** `npm run worker` as its own process; resolves when it says it is ready. */
function startWorker(): Promise<ChildProcess> {
  // As `npm run worker` does: node itself with tsx's loader, so SIGKILL reaches the worker.
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=react-server', 'scripts/worker.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, SMTP_URL: smtp.url, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`worker exited (${code}): ${output}`)));
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('a reminder that fell due while the app was down is sent once after a restart, and never again', async () => {
  const as = await book.owner();
  const guest = `restart-${Date.now()}@mail.test`;
  const create = (await import('@/app/api/event/route')).POST as Parameters<typeof ApiSupport.call>[0];
  // The 15-minute reminder falls due 12 s from now.
  const dueAt = Date.now() + 12_000;
  const created = await as.post(create, {
    title: 'Restart drill',
    from: Math.ceil((dueAt + 15 * 60_000) / 1000),
    duration: '0:30',
    timezone: 'Europe/London',
    attendees: [guest],
  });
  expect(created.status).toBe(200);
  const reminders = () => smtp.messages.filter((m) => /^Reminder: Restart drill$/.test(m.subject));

  // Up, then crashed before the reminder is due.
  const first = await startWorker();
  await stop(first, 'SIGKILL');
  await sleep(Math.max(0, dueAt - Date.now()) + 2000);
  expect(reminders()).toHaveLength(0);

  // Back after the due time: each recipient gets it once.
  const second = await startWorker();
  const deadline = Date.now() + 30_000;
  while (reminders().length < 2 && Date.now() < deadline) await sleep(250);
  expect(
    reminders()
      .map((m) => m.envelope.to)
      .flat()
      .sort(),
  ).toEqual([as.user.email, guest].sort());
  // A further poll of the same worker, and a third start after a clean stop, add nothing.
  await sleep(6000);
  await stop(second, 'SIGTERM');
  const third = await startWorker();
  await sleep(7000);
  await stop(third, 'SIGTERM');
  expect(reminders()).toHaveLength(2);
});
