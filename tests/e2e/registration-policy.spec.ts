// Issue 35, item 2: a server that registers by invitation only. The suite's own server stays open,
// so this test starts an instance of the same build with REGISTRATION=invitation on a fresh
// database: the register page says why instead of showing a form, an admin invites someone from
// the admin area, the mail carries the link, and the invited person registers through it, once.
import { expect, test } from '@playwright/test';
import { sealData } from 'iron-session';
import { E2E_SESSION_SECRET } from './support/constants.mjs';
import { BILLING_OFF, createDatabase, extraPort, seed, startInstance, type Instance } from './support/instances';
import { firstLink, waitForMail } from './support/mailbox';
import { messages } from './support/messages';

const en = messages('en');
test.describe.configure({ timeout: 180_000 });

test('REGISTRATION=invitation: /register says why, an admin invites, the invited person registers once', async ({ browser }) => {
  const database = await createDatabase();
  let instance: Instance | undefined;
  const env = {
    DATABASE_URL: database.url,
    REGISTRATION: 'invitation',
    // A private server (billing off): nothing here is about plans.
    ...BILLING_OFF,
    SMTP_URL: `smtp://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`,
    MAIL_LOG: '',
  };
  const visitor = await browser.newContext();
  const adminContext = await browser.newContext();
  try {
    instance = await startInstance(extraPort(27), env);
    const url = instance.url;

    // Without an invitation: the reason and the way to log in, no form that would fail.
    const page = await visitor.newPage();
    const main = page.getByRole('main');
    await page.goto(`${url}/register`);
    await expect(main.getByRole('status')).toHaveText(en.Register.refused.invitationOnly);
    await expect(page.getByLabel(en.Forms.email, { exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: en.Register.submit })).toHaveCount(0);
    await expect(main.getByRole('link', { name: en.Register.login })).toBeVisible();

    // An admin (seeded as `npm run db:seed` makes one) invites from Admin → Configuration, by keyboard.
    const seeded = seed(env, `admin.${Date.now()}@example.test`) as { userId: string; sessionVersion?: number };
    const cookie = await sealData(
      { userId: seeded.userId, version: seeded.sessionVersion ?? 0, role: 'admin', sid: crypto.randomUUID() },
      { password: E2E_SESSION_SECRET, ttl: 3600 },
    );
    await adminContext.addCookies([{ name: 'enclave_session', value: cookie, url, httpOnly: true, sameSite: 'Lax' }]);
    const admin = await adminContext.newPage();
    await admin.goto(`${url}/admin/configuration`);
    const inviteSection = admin.getByRole('region', { name: en.InviteSomeone.title });
    const invitee = `invited.${Date.now()}@example.test`;
    await inviteSection.getByLabel(en.InviteSomeone.email).fill(invitee);
    await inviteSection.getByLabel(en.InviteSomeone.email).press('Enter');
    await expect(inviteSection.getByRole('status')).toHaveText(en.InviteSomeone.sent.replace('{email}', invitee));

    const invitation = await waitForMail(invitee, (mail) => mail.subject.includes('invites you'));
    const link = firstLink(invitation);
    expect(link).toMatch(new RegExp(`^${url}/register\\?invitation=[A-Za-z0-9_-]{43}$`));

    // Through the link: the form, with the invited address filled in and fixed.
    await page.goto(link);
    const email = page.getByLabel(en.Forms.email, { exact: true });
    await expect(email).toHaveValue(invitee);
    await expect(email).toHaveAttribute('readonly', '');
    const password = 'Invited-Harbour-42';
    await page.getByLabel(en.Forms.firstName).fill('Ivy');
    await page.getByLabel(en.Forms.lastName).fill('Invited');
    await page.getByLabel(en.Forms.password, { exact: true }).fill(password);
    await page.getByLabel(en.Forms.passwordConfirm).fill(password);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: en.Register.submit }).click();
    // The invitation proved the address (issue 48): no second mail to activate it, log in at once.
    await expect(page.getByRole('heading', { name: en.Register.readyTitle })).toBeVisible();
    await main.getByRole('link', { name: en.Register.login }).click();
    await page.getByLabel(en.Forms.email, { exact: true }).fill(invitee);
    await page.getByLabel(en.Forms.password, { exact: true }).fill(password);
    await page.getByRole('button', { name: en.Login.submit }).click();
    await expect(page.getByRole('dialog', { name: en.QuickSetup.title })).toBeVisible();

    // The link registers once: opened again, it says so.
    await page.goto(link);
    await expect(main.getByRole('status')).toHaveText(en.Register.refused.invitationInvalid);
    await expect(page.getByLabel(en.Forms.email, { exact: true })).toHaveCount(0);

    // The admin's setting overrides REGISTRATION: closed, through the configuration form.
    await admin.reload();
    const mode = admin.getByLabel(en.AdminConfiguration.registrationMode);
    await expect(mode).toHaveValue('');
    await expect(mode.locator('option:checked')).toHaveText(
      en.AdminConfiguration.registrationDefault.replace('{mode}', en.AdminConfiguration.registrationModes.invitation),
    );
    await mode.selectOption('closed');
    await admin.getByRole('button', { name: en.AdminConfiguration.save }).click();
    await expect(admin.getByText(en.Toast.success)).toBeVisible();
    await page.goto(`${url}/register`);
    await expect(main.getByRole('status')).toHaveText(en.Register.refused.closed);
    await expect(main.getByRole('link', { name: en.Register.login })).toBeVisible();
  } finally {
    await visitor.close();
    await adminContext.close();
    await instance?.stop();
    await database.drop();
  }
});
