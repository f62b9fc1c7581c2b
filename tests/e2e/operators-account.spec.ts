import { expect, test } from '@playwright/test';
import { messages } from './support/messages';
import { logIn } from './support/session';

// Issue 48, points 5 and 6: the admin's brand name in the public frame, and one name per screen
// for account and preferences, with the language the page is in.
const en = messages('en');
const de = messages('de');

test('/de/settings is "Präferenzen": German shown as the language, the region only as the region for prices, and a way to Account & security', async ({
  page,
  context,
  baseURL,
}) => {
  // The demo account's stored language is English; the page is read in German.
  await logIn(context, baseURL!);
  await page.goto('/de/settings');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.Settings.title);
  const language = page.getByLabel(de.Settings.language);
  await expect(language).toHaveValue('de');
  await expect(language.locator('option:checked')).toHaveText('Deutsch (de)');
  // This server bills: the region picks the currency, and says so.
  await expect(page.getByRole('group', { name: de.Settings.region })).toBeVisible();
  await page.getByRole('button', { name: de.Settings.openAccount }).click();
  await expect(page.getByRole('dialog', { name: de.AccountModal.title })).toBeVisible();
  // Nothing on the way is called "Einstellungen" any more.
  await expect(
    page.getByRole('complementary').getByText('Einstellungen', { exact: true }),
  ).toHaveCount(0);
});

test('the brand name set in the admin area is the public header logo and the footer copyright', async ({
  page,
  context,
  baseURL,
}) => {
  await logIn(context, baseURL!);
  const set = (brandName: string | null) =>
    page.request.post('/api/admin/configuration', {
      data: { brandName },
      headers: { origin: baseURL! },
    });
  expect((await set('Acme Meet')).ok()).toBe(true);
  try {
    await page.goto('/faq');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Acme Meet' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText(
      en.Public.copyright
        .replace('{year}', String(new Date().getFullYear()))
        .replace('{brand}', 'Acme Meet'),
    );
    await expect(page.getByRole('contentinfo')).not.toContainText(
      '© ' + new Date().getFullYear() + ' Enclave',
    );
  } finally {
    expect((await set(null)).ok()).toBe(true);
  }
});
