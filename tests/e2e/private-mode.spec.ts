// Issue 35, item 1: a fresh install without Stripe keys is a private server (billing off). The
// suite's own server runs with the Stripe stand-in (billing on), so this test starts an instance
// of the same build without the keys, on a fresh PostgreSQL database, and looks at it as a new
// account would: no trial, nothing that says "choose a plan", rooms can be added, and the billing
// screen says there is no billing. An admin whose trial ended (made as on a hosted server) meets.
import { expect, test } from '@playwright/test';
import { sealData } from 'iron-session';
import { E2E_SESSION_SECRET } from './support/constants.mjs';
import { BILLING_OFF, createDatabase, extraPort, seed, startInstance, type Instance } from './support/instances';
import { firstLink, waitForMail } from './support/mailbox';
import { localized, messages } from './support/messages';
import { sweep, widths } from './support/layout';

const en = messages('en');
test.describe.configure({ timeout: 180_000 });

test('billing off: no trial, no "Choose a plan", rooms can be added, and the billing screen says why', async ({ browser }, testInfo) => {
  const database = await createDatabase();
  let instance: Instance | undefined;
  const env = {
    DATABASE_URL: database.url,
    // No Stripe keys at all: the default of a fresh install.
    ...BILLING_OFF,
    SMTP_URL: `smtp://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`,
    MAIL_LOG: '',
  };
  const context = await browser.newContext();
  try {
    instance = await startInstance(extraPort(14), env);
    const url = instance.url;
    // One line in the log says which mode runs and why.
    expect(instance.output().match(/Billing (on|off):[^"]*/g)).toEqual([
      'Billing off: no STRIPE_SECRET_KEY (a private server: no trial, limits from the admin\u2019s configuration)',
    ]);

    const page = await context.newPage();
    const email = `private.${Date.now()}@example.test`;
    const password = 'Quiet-Harbour-42';
    // The FAQ asks nothing about trials, prices or plans, and gives the admin's participant limit.
    await page.goto(`${url}/faq`);
    await expect(page.getByRole('heading', { name: en.Faq.title })).toBeVisible();
    await expect(page.getByRole('heading', { name: en.Faq.groups.billing })).toHaveCount(0);
    expect(await page.locator('main').innerText()).not.toMatch(/trial|price/i);
    await page.getByText(en.Faq.participantsQ).click();
    await expect(page.getByText(en.Faq.participantsANoBilling.replace('{count}', '30'))).toBeVisible();

    await page.goto(`${url}/register`);
    // The register page promises no trial, neither in its text nor in its description for search engines.
    await expect(page.getByText(en.Register.introNoTrial)).toBeVisible();
    await expect(page.getByText(en.Register.intro)).toHaveCount(0);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).not.toMatch(/14/);
    await page.getByLabel(en.Forms.firstName).fill('Pia');
    await page.getByLabel(en.Forms.lastName).fill('Private');
    await page.getByLabel(en.Forms.email, { exact: true }).fill(email);
    await page.getByLabel(en.Forms.password, { exact: true }).fill(password);
    await page.getByLabel(en.Forms.passwordConfirm).fill(password);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: en.Register.submit }).click();
    await expect(page.getByRole('heading', { name: en.Register.doneTitle })).toBeVisible();
    await page.goto(firstLink(await waitForMail(email)));
    await expect(page.getByText(en.Activation.activated)).toBeVisible();

    await page.goto(`${url}/login`);
    await page.getByLabel(en.Forms.email, { exact: true }).fill(email);
    await page.getByLabel(en.Forms.password, { exact: true }).fill(password);
    await page.getByRole('button', { name: en.Login.submit }).click();
    const setup = page.getByRole('dialog', { name: en.QuickSetup.title });
    await expect(setup).toBeVisible();
    await setup.getByLabel(en.QuickSetup.roomName).fill('Pia board room');
    await setup.getByRole('button', { name: en.QuickSetup.save }).click();
    await expect(setup).toBeHidden();

    // The dashboard: no trial notice, no billing dialog, nothing to choose.
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('complementary', { name: en.Billing.sectionTitle })).toHaveCount(0);
    await expect(page.getByText(/free trial/i)).toHaveCount(0);
    await expect(page.getByText(en.Billing.choosePlan, { exact: true })).toHaveCount(0);
    await expect(page.getByRole('dialog', { name: en.Billing.title })).toHaveCount(0);

    // A second room, past the individual plan's single one: the configured 10 apply.
    await page.goto(`${url}/admin`);
    await expect(page.getByText('1 of 10 rooms')).toBeVisible();
    await page.getByRole('button', { name: en.Rooms.add }).click();
    const dialog = page.getByRole('dialog', { name: en.Rooms.addTitle });
    await dialog.getByLabel(en.Rooms.name, { exact: true }).fill('Pia second room');
    await dialog.getByRole('button', { name: en.Manage.save }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('list', { name: en.Rooms.listLabel }).getByRole('heading', { name: 'Pia second room' })).toBeVisible();
    await expect(page.getByText('2 of 10 rooms')).toBeVisible();

    // The billing screen explains, and shows the limits; no plan, price or trial.
    await page.goto(`${url}/settings#billing`);
    const billing = page.locator('#billing');
    await expect(billing.getByRole('note')).toHaveText(en.Billing.off);
    await expect(billing).toContainText(`${en.Billing.participantsCount}30`);
    await expect(billing).toContainText(`${en.Billing.roomsCount}10`);
    await expect(billing.getByText(en.Billing.plan, { exact: true })).toHaveCount(0);
    await expect(billing.getByText(en.Billing.trialEnd, { exact: true })).toHaveCount(0);
    await expect(billing.getByText(/free trial/i)).toHaveCount(0);
    await expect(page.getByText(en.Billing.choosePlan, { exact: true })).toHaveCount(0);

    // An admin whose 14 days ran out (as they would have with billing on) is not stopped.
    const seeded = seed({ ...env, SEED_TRIAL_ENDED: '1' }, `ended.${Date.now()}@example.test`) as {
      userId: string;
      meetingId: string;
      sessionVersion?: number;
    };
    const cookie = await sealData(
      { userId: seeded.userId, version: seeded.sessionVersion ?? 0, role: 'admin', sid: crypto.randomUUID() },
      { password: E2E_SESSION_SECRET, ttl: 3600 },
    );
    const admin = await browser.newContext();
    try {
      await admin.addCookies([{ name: 'enclave_session', value: cookie, url, httpOnly: true, sameSite: 'Lax' }]);
      const adminPage = await admin.newPage();
      await adminPage.goto(`${url}/`);
      await expect(adminPage.getByRole('main')).toBeVisible();
      await expect(adminPage.getByRole('dialog', { name: en.Billing.title })).toHaveCount(0);
      await expect(adminPage.getByText(/free trial/i)).toHaveCount(0);
      await adminPage.goto(`${url}/now/${seeded.meetingId}`);
      await expect(adminPage.getByRole('button', { name: /^(Join now|Ask to join)$/ })).toBeVisible();
      await expect(adminPage.getByText(en.Errors.trial_ended)).toHaveCount(0);

      // Issue 48, point 4: no plan, trial or price on any screen of a server without billing.
      const money = /trial|price|per room|\bplans?\b|by card|individual|executive|billing amount/i;
      await adminPage.goto(`${url}/admin/users`);
      const users = adminPage.getByRole('table', { name: en.AdminUsers.listLabel });
      await expect(users.getByRole('columnheader', { name: en.AdminUsers.rooms })).toBeVisible();
      await expect(users.getByRole('columnheader', { name: en.AdminUsers.plan })).toHaveCount(0);
      await expect(users.getByRole('columnheader', { name: en.AdminUsers.trialEnds })).toHaveCount(0);
      expect(await adminPage.getByRole('main').innerText()).not.toMatch(money);

      // One participant limit, and a line that says what it limits; no price.
      await adminPage.goto(`${url}/admin/configuration`);
      await expect(adminPage.getByLabel(en.AdminConfiguration.participantsPerMeeting)).toHaveValue('30');
      await expect(adminPage.getByText(en.AdminConfiguration.participantsLimits, { exact: false })).toBeVisible();
      await expect(adminPage.getByLabel(en.AdminConfiguration.maxAttendees)).toHaveCount(0);
      await expect(adminPage.getByLabel(en.AdminConfiguration.price)).toHaveCount(0);
      // (The home-page choice still names the sales site, which an operator may pick.)
      expect(await adminPage.getByRole('main').innerText()).not.toMatch(/price per room|per room and month|trial ends|attendees per event/i);

      // The built-in terms fit the server: nothing to pay, sections numbered without a gap.
      await adminPage.goto(`${url}/terms-of-service`);
      await expect(adminPage.getByRole('heading', { name: en.Terms.title })).toBeVisible();
      expect(await adminPage.getByRole('main').innerText()).not.toMatch(money);
      await expect(adminPage.getByRole('heading', { name: /^3\. / })).toHaveText(`3. ${en.Terms.sections.use.title.replace(/^\d+\.\s*/, '')}`);

      // The operator writes their own terms, as they do the privacy policy; registration shows them.
      await adminPage.goto(`${url}/admin/configuration`);
      await adminPage.getByLabel(en.AdminConfiguration.termsText).fill('# House rules\n\nOnly staff of Example Ltd may use this server.');
      await adminPage.getByRole('button', { name: en.AdminConfiguration.save }).click();
      await expect(adminPage.getByText(en.Toast.success)).toBeVisible();
      await adminPage.goto(`${url}/terms-of-service`);
      await expect(adminPage.getByRole('heading', { name: 'House rules' })).toBeVisible();
      await expect(adminPage.getByText('Only staff of Example Ltd may use this server.')).toBeVisible();
      const visitor = await browser.newContext();
      try {
        const register = await visitor.newPage();
        await register.goto(`${url}/register`);
        // The link in the "I agree" line opens the terms dialog.
        await register
          .locator('label', { has: register.getByRole('checkbox') })
          .getByRole('link')
          .click();
        const terms = register.getByRole('dialog', { name: en.Terms.title });
        await expect(terms.getByText('Only staff of Example Ltd may use this server.')).toBeVisible();
      } finally {
        await visitor.close();
      }

      // The account dialog: rooms and contacts, no plan, no "Manage plan and billing".
      await adminPage.goto(`${url}/`);
      await adminPage.getByRole('complementary').getByRole('button', { name: en.Nav.account }).click();
      const account = adminPage.getByRole('dialog', { name: en.AccountModal.title });
      await expect(account.getByText(en.AccountModal.roomsAvailable)).toBeVisible();
      await expect(account.getByRole('link', { name: en.AccountModal.managePlan })).toHaveCount(0);
      expect(await account.innerText()).not.toMatch(money);

      // The layout sweep over a billing-off server's own screens, in English and German (issue 48:
      // its screenshots are attached to this test).
      for (const locale of ['en', 'de']) {
        for (const route of ['/admin/users', '/admin/configuration', '/terms-of-service', '/settings']) {
          await adminPage.goto(`${url}${localized(locale, route)}`);
          for (const viewport of widths) await sweep(adminPage, testInfo, `private-${locale}${route}`, viewport);
        }
      }

      // GET /api/me agrees with the screens: no plan, no trial, one room count (the seeded
      // admin's granted 30 beat the configured 10).
      const me = await (await adminPage.request.get(`${url}/api/me`)).json();
      expect(me).toMatchObject({ accountType: null, isTrial: false, trialEndsAt: null, numberOfRooms: 30, account: { type: null, isTrial: false, rooms: 30 } });
    } finally {
      await admin.close();
    }
  } finally {
    await context.close();
    await instance?.stop();
    await database.drop();
  }
});

test('BILLING=stripe without the Stripe keys: the server stops at start and says what is missing', async () => {
  const database = await createDatabase();
  try {
    const started = startInstance(extraPort(16), {
      DATABASE_URL: database.url,
      BILLING: 'stripe',
      STRIPE_SECRET_KEY: '',
      STRIPE_PUBLISHABLE_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      ON_PREMISE: '',
    });
    await expect(started).rejects.toThrow(/exited: [\s\S]*Enclave will not start: BILLING=stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY/);
  } finally {
    await database.drop();
  }
});
