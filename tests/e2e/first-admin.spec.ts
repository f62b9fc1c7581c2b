// Issue 48, point 5: a fresh install's first admin without a shell or a stop, through the setup
// link its log shows; then, as that admin, the brand name in the public header and footer. On an
// instance of its own (its own PostgreSQL database, no admin yet): the suite's server has admins,
// and its brand name is read by tests running beside this one.
import { expect, test, type BrowserContext } from '@playwright/test';
import { createDatabase, extraPort, startInstance, BILLING_OFF, type Instance } from './support/instances';
import { firstLink, waitForMail } from './support/mailbox';
import { messages } from './support/messages';

const en = messages('en');
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let instance: Instance;
let database: Awaited<ReturnType<typeof createDatabase>>;
let person: BrowserContext;
const email = `first.admin.${Date.now()}@example.test`;
const password = 'Blue-Harbour-42';

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  database = await createDatabase();
  instance = await startInstance(extraPort(62), {
    DATABASE_URL: database.url,
    ...BILLING_OFF,
    SMTP_URL: `smtp://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`,
  });
  person = await browser.newContext();
});

test.afterAll(async () => {
  await person?.close();
  await instance?.stop();
  await database?.drop();
});

test('the log shows a setup link; a logged-in person who opens it becomes the admin, once', async () => {
  await expect.poll(() => /"setupLink":"([^"]+)"/.exec(instance.output())?.[1] ?? '').toMatch(/\/first-admin#[\w-]{43}$/);
  const link = /"setupLink":"([^"]+)"/.exec(instance.output())![1]!.replace(/^https?:\/\/[^/]+/, instance.url);

  // Register and activate, as the operator does first.
  const page = await person.newPage();
  const registered = await page.request.post(`${instance.url}/register`, {
    data: { firstName: 'Olga', lastName: 'Operator', email, password, passwordConfirm: password, agree: true, timezone: 'Europe/Berlin' },
    headers: { origin: instance.url },
  });
  expect(registered.ok()).toBe(true);
  const activation = firstLink(await waitForMail(email)).replace(/^https?:\/\/[^/]+/, instance.url);
  expect((await page.request.get(activation)).ok()).toBe(true);

  // Opened before logging in: the page asks for a login, and keeps the link's token meanwhile.
  await page.goto(link);
  await expect(page).toHaveURL(/\/first-admin$/);
  await page.getByRole('main').getByRole('link', { name: en.FirstAdmin.login }).click();
  await page.getByLabel(en.Forms.email, { exact: true }).fill(email);
  await page.getByLabel(en.Forms.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: en.Login.submit }).click();
  await expect(page).toHaveURL(/\/first-admin$/);
  // A new account's first-time setup comes first (its first room).
  const setup = page.getByRole('dialog', { name: en.QuickSetup.title });
  await setup.getByLabel(en.QuickSetup.roomName).fill('Operations room');
  await setup.getByRole('button', { name: en.QuickSetup.save }).click();
  await expect(setup).toBeHidden();
  await page.getByRole('button', { name: en.FirstAdmin.claim }).click();
  await expect(page.getByRole('status').filter({ hasText: en.FirstAdmin.done })).toBeVisible();
  await page.getByRole('link', { name: en.FirstAdmin.openAdmin }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('complementary').getByRole('link', { name: en.Nav.administration })).toBeVisible();

  // Spent: the same link makes nobody else an admin.
  const again = await page.request.post(`${instance.url}/api/first-admin`, { data: { token: link.split('#')[1] }, headers: { origin: instance.url } });
  expect((await again.json()).errorCode).toBe('incorrect_data');
});

test('the brand name set in the admin area is the public header logo and the footer copyright', async ({ browser }) => {
  const page = await person.newPage();
  const saved = await page.request.post(`${instance.url}/api/admin/configuration`, { data: { brandName: 'Acme Meet' }, headers: { origin: instance.url } });
  expect(saved.ok()).toBe(true);
  const visitor = await browser.newContext();
  const faq = await visitor.newPage();
  // Each route bundle keeps the name for up to 5 s (lib/configuration/brand.ts): the page follows within that.
  await expect
    .poll(
      async () => {
        await faq.goto(`${instance.url}/faq`);
        return faq.getByRole('banner').getByRole('link').first().innerText();
      },
      { timeout: 20_000 },
    )
    .toBe('Acme Meet');
  const year = String(new Date().getFullYear());
  await expect(faq.getByRole('contentinfo')).toContainText(en.Public.copyright.replace('{year}', year).replace('{brand}', 'Acme Meet'));
  await expect(faq.getByRole('contentinfo')).not.toContainText(`© ${year} Enclave`);
  await visitor.close();
});
