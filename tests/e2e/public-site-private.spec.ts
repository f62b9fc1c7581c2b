// Issue 35, item 4: the public pages of a private server. The suite's own server runs with the
// Stripe stand-in (billing on: the hosted site, public-pages.spec.ts); this spec starts an instance
// of the same build without Stripe keys and without SALES_EMAIL, as a fresh install is, and looks
// at it as a visitor and as its admin would.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { sealData } from 'iron-session';
import { seriousViolations } from './support/axe';
import { E2E_SESSION_SECRET } from './support/constants.mjs';
import { BILLING_OFF, createDatabase, extraPort, seed, startInstance, type Instance } from './support/instances';
import { messages } from './support/messages';

const en = messages('en');
const de = messages('de');
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let instance: Instance;
let database: Awaited<ReturnType<typeof createDatabase>>;
let url: string;
let meetingId: string;
let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  database = await createDatabase();
  const env = {
    DATABASE_URL: database.url,
    ...BILLING_OFF,
    HOME_PAGE: '',
    SALES_EMAIL: '',
    SMTP_URL: `smtp://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`,
  };
  instance = await startInstance(extraPort(50), env);
  url = instance.url;
  // The seeded account is an admin with a room, as `npm run db:seed` makes it.
  const seeded = seed(env, `operator.${Date.now()}@example.test`) as { userId: string; meetingId: string; sessionVersion?: number };
  meetingId = seeded.meetingId;
  const cookie = await sealData(
    { userId: seeded.userId, version: seeded.sessionVersion ?? 0, role: 'admin', sid: crypto.randomUUID() },
    { password: E2E_SESSION_SECRET, ttl: 3600 },
  );
  admin = await browser.newContext();
  await admin.addCookies([{ name: 'enclave_session', value: cookie, url, httpOnly: true, sameSite: 'Lax' }]);
});

test.afterAll(async () => {
  await admin?.close();
  await instance?.stop();
  await database?.drop();
});

/** Saves Admin → Configuration's public pages, through the form as an operator would. */
async function configurePublicPages(fields: { sentence?: string; privacy?: string; imprint?: string; homePage?: string }) {
  const page = await admin.newPage();
  await page.goto(`${url}/admin/configuration`);
  const c = en.AdminConfiguration;
  const group = page.getByRole('group', { name: c.publicPages });
  if (fields.homePage !== undefined) await group.getByLabel(c.homePage).selectOption(fields.homePage);
  if (fields.sentence !== undefined) await group.getByLabel(c.homeSentence).fill(fields.sentence);
  if (fields.privacy !== undefined) await group.getByLabel(c.privacyText, { exact: true }).fill(fields.privacy);
  if (fields.imprint !== undefined) await group.getByLabel(c.imprintText).fill(fields.imprint);
  await expect(group).toContainText(c.contactOff);
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/admin/configuration') && response.request().method() === 'POST');
  await page.getByRole('button', { name: c.save }).click();
  expect(await (await saved).json()).toMatchObject({ status: 'ok' });
  await page.close();
}

async function joinWith(page: Page, value: string) {
  const form = page.getByRole('form', { name: en.PrivateHome.join.title });
  await form.getByLabel(en.PrivateHome.join.label).fill(value);
  await form.getByRole('button', { name: en.PrivateHome.join.submit }).click();
  return form;
}

