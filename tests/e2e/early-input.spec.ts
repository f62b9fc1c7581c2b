// What a person does before the page's code has run (lib/early-input.ts): the server's HTML shows
// the buttons at once, the bundles come later. Here they come only when the test lets them.
import { expect, test, type Page } from '@playwright/test';
import { messages } from './support/messages';

const en = messages('en');

/** Holds every script of the app's bundles (not its stylesheet, which the page needs to show) until the returned function is called. */
async function holdBundles(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/static/chunks/**/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Every address the page asks the server for, in order. */
function requestedAddresses(page: Page): string[] {
  const addresses: string[] = [];
  page.on('request', (request) => addresses.push(request.url()));
  return addresses;
}

test('a login sent before the page has its code keeps the password out of every address, and logs in once the code is there', async ({ page }) => {
  const release = await holdBundles(page);
  const addresses = requestedAddresses(page);
  // Not "load" nor "domcontentloaded": both wait for the scripts held above.
  await page.goto('/login', { waitUntil: 'commit' });
  const loginPage = page.url();
  await page.getByLabel(en.Forms.email, { exact: true }).fill('demo@enclave.local');
  await page.getByLabel(en.Forms.password, { exact: true }).fill('Demo-Meeting-2026');
  // The browser's own submission would be a GET to /login?email=…&password=…, at once.
  const navigated = page.waitForEvent('framenavigated', { timeout: 1_000 }).then(
    () => true,
    () => false,
  );
  await page.getByRole('button', { name: en.Login.submit }).click();
  expect(await navigated).toBe(false);
  expect(page.url()).toBe(loginPage);
  release();
  await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });
  expect(addresses.filter((address) => address.includes('Demo-Meeting-2026') || address.includes('password='))).toEqual([]);
});

test('a button pressed before the page has its code does what it says once the code is there', async ({ page }) => {
  const release = await holdBundles(page);
  await page.goto('/faq', { waitUntil: 'commit' });
  const language = page.getByRole('button', { name: en.Language.label });
  await language.focus();
  await page.keyboard.press('Enter');
  const list = page.getByRole('listbox', { name: en.Language.label });
  await expect(list).toHaveCount(0);
  release();
  await expect(list).toBeFocused();
});
