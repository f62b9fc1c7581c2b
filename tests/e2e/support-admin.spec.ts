import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { messages } from './support/messages';
import { firstLink, waitForMail } from './support/mailbox';
import { logIn as logInAsAdmin } from './support/session';

const en = messages('en');
const PASSWORD = 'Blue-Harbour-42';
let address = 0;

/** A plain user (role "user"), registered and activated through the API and the mailed link. */
async function plainUser(request: APIRequestContext, baseURL: string, tag: string): Promise<string> {
  const email = `e2e.${tag}.${Date.now()}@example.test`;
  address += 1;
  const headers = { origin: baseURL, 'x-forwarded-for': `198.51.100.${(process.pid % 200) + address}` };
  const registered = await request.post('/register', {
    data: { firstName: 'Pat', lastName: 'Plain', email, password: PASSWORD, passwordConfirm: PASSWORD, agree: true, timezone: 'Europe/Berlin' },
    headers,
  });
  expect(registered.ok()).toBe(true);
  const activation = await waitForMail(email);
  expect((await request.get(firstLink(activation), { headers })).ok()).toBe(true);
  return email;
}

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel(en.Forms.email, { exact: true }).fill(email);
  await page.getByLabel(en.Forms.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: en.Login.submit }).click();
}

/** The first-time setup asks a new account for its first room; answer it once. */
async function finishQuickSetup(page: Page) {
  const setup = page.getByRole('dialog', { name: en.QuickSetup.title });
  await expect(setup).toBeVisible();
  await setup.getByLabel(en.QuickSetup.roomName).fill('Pat planning room');
  await setup.getByRole('button', { name: en.QuickSetup.save }).click();
  await expect(setup).toBeHidden();
}