test('a visitor\u2019s / is the plain home: brand, sentence, sign in, register; no prices, plans, sales or contact form', async ({ page }) => {
  await page.goto(`${url}/`);
  await expect(page).toHaveTitle(`Enclave – ${en.Routes.homePrivate}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Enclave');
  await expect(main.getByText(en.PrivateHome.sentence)).toBeVisible();
  await expect(main.getByRole('link', { name: en.PrivateHome.signIn })).toHaveAttribute('href', '/login');
  await expect(main.getByRole('link', { name: en.PrivateHome.register })).toHaveAttribute('href', '/register');

  // Nothing of the hosted service's sales site.
  await expect(page.locator('#plans')).toHaveCount(0);
  await expect(page.getByText(en.Home.trustedTitle)).toHaveCount(0);
  await expect(page.getByText(/\$\d|€|free trial/i)).toHaveCount(0);
  await expect(page.getByRole('link', { name: en.Public.pricing })).toHaveCount(0);
  await expect(page.getByRole('link', { name: en.Public.enterprise })).toHaveCount(0);
  await expect(page.getByRole('link', { name: en.Public.contactSales })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: en.Public.registerPlain })).toHaveCount(1);

  // The sales page does not exist here, and /contact says why instead of mailing no-reply@localhost.
  expect((await page.request.get(`${url}/enterprise`)).status()).toBe(404);
  const refused = await page.request.post(`${url}/contact`, {
    data: { name: 'Ada Lovelace', email: 'ada@example.test', message: 'Hello' },
    headers: { origin: url },
  });
  expect(refused.status()).toBe(404);
  expect(await refused.json()).toMatchObject({ status: 'error', errorCode: 'contact_not_configured', message: en.Errors.contact_not_configured });

  // In German too.
  await page.goto(`${url}/de`);
  await expect(page.getByRole('main').getByText(de.PrivateHome.sentence)).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: de.PrivateHome.signIn })).toHaveAttribute('href', '/de/login');
});

test('"Join a meeting" takes an id or a whole link, keeps the #k= key, and says what is wrong with bad input', async ({ page }) => {
  await page.goto(`${url}/`);
  const j = en.PrivateHome.join;
  let form = await joinWith(page, '   ');
  await expect(form.getByRole('alert')).toHaveText(j.empty);
  form = await joinWith(page, 'not a meeting');
  await expect(form.getByRole('alert')).toHaveText(j.invalid.replace('{example}', 'https://…/now/abc123'));
  await expect(form.getByLabel(j.label)).toHaveAttribute('aria-invalid', 'true');
  form = await joinWith(page, `https://elsewhere.example/now/${meetingId}`);
  await expect(form.getByRole('alert')).toHaveText(j.otherServer);
  form = await joinWith(page, 'no-such-meeting-here');
  await expect(form.getByRole('alert')).toHaveText(j.notFound);
  await expect(page).toHaveURL(`${url}/`);

  // A bare id, typed and sent with Enter: the lobby.
  await page.getByLabel(j.label).fill(meetingId);
  await page.getByLabel(j.label).press('Enter');
  await expect(page).toHaveURL(`${url}/now/${meetingId}`);

  // A whole link, in German: the German lobby, reached with the key fragment intact (the lobby
  // then takes the key out of the address bar, so the navigation itself is what is checked).
  await page.goto(`${url}/de`);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  const dj = de.PrivateHome.join;
  await page.getByLabel(dj.label).fill(`${url}/now/${meetingId}#k=test-key-fragment`);
  await page.getByRole('button', { name: dj.submit }).click();
  await expect(page).toHaveURL(`${url}/de/now/${meetingId}`);
  expect(visited).toContain(`${url}/de/now/${meetingId}#k=test-key-fragment`);
});

test('/privacy has a true default policy, linked from the footer and the register form; no imprint until one is written', async ({ page }) => {
  await page.goto(`${url}/`);
  await page.getByRole('contentinfo').getByRole('link', { name: en.Public.privacy }).click();
  await expect(page).toHaveURL(`${url}/privacy`);
  await expect(page).toHaveTitle(`Enclave – ${en.Routes.privacy}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(en.Privacy.title);
  for (const section of ['account', 'meetings', 'media', 'cookies', 'rights', 'contact'] as const) {
    await expect(main.getByRole('heading', { level: 2, name: en.PrivacyDefault[section].title })).toBeVisible();
  }
  // Billing off: no payment section; no SALES_EMAIL: the operator, not an address.
  await expect(main.getByRole('heading', { name: en.PrivacyDefault.billing.title })).toHaveCount(0);
  await expect(main.getByText(en.PrivacyDefault.contact.bodyNone.replace('{brand}', 'Enclave'))).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('link', { name: en.Public.imprint })).toHaveCount(0);
  expect((await page.request.get(`${url}/imprint`)).status()).toBe(404);

  await page.goto(`${url}/register`);
  await page.getByRole('main').getByRole('link', { name: 'privacy policy' }).click();
  await expect(page).toHaveURL(`${url}/privacy`);

  // Last: a /de/ page makes German the visitor's language from here on.
  await page.goto(`${url}/de/privacy`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.Privacy.title);
  await expect(page.getByRole('heading', { level: 2, name: de.PrivacyDefault.media.title })).toBeVisible();
});

test('the admin writes the sentence, a privacy policy and an imprint: shown as text, linked, in the sitemap', async ({ page }) => {
  const imprint = '# Example Choir e.V.\n\nMusterstraße 1\n10115 Berlin\n\n<script>window.injected = true</script>';
  await configurePublicPages({
    sentence: 'Rehearsals and board meetings of the Example Choir.',
    privacy: '# Our policy\n\n- We keep your account.\n- Media stays between you.',
    imprint,
  });

  await page.goto(`${url}/`);
  await expect(page.getByRole('main').getByText('Rehearsals and board meetings of the Example Choir.')).toBeVisible();
  await page.getByRole('contentinfo').getByRole('link', { name: en.Public.imprint }).click();
  await expect(page).toHaveURL(`${url}/imprint`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(en.Imprint.title);
  await expect(main.getByRole('heading', { level: 2 })).toHaveText('Example Choir e.V.');
  // What looks like markup is shown as the characters typed, never run.
  await expect(main.getByText('<script>window.injected = true</script>')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();

  await page.goto(`${url}/privacy`);
  await expect(page.getByRole('main').getByRole('listitem')).toHaveText(['We keep your account.', 'Media stays between you.']);
  await expect(page.getByRole('heading', { name: en.PrivacyDefault.account.title })).toHaveCount(0);

  const sitemap = await (await page.request.get(`${url}/sitemap.xml`)).text();
  expect(sitemap).toContain(`<loc>${url}/imprint</loc>`);
  expect(sitemap).toContain(`<loc>${url}/de/privacy</loc>`);
  expect(sitemap).not.toContain('/enterprise');

  // Emptied again: the built-in policy and no imprint.
  await configurePublicPages({ sentence: '', privacy: '', imprint: '' });
  expect((await page.request.get(`${url}/imprint`)).status()).toBe(404);
  await page.goto(`${url}/privacy`);
  await expect(page.getByRole('heading', { name: en.PrivacyDefault.account.title })).toBeVisible();
});

test('/download shows only what this server offers', async ({ page }) => {
  await page.goto(`${url}/download`);
  await expect(page.getByText(en.Download.notOffered)).toHaveCount(0);
  for (const platform of Object.values(en.Download.platforms)) {
    await expect(page.getByRole('heading', { name: platform, level: 2 })).toHaveCount(0);
  }
  await expect(page.getByRole('heading', { name: en.Download.installTitle.replace('{brand}', 'Enclave') })).toBeVisible();
  await expect(page.getByRole('heading', { name: en.Download.feedTitle })).toBeVisible();
});

test('axe finds no serious or critical violation on the plain home (with a join error showing), /privacy and /download', async ({ page }) => {
  await page.goto(`${url}/`);
  const form = await joinWith(page, 'not a meeting');
  await expect(form.getByRole('alert')).toBeVisible();
  expect(await seriousViolations(page), '/').toEqual([]);
  for (const route of ['/privacy', '/download']) {
    await page.goto(`${url}${route}`);
    expect(await seriousViolations(page), route).toEqual([]);
  }
});

test('the admin may choose the marketing home: no prices without billing; closed registration hides Register', async ({ page }) => {
  await configurePublicPages({ homePage: 'marketing' });
  await page.goto(`${url}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.Home.heroTitle);
  await expect(page.getByRole('link', { name: en.Home.ctaRegister })).toBeVisible();
  await expect(page.locator('#plans')).toHaveCount(0);
  await expect(page.getByText(en.Home.trustedTitle)).toHaveCount(0);
  await expect(page.getByText(en.Home.noCard)).toHaveCount(0);
  // The sales page exists on the marketing site, without a form that nobody would read.
  await page.goto(`${url}/enterprise`);
  await expect(page.locator('#contact')).toHaveCount(0);

  const closed = await admin.request.post(`${url}/api/admin/configuration`, { data: { home_page: null, registration: 'closed' }, headers: { origin: url } });
  expect(await closed.json()).toMatchObject({ status: 'ok' });
  await page.goto(`${url}/`);
  await expect(page.getByRole('main').getByRole('link', { name: en.PrivateHome.signIn })).toBeVisible();
  await expect(page.getByRole('link', { name: en.PrivateHome.register })).toHaveCount(0);
  const sitemap = await (await page.request.get(`${url}/sitemap.xml`)).text();
  expect(sitemap).not.toContain(`<loc>${url}/register</loc>`);
});
