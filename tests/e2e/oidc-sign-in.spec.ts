// Issue 35, item 3: "Sign in with …" in Chromium against a real OpenID provider (oidc-provider)
// that this test starts on loopback. The suite's own server has no provider, so this test starts
// an instance of the same build with OIDC_PROVIDERS naming the test provider: the person reaches
// the button by keyboard, logs in at the provider's page, consents, and lands on the dashboard
// of an account made just in time. A failed sign-in's code is shown in the page's language.
import { expect, test } from '@playwright/test';
import { startTestIdp, type TestIdp } from '../support/oidc-idp-process';
import { createDatabase, extraPort, startInstance, type Instance } from './support/instances';
import { messages } from './support/messages';

const en = messages('en');
const de = messages('de');
test.describe.configure({ timeout: 180_000 });


test('Sign in with Test IdP: keyboard to the button, log in at the provider, land on the dashboard', async ({ browser }) => {
  const database = await createDatabase();
  // Extra ports 55 (the instance) and 56 (the provider), clear of the other specs' servers.
  const port = extraPort(55);
  let idp: TestIdp | undefined;
  let instance: Instance | undefined;
  const context = await browser.newContext();
  try {
    idp = await startTestIdp(extraPort(56), [`http://localhost:${port}/api/auth/oidc/test/callback`]);
    const login = `ada${Date.now()}`;
    await idp.setAccounts({ [login]: { email: `${login}@example.test`, email_verified: true, given_name: 'Ada', family_name: 'Lovelace' } });
    instance = await startInstance(port, {
      DATABASE_URL: database.url,
      OIDC_PROVIDERS: JSON.stringify([{ id: 'test', name: 'Test IdP', issuer: idp.issuer, clientId: 'enclave', clientSecret: 'enclave-secret' }]),
    });
    const page = await context.newPage();
    await page.goto(`${instance.url}/login`);
    const button = page.getByRole('link', { name: en.Login.ssoWith.replace('{name}', 'Test IdP') });
    await expect(button).toBeVisible();
    // Reached by Tab from the top of the page, and followed with Enter.
    for (let presses = 0; presses < 30 && !(await button.evaluate((element) => element === document.activeElement)); presses += 1) {
      await page.keyboard.press('Tab');
    }
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');

    // The provider's own pages: its login form, then its consent.
    await page.waitForURL(`${idp.issuer}/**`);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`${instance.url}/**`);
    await expect(page).toHaveURL(new RegExp(`^${instance.url}/(en/?)?$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Ada');

    // A failed sign-in comes back with its code, shown in the page's language.
    const visitor = await browser.newPage();
    await visitor.goto(`${instance.url}/de/login?error=sso_email_not_verified`);
    await expect(visitor.getByRole('main').getByRole('alert')).toHaveText(de.Errors.sso_email_not_verified);
    await expect(visitor.getByRole('link', { name: de.Login.ssoWith.replace('{name}', 'Test IdP') })).toBeVisible();
    await visitor.close();
  } finally {
    await context.close();
    await instance?.stop();
    await idp?.stop();
    await database.drop();
  }
});
