// Issue 48, point 9: on the account pages (register, forgot and reset password, activate and
// verify the account) a logged-in person's drawer entries "New meeting" and "Settings" opened
// nothing, and the upcoming-meetings poll (and its toasts) did not run: those pages had a lighter
// frame without the app's modals. A logged-in person now gets the app's whole frame there.
import { expect, test } from '@playwright/test';
import { logIn } from './support/session';
import { messages } from './support/messages';

const en = messages('en');
const nav = en.Nav;
const accountPages = ['/register', '/forgotPassword', '/resetpassword/not-a-real-link', '/activate-account', '/verify-account'];

test.use({ viewport: { width: 390, height: 844 } });

for (const path of accountPages) {
  test(`logged in on ${path}: the drawer's "New meeting" and "Settings" open their dialogs, and upcoming meetings are polled`, async ({
    page,
    context,
    baseURL,
  }) => {
    await logIn(context, baseURL!);
    const polled = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/events/upcoming');
    await page.goto(path);
    await polled;

    const openDrawer = async () => {
      await page.getByRole('button', { name: nav.openMenu }).click();
      const drawer = page.getByRole('dialog', { name: 'Enclave' });
      await expect(drawer).toBeVisible();
      return drawer;
    };

    await (await openDrawer()).getByRole('button', { name: nav.newMeeting }).click();
    const newMeeting = page.getByRole('dialog', { name: en.NewMeeting.title });
    await expect(newMeeting).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(newMeeting).toBeHidden();

    await (await openDrawer()).getByRole('button', { name: nav.account }).click();
    await expect(page.getByRole('dialog', { name: en.AccountModal.title })).toBeVisible();
  });
}