test.describe('issue 18: support tickets and the admin area', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a user opens a ticket, the admin answers, the user sees the reply and receives the mail', async ({ page, browser, baseURL }) => {
    const email = await plainUser(page.request, baseURL!, 'ticket');
    await logIn(page, email);
    await expect(page).toHaveURL(/\/$/);
    await finishQuickSetup(page);

    const subject = `Echo in calls ${Date.now()}`;
    await page.goto('/support');
    await expect(page.getByText(en.Support.empty)).toBeVisible();
    await page.getByRole('link', { name: en.Support.newTicket }).click();
    await expect(page).toHaveURL(/\/open-ticket$/);
    await page.getByLabel(en.Support.subject).fill(subject);
    await page.getByLabel(en.Support.category).selectOption('meetings');
    await page.getByLabel(en.OpenTicket.message).fill('Everyone hears themselves twice.');
    // A file that is not on the allow-list is refused before sending.
    await page.getByLabel(en.OpenTicket.attachment).setInputFiles({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<p>hi</p>') });
    await expect(page.getByText(en.OpenTicket.attachmentType)).toBeVisible();
    await page.getByLabel(en.OpenTicket.attachment).setInputFiles({ name: 'call.log', mimeType: 'text/plain', buffer: Buffer.from('echo detected\n') });
    await expect(page.getByText(en.OpenTicket.attachmentType)).toBeHidden();
    await page.getByRole('button', { name: en.OpenTicket.submit }).click();
    await expect(page).toHaveURL(/\/view-ticket\/[0-9a-f-]{36}$/);
    const ticketUrl = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
    await expect(page.getByRole('link', { name: /call\.log/ })).toBeVisible();

    // The admin answers from the queue.
    const adminContext = await browser.newContext();
    await logInAsAdmin(adminContext, baseURL!);
    const admin = await adminContext.newPage();
    await admin.goto('/admin/support');
    await admin.getByRole('link', { name: subject }).click();
    await expect(admin).toHaveURL(new RegExp(`${ticketUrl}$`));
    await admin.getByLabel(en.ViewTicket.staffReply).fill('Please use headphones or turn on echo cancellation.');
    await admin.getByRole('button', { name: en.ViewTicket.replySubmit }).click();
    await expect(admin.getByText('Please use headphones or turn on echo cancellation.')).toBeVisible();
    await adminContext.close();

    // The user sees the reply, marked as support's, and the ticket as answered…
    await page.reload();
    await expect(page.getByText('Please use headphones or turn on echo cancellation.')).toBeVisible();
    await expect(page.getByText(`${en.Support.status}: ${en.Support.statuses.answered}`)).toBeVisible();
    // …and the mail, in their language, with the link to the ticket.
    const mail = await waitForMail(email, (m) => m.subject === `Re: ${subject}`);
    expect(mail.text).toContain('Please use headphones or turn on echo cancellation.');
    expect(mail.text).toContain(ticketUrl);

    // Closing and reopening.
    await page.getByRole('button', { name: en.ViewTicket.close }).click();
    await expect(page.getByText(en.ViewTicket.closedNote)).toBeVisible();
    await page.getByRole('button', { name: en.ViewTicket.reopen }).click();
    await expect(page.getByLabel(en.ViewTicket.reply)).toBeVisible();
  });

  test('the admin disables a user, who then cannot log in', async ({ page, browser, baseURL }) => {
    const email = await plainUser(page.request, baseURL!, 'disable');
    const adminContext = await browser.newContext();
    await logInAsAdmin(adminContext, baseURL!);
    const admin = await adminContext.newPage();
    await admin.goto('/admin/users');
    await admin.getByRole('searchbox', { name: en.AdminUsers.search }).fill(email);
    await admin.getByRole('button', { name: en.AdminUsers.disableNamed.replace('{email}', email) }).click();
    const confirm = admin.getByRole('dialog', { name: en.AdminUsers.disableTitle });
    await confirm.getByRole('button', { name: en.AdminUsers.disable }).click();
    await expect(confirm).toBeHidden();
    const row = admin.getByRole('row').filter({ hasText: email });
    await expect(row.getByRole('cell', { name: en.AdminUsers.states.disabled, exact: true })).toBeVisible();

    // The audit log shows who did it.
    await admin.getByRole('link', { name: en.AdminArea.tabs.audit }).click();
    await expect(admin.getByRole('row').filter({ hasText: email }).filter({ hasText: en.AdminAudit.actions.disable_account })).toHaveCount(1);
    await adminContext.close();

    await logIn(page, email);
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(en.Errors.login_failed_expired);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('on a phone the accounts are cards with every field and action, and nothing scrolls sideways', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await logInAsAdmin(context, baseURL!);
    const admin = await context.newPage();
    await admin.goto('/admin/users');
    await admin.getByRole('searchbox', { name: en.AdminUsers.search }).fill('card@enclave.local');
    const card = admin.getByRole('list', { name: en.AdminUsers.listLabel }).getByRole('listitem').filter({ hasText: 'card@enclave.local' });
    await expect(card).toBeVisible();
    await expect(card.getByText(en.AdminUsers.plan, { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: en.AdminUsers.editPlanNamed.replace('{email}', 'card@enclave.local') })).toBeVisible();
    await expect(admin.getByRole('table')).toBeHidden();
    expect(await admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await context.close();
  });

  test('a plain user is sent home from the admin pages, and refused by the admin API', async ({ page, baseURL }) => {
    const email = await plainUser(page.request, baseURL!, 'plain');
    await logIn(page, email);
    await expect(page).toHaveURL(/\/$/);
    for (const path of ['/admin/users', '/admin/configuration', '/admin/support', '/admin/ratings', '/admin/audit', '/de/admin/users']) {
      await page.goto(path);
      await expect(page).toHaveURL(path.startsWith('/de') ? /\/de$/ : new RegExp(`${baseURL}/$`));
    }
    // The rooms list at /admin stays every user's; the sidebar has no administration entry.
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('complementary').getByRole('link', { name: en.Nav.rooms })).toBeVisible();
    await expect(page.getByRole('link', { name: en.Nav.administration })).toHaveCount(0);
    const api = await page.request.get('/api/admin/users');
    expect(api.status()).toBe(403);
    expect((await api.json()).errorCode).toBe('authentication_error');
  });

  test('the admin reaches every section from the sidebar (issue 48, point 5), with titles and tabs', async ({ page, context, baseURL }) => {
    await logInAsAdmin(context, baseURL!);
    await page.goto('/');
    await page.getByRole('complementary').getByRole('link', { name: en.Nav.administration }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    for (const tab of ['configuration', 'support', 'ratings', 'audit', 'users'] as const) {
      await page.getByRole('navigation', { name: en.AdminArea.tabsLabel }).getByRole('link', { name: en.AdminArea.tabs[tab] }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/${tab}$`));
      await expect(page).toHaveTitle(`Enclave – ${en.AdminArea.tabs[tab]}`);
      await expect(page.getByRole('link', { name: en.AdminArea.tabs[tab] })).toHaveAttribute('aria-current', 'page');
    }
  });
});
