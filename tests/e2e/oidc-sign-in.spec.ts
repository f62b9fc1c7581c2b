// Issue 35, item 3: "Sign in with …" in Chromium against a real OpenID provider (oidc-provider)
// that this test starts on loopback. The suite's own server has no provider, so this test starts
// an instance of the same build with OIDC_PROVIDERS naming the test provider: the person reaches
// the button by keyboard, logs in at the provider's page, consents, and lands on the dashboard
// of an account made just in time. A failed sign-in's code is shown in the page's language.
import { expect, test, type Page } from '@playwright/test';
import { generate, generateSecret } from 'otplib';
import postgres from 'postgres';
import { startTestIdp, type TestIdp } from '../support/oidc-idp-process';
import { createDatabase, extraPort, startInstance, type Instance } from './support/instances';
import { messages } from './support/messages';

const en = messages('en');
const de = messages('de');
test.describe.configure({ timeout: 180_000 });

/** The provider's own pages: its login form, then its consent (when it asks). */
async function logInAtProvider(page: Page, issuer: string, login: string) {
  await page.waitForURL(`${issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

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

    await logInAtProvider(page, idp.issuer, login);
    await page.waitForURL(`${instance.url}/**`);
    await expect(page).toHaveURL(new RegExp(`^${instance.url}/(en/?)?$`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Ada');

    // With 2FA on the account (a secret stored as before sealing, which the server still reads),
    // the next sign-in through this provider (not marked as enforcing MFA) asks for the code.
    const secret = generateSecret();
    const sql = postgres(database.url, { max: 1, onnotice: () => undefined });
    await sql`update users set has_2fa = true, totp_secret = ${secret}, totp_last_step = null where email = ${`${login}@example.test`}`;
    await sql.end();
    const again = await browser.newContext();
    const second = await again.newPage();
    await second.goto(`${instance.url}/login`);
    await second.getByRole('link', { name: en.Login.ssoWith.replace('{name}', 'Test IdP') }).click();
    await logInAtProvider(second, idp.issuer, login);
    await expect(second.getByRole('heading', { name: en.Login.codeTitle })).toBeVisible();
    await expect(second).toHaveURL(/\/login\?step=code/);
    await second.getByLabel(en.Login.code).fill(await generate({ secret }));
    await second.getByRole('button', { name: en.Login.codeSubmit }).click();
    await expect(second).toHaveURL(new RegExp(`^${instance.url}/(en/?)?$`));
    await expect(second.getByRole('heading', { level: 1 })).toContainText('Ada');
    await again.close();

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
