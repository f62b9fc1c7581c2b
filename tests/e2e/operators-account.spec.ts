import { expect, test } from '@playwright/test';
import { messages } from './support/messages';
import { logIn } from './support/session';

// Issue 48, point 6: one name per screen for account and preferences, with the language the page
// is in. (The brand name of point 5 is tested in first-admin.spec.ts, on an instance of its own.)
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
  const language = page.getByRole('main').getByLabel(de.Settings.language);
  await expect(language).toHaveValue('de');
  await expect(language.locator('option:checked')).toHaveText('Deutsch (de)');
  // This server bills: the region picks the currency, and says so.
  await expect(page.getByRole('group', { name: de.Settings.region })).toBeVisible();
  await page.getByRole('button', { name: de.Settings.openAccount }).click();
  await expect(page.getByRole('dialog', { name: de.AccountModal.title })).toBeVisible();
  // Nothing on the way is called "Einstellungen" any more.
  await expect(page.getByRole('complementary').getByText('Einstellungen', { exact: true })).toHaveCount(0);
});
