import { eq, sql } from 'drizzle-orm';
import type * as ConfigModule from '@/lib/environment';
import type * as DbModule from '@/lib/db/client';
import type * as MailModule from '@/lib/mail';
import type * as MailboxRoute from '@/app/dev/mailbox/route';
import type * as ApiSupport from '../support/api';
import { mailOutbox } from '@/lib/db/schema';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';
import { useOwnPostgresDatabase } from '../support/own-postgres-database';

let smtp: TestSmtpServer;
let mail: typeof MailModule;
let config: (typeof ConfigModule)['config'];
let db: DbModule.Database;
let closeDb: () => Promise<void>;
let dropOwnDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // lib/environment reads the environment once, when first imported: every module that reaches it
  // is imported below, after SMTP_URL points at this server.
  process.env.SMTP_URL = smtp.url;
  dropOwnDatabase = await useOwnPostgresDatabase('enclave_test_mail');
  mail = await import('@/lib/mail');
  ({ config } = await import('@/lib/environment'));
  const client = await import('@/lib/db/client');
  db = await client.getDb();
  closeDb = client.closeDb;
}, 30_000);

afterAll(async () => {
  await closeDb?.();
  await dropOwnDatabase?.();
  await smtp?.close();
});

let counter = 0;
const address = (name: string) => `${name}-${++counter}@mail.test`;
const rowsTo = (to: string) => db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
const receivedBy = (to: string) => smtp.messages.filter((m) => m.envelope.to.includes(to));
const activation = (to: string, extra: Partial<MailModule.EnqueueMailInput> = {}) =>
  mail.enqueueMail(db, {
    to,
    locale: 'en',
    template: 'activation',
    data: { firstName: 'Eve', link: 'https://enclave.test/invitation/activate?token=t' },
    ...extra,
  } as MailModule.EnqueueMailInput);
/** Makes a mail due now, as if its backoff had passed. */
const makeDue = (to: string) =>
  db
    .update(mailOutbox)
    .set({ sendAfter: sql`now()` })
    .where(eq(mailOutbox.to, to));
const secondsUntil = (date: Date) => (date.getTime() - Date.now()) / 1000;

