import { expect, test } from '@playwright/test';
import { logIn } from './support/session';
import { messages } from './support/messages';

const de = messages('de');
const en = messages('en');

test.describe('SPEC point 1: languages', () => {
  test('/de/login renders German with lang="de" and a German title', async ({ page }) => {
    await page.goto('/de/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page).toHaveTitle(`Enclave – ${de.Routes.login}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.Login.title);
  });

  test('English has no prefix: /en/login goes to /login', async ({ page, baseURL }) => {
    await page.goto('/en/login');
    await expect(page).toHaveURL(`${baseURL}/login`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page).toHaveTitle(`Enclave – ${en.Routes.login}`);
  });

  test('an unknown path shows the localized not-found page with status 404', async ({ page, context }) => {
    const response = await page.goto('/de/gibt-es-nicht');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.NotFound.title);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');

    // Visiting /de/… remembered German; a visitor without that cookie gets English.
    await context.clearCookies();
    const english = await page.goto('/no/such/page');
    expect(english?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.NotFound.title);
  });

  test('a guest picks a language in the drawer; it is kept as the guest language', async ({ page, context }) => {
    await page.goto('/login');
    // The picker with flags (a button and a listbox): its button is named by the label and the current language.
    const picker = page.getByRole('button', { name: en.Language.label });
    await expect(picker.locator('img[src="/flags/gb.svg"]')).toHaveAttribute('alt', '');
    await picker.click();
    await expect(page.getByRole('option', { name: /^English/ })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('option', { name: /^Deutsch/ }).click();
    await expect(page).toHaveURL(/\/de\/login$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'NEXT_LOCALE')?.value).toBe('de');
    // The unprefixed path now leads to German.
    await page.goto('/faq');
    await expect(page).toHaveURL(/\/de\/faq$/);
  });

  test("a logged-in user's choice is saved to the account", async ({ page, context, baseURL }) => {
    await logIn(context, baseURL!);
    await page.goto('/faq');
    // By keyboard this time: Enter opens the list, End and the arrows move, Enter chooses.
    const list = page.getByRole('listbox', { name: en.Language.label });
    // A key pressed before React has the page is played again once it has (lib/early-input.ts).
    await page.getByRole('button', { name: en.Language.label }).focus();
    await page.keyboard.press('Enter');
    await expect(list).toBeFocused();
    await page.keyboard.press('Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    await expect(list).toHaveAttribute('aria-activedescendant', (await page.getByRole('option', { name: /^Polski/ }).getAttribute('id'))!);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/pl\/faq$/);
    // Without the guest cookie the server still knows: it comes from the account.
    await context.clearCookies({ name: 'NEXT_LOCALE' });
    const answer = await context.request.get('/api/lang');
    expect(await answer.json()).toEqual({ lang: 'pl' });
    // Put it back for the other tests that use the demo account.
    await context.request.post('/api/lang', { data: { lang: 'en' }, headers: { origin: baseURL! } });
  });
});
