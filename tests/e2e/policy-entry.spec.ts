// Issue 48, point 3, the billing screen: /settings alone lets Stripe in (lib/security/csp.ts). A
// document keeps the policy it was loaded with, so the account dialog's link must load /settings
// as a document: as a client-side navigation the page ran under the dashboard's policy, where
// Stripe's card frame and API are refused. Entered both ways, the card form loads and nothing
// Stripe needs is refused. (The meeting page, entered both ways: meeting-policy-entry.spec.ts.)
import { expect, test, type Page } from '@playwright/test';
import { messages } from './support/messages';
import { logIn } from './support/session';
import { standInForStripe } from './support/stripe';

const en = messages('en');

/** The policy violations the page reports from now on (the browser's securitypolicyviolation events). */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { policyViolations: seen });
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { policyViolations: string[] }).policyViolations);

/** What Stripe's real card form does beyond the stand-in's: a frame from js.stripe.com and calls to api.stripe.com. */
async function reachStripe(page: Page) {
  await page.route('https://js.stripe.com/v3/elements-inner-card.html', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>card</title>' }),
  );
  return page.evaluate(async () => {
    const frame = document.createElement('iframe');
    frame.src = 'https://js.stripe.com/v3/elements-inner-card.html';
    frame.title = 'Stripe card frame';
    document.body.append(frame);
    const answer = await fetch('https://api.stripe.com/v1/ping', { method: 'POST' }).then(
      (response) => response.status,
      (error: Error) => error.message,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    frame.remove();
    return answer;
  });
}

for (const way of ['the account dialog’s link', 'the address bar'] as const) {
  test(`/settings entered by ${way}: Stripe's card form loads and nothing Stripe needs is refused`, async ({ context, page, baseURL }) => {
    await logIn(context, baseURL!, 'trial');
    await standInForStripe(page);
    await recordViolations(page);
    if (way === 'the address bar') {
      await page.goto('/settings#billing');
    } else {
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: en.Nav.account }).first().click();
      await page.getByRole('dialog').getByRole('link', { name: en.AccountModal.managePlan }).click();
      await expect(page).toHaveURL(/\/settings#billing$/);
    }
    const billing = page.getByRole('region', { name: 'Plan and billing' });
    // After the link the page is a new document: a click before React has it is played again
    // once React does (lib/early-input.ts).
    await billing.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(billing.getByLabel('Card number')).toBeVisible();
    expect(typeof (await reachStripe(page))).toBe('number');
    expect(await violations(page)).toEqual([]);
  });
}
