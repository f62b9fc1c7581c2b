// The app's main flows under plain `next start`, without server/server.mjs (issue 34, item 7):
// what a platform that runs Next.js itself (Vercel and the like) gives. Signaling across that
// platform's instances needs Redis, so this instance has it, with PostgreSQL and real SMTP. What
// server/server.mjs adds is absent here and docs/self-hosting.md says so: the client's address
// for per-client rate limits, the 503 page while the database is down, the 414 for huge URLs, and
// the fast paths for signaling and the calendar.
import { expect, test } from '@playwright/test';
import { messages } from './support/messages';
import { firstLink, waitForMail } from './support/mailbox';
import { closedAfterEach, expectInCall, expectMediaFromPeers, joinMeeting, newParticipantContext } from './support/meeting';
import { createDatabase, extraPort, startInstance, type Instance } from './support/instances';

const en = messages('en');
test.describe.configure({ timeout: 240_000 });

const open = closedAfterEach();

test('under plain next start: register, activate by mail, log in, start a meeting, a guest joins and media flows', async ({ browser }) => {
  const database = await createDatabase();
  let instance: Instance | undefined;
  try {
    instance = await startInstance(extraPort(11), {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      SMTP_URL: `smtp://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`,
      MAIL_LOG: '',
    });
    expect(instance.output()).not.toContain('Enclave listening'); // server/server.mjs's line: this is next start
    const url = instance.url;
    const host = await newParticipantContext(browser, url);
    const page = await host.newPage();
    open.push({ context: host, page, name: 'Host' });

    const email = `next-start.${Date.now()}@example.test`;
    const password = 'Blue-Harbour-42';
    await page.goto('/register');
    await page.getByLabel(en.Forms.firstName).fill('Ada');
    await page.getByLabel(en.Forms.lastName).fill('Lovelace');
    await page.getByLabel(en.Forms.email, { exact: true }).fill(email);
    await page.getByLabel(en.Forms.password, { exact: true }).fill(password);
    await page.getByLabel(en.Forms.passwordConfirm).fill(password);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: en.Register.submit }).click();
    await expect(page.getByRole('heading', { name: en.Register.doneTitle })).toBeVisible();

    const activation = await waitForMail(email);
    expect(firstLink(activation).startsWith(`${url}/`)).toBe(true);
    await page.goto(firstLink(activation));
    await expect(page.getByText(en.Activation.activated)).toBeVisible();

    await page.goto('/login');
    await page.getByLabel(en.Forms.email, { exact: true }).fill(email);
    await page.getByLabel(en.Forms.password, { exact: true }).fill(password);
    await page.getByRole('button', { name: en.Login.submit }).click();
    const setup = page.getByRole('dialog', { name: en.QuickSetup.title });
    await expect(setup).toBeVisible();
    await setup.getByLabel(en.QuickSetup.roomName).fill('Ada board room');
    await setup.getByRole('button', { name: en.QuickSetup.save }).click();
    await expect(setup).toBeHidden();

    // One click from the dashboard to the room's lobby, then in.
    await page.getByRole('main').getByRole('link', { name: en.Dashboard.startNow }).click();
    await expect(page).toHaveURL(/\/now\/[\w-]+$/);
    const meetingId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('button', { name: /^(Join now|Ask to join)$/ }).click();
    await expectInCall(page);

    const guest = await joinMeeting(browser, url, meetingId, { name: 'Guest' });
    open.push(guest);
    await expect(page.getByRole('figure', { name: 'Guest', exact: true })).toBeVisible({ timeout: 20_000 });
    await expectMediaFromPeers(page, 1);
    await expectMediaFromPeers(guest.page, 1);
  } finally {
    for (const participant of open) await participant.context.close().catch(() => undefined);
    open.length = 0;
    await instance?.stop();
    await database.drop();
  }
});