describe('mail through the outbox and a real SMTP server', () => {
  it('an enqueued mail is delivered to the recipient, rendered, with names escaped in HTML', async () => {
    const to = address('eve');
    const link = 'https://enclave.test/invitation/activate?token=abc';
    await mail.enqueueMail(db, {
      to,
      locale: 'en',
      template: 'activation',
      data: { firstName: '<b>Eve</b>', link },
    });
    expect(await rowsTo(to)).toMatchObject([{ status: 'pending', attempts: 0 }]);

    expect(await mail.deliverDueMail()).toEqual({ sent: 1, failed: 0 });
    const received = await smtp.waitFor((m) => m.envelope.to.includes(to), 1000);
    expect(received.to).toEqual([to]);
    expect(config.mailFrom).toContain(received.from);
    expect(received.subject).toBe(`Activate your ${config.brandName} account`);
    expect(received.text).toContain('Hello <b>Eve</b>,');
    expect(received.text).toContain(link);
    expect(received.html).toContain('Hello &lt;b&gt;Eve&lt;/b&gt;,');
    expect(received.html).not.toContain('<b>Eve</b>');
    expect(received.html).toContain(`href="${link}"`);

    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ status: 'sent', attempts: 0, lastError: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it("a mail is written in the recipient's language", async () => {
    const to = address('dora');
    await activation(to, { locale: 'de' });
    await mail.deliverDueMail();
    const received = await smtp.waitFor((m) => m.envelope.to.includes(to), 1000);
    expect(received.html).toMatch(/<html lang="de">/);
    expect(received.subject).toContain(config.brandName);
  });

  it('an idempotency key queues a mail once, even after it was sent', async () => {
    const to = address('once');
    const idempotencyKey = `reminder:${to}`;
    await activation(to, { idempotencyKey });
    await activation(to, { idempotencyKey });
    expect(await rowsTo(to)).toHaveLength(1);
    expect(await mail.deliverDueMail()).toEqual({ sent: 1, failed: 0 });
    await activation(to, { idempotencyKey });
    expect(await mail.deliverDueMail()).toEqual({ sent: 0, failed: 0 });
    expect(await rowsTo(to)).toHaveLength(1);
    expect(receivedBy(to)).toHaveLength(1);
  });

  it('a mail queued in a transaction that rolls back is never sent', async () => {
    const to = address('rollback');
    await expect(
      db.transaction(async (tx) => {
        await mail.enqueueMail(tx, {
          to,
          locale: 'en',
          template: 'emailChanged',
          data: { firstName: 'Eve', newEmail: 'new@mail.test' },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await rowsTo(to)).toHaveLength(0);

    await db.transaction((tx) =>
      mail.enqueueMail(tx, {
        to,
        locale: 'en',
        template: 'emailChanged',
        data: { firstName: 'Eve', newEmail: 'new@mail.test' },
      }),
    );
    expect(await rowsTo(to)).toHaveLength(1);
    expect(await mail.deliverDueMail()).toEqual({ sent: 1, failed: 0 });
  });

  it('a mail for later waits until its sendAfter', async () => {
    const to = address('later');
    await activation(to, { sendAfter: new Date(Date.now() + 3_600_000) });
    expect(await mail.deliverDueMail()).toEqual({ sent: 0, failed: 0 });
    await makeDue(to);
    expect(await mail.deliverDueMail()).toEqual({ sent: 1, failed: 0 });
    expect(receivedBy(to)).toHaveLength(1);
  });

  it('a refused mail stays queued with a backoff, then goes out: nothing is lost', async () => {
    const to = address('retry');
    await activation(to);
    smtp.failNext(1);
    expect(await mail.deliverDueMail()).toEqual({ sent: 0, failed: 1 });

    const [failed] = await rowsTo(to);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(failed!.lastError).toMatch(/451/);
    expect(secondsUntil(failed!.sendAfter)).toBeGreaterThan(20);
    expect(secondsUntil(failed!.sendAfter)).toBeLessThanOrEqual(31);
    expect(receivedBy(to)).toHaveLength(0);
    // Not due again before the backoff has passed.
    expect(await mail.deliverDueMail()).toEqual({ sent: 0, failed: 0 });

    await makeDue(to);
    expect(await mail.deliverDueMail()).toEqual({ sent: 1, failed: 0 });
    expect(await rowsTo(to)).toMatchObject([{ status: 'sent', attempts: 1 }]);
    expect(receivedBy(to)).toHaveLength(1);
  });

  it('the backoff doubles up to one hour, and the 10th failure gives the mail up', async () => {
    const to = address('hopeless');
    await activation(to);
    await db.update(mailOutbox).set({ attempts: 8 }).where(eq(mailOutbox.to, to));
    smtp.failNext(1);
    await mail.deliverDueMail();
    const [ninth] = await rowsTo(to);
    expect(ninth).toMatchObject({ status: 'pending', attempts: 9 });
    // 30 s × 2^8 would be 2 h 8 min: capped at 1 h.
    expect(secondsUntil(ninth!.sendAfter)).toBeGreaterThan(3590);
    expect(secondsUntil(ninth!.sendAfter)).toBeLessThanOrEqual(3601);

    await makeDue(to);
    smtp.failNext(1);
    expect(await mail.deliverDueMail()).toEqual({ sent: 0, failed: 1 });
    expect(await rowsTo(to)).toMatchObject([{ status: 'failed', attempts: 10 }]);
    await makeDue(to);
    expect(await mail.deliverDueMail()).toEqual({ sent: 0, failed: 0 });
    expect(receivedBy(to)).toHaveLength(0);
  });

  it('two deliveries at once send each mail exactly once', async () => {
    const recipients = Array.from({ length: 12 }, () => address('crowd'));
    for (const to of recipients) await activation(to);

    const rounds: number[][] = [];
    for (;;) {
      const results = await Promise.all([mail.deliverDueMail({ limit: 5 }), mail.deliverDueMail({ limit: 5 })]);
      expect(results.every((r) => r.failed === 0)).toBe(true);
      if (results.every((r) => r.sent === 0)) break;
      rounds.push(results.map((r) => r.sent));
    }
    // Both took a share at the same time, never the same rows.
    expect(rounds[0]).toEqual([5, 5]);
    expect(rounds.flat().reduce((a, b) => a + b)).toBe(12);
    for (const to of recipients) expect(receivedBy(to)).toHaveLength(1);
  });

  it('the worker sends a kicked mail at once; stopped, it sends nothing', async () => {
    const to = address('kicked');
    const stop = mail.startMailWorker();
    try {
      await activation(to);
      mail.kickMailWorker();
      await smtp.waitFor((m) => m.envelope.to.includes(to), 1500);
    } finally {
      stop();
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // a run under way ends

    const after = address('after-stop');
    await activation(after);
    mail.kickMailWorker();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rowsTo(after)).toMatchObject([{ status: 'pending' }]);
    expect(await mail.deliverDueMail()).toEqual({ sent: 1, failed: 0 });
  });
});

describe('development without SMTP_URL: the dev mailbox', () => {
  it('a due mail counts as sent and is written to the log with its text', async () => {
    const to = address('dev');
    await activation(to);
    const logged = jest.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await jest.isolateModulesAsync(async () => {
        delete process.env.SMTP_URL;
        const devMail = await import('@/lib/mail');
        expect(await devMail.deliverDueMail()).toEqual({ sent: 1, failed: 0 });
      });
      const lines = logged.mock.calls.map(([line]) => JSON.parse(String(line)));
      expect(lines).toContainEqual(
        expect.objectContaining({
          message: 'mail (dev mailbox)',
          to,
          subject: `Activate your ${config.brandName} account`,
          text: expect.stringContaining('https://enclave.test/invitation/activate?token=t'),
        }),
      );
    } finally {
      logged.mockRestore();
      process.env.SMTP_URL = smtp.url;
    }
    expect(await rowsTo(to)).toMatchObject([{ status: 'sent' }]);
    expect(receivedBy(to)).toHaveLength(0);
  });

  it('GET /dev/mailbox lists the newest mails first, escaped; production answers 404', async () => {
    const { GET }: typeof MailboxRoute = await import('@/app/dev/mailbox/route');
    const { call }: typeof ApiSupport = await import('../support/api');
    const older = address('older');
    const newer = address('newer');
    await activation(older);
    await mail.enqueueMail(db, {
      to: newer,
      locale: 'en',
      template: 'contactSales',
      data: { name: '<script>alert(1)</script>', email: 'buyer@mail.test', message: 'Hi' },
    });

    const answer = await call(GET, { path: '/dev/mailbox' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(answer.text).not.toContain('<script>');
    expect(answer.text.indexOf(newer)).toBeGreaterThan(0);
    expect(answer.text.indexOf(newer)).toBeLessThan(answer.text.indexOf(older));
    expect(answer.text).toMatch(/<pre>New sales enquiry\n/);

    const env = process.env as Record<string, string | undefined>;
    const nodeEnv = env.NODE_ENV;
    env.NODE_ENV = 'production';
    try {
      const hidden = await call(GET, { path: '/dev/mailbox' });
      expect(hidden.status).toBe(404);
      expect(hidden.text).not.toContain(newer);
    } finally {
      env.NODE_ENV = nodeEnv;
    }
  });
});
