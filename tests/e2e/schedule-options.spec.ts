// Issue 33 points 5 and 6: the wizard asks before a password changes the room's for everyone,
// shows a generated password (no look-alikes) on its step, and ends a weekly series.
import { expect, test, type Page } from '@playwright/test';
import { logIn } from './support/session';
import { messages } from './support/messages';

const en = messages('en');
const { Schedule: S } = en;

/** YYYY-MM-DD of the Monday `weeks` weeks after this one. */
function mondayIn(weeks: number): string {
  const now = new Date();
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7) + 7 * weeks));
  return monday.toISOString().slice(0, 10);
}

async function next(page: Page) {
  await page.getByRole('button', { name: S.next, exact: true }).click();
}

async function details(page: Page, title: string) {
  await page.goto('/schedule');
  await page.getByLabel(S.name, { exact: true }).fill(title);
  await page.getByLabel(S.date, { exact: true }).fill(mondayIn(3));
  await page.getByLabel(S.startTime, { exact: true }).fill('11:00');
  await next(page);
  await expect(page.getByRole('heading', { level: 2, name: S.steps.room })).toBeVisible();
}

test.beforeEach(async ({ page, context, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await logIn(context, baseURL!);
});

test("a generated password is shown on its step and replaces a room's password only when asked to", async ({ page, baseURL }) => {
  const roomName = `Locked room ${Date.now().toString(36)}`;
  const created = await page.request.post('/api/room', { data: { name: roomName, password: 'Sesame-Street-42' }, headers: { origin: baseURL! } });
  expect(created.ok()).toBe(true);

  await details(page, `Keeps ${roomName}`);
  await page.getByLabel(S.room, { exact: true }).selectOption({ label: roomName });
  await page.getByLabel(S.passwordModes.generated).check();
  // The room has a password: keeping it is the default, and nothing new is made.
  const keep = page.getByRole('radio', { name: S.roomPassword.keep });
  const change = page.getByRole('radio', { name: S.roomPassword.change });
  await expect(keep).toBeChecked();
  await expect(page.getByLabel(S.generatedLabel, { exact: true })).toHaveCount(0);

  // Changing it for everyone shows the new password at once, without look-alikes, to copy.
  await change.check();
  const field = page.getByLabel(S.generatedLabel, { exact: true });
  await expect(field).toHaveValue(/^[A-HK-NP-Za-km-np-z2-9!@#$%^&*]{16}$/);
  const generated = await field.inputValue();
  await page.getByRole('button', { name: S.copy, exact: true }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(generated);
  // A new one on request.
  await page.getByRole('button', { name: S.regenerate, exact: true }).click();
  await expect(field).not.toHaveValue(generated);
  const final = await field.inputValue();

  for (let step = 1; step < 4; step += 1) await next(page);
  await page.getByRole('button', { name: S.save, exact: true }).click();
  const saved = page.getByRole('dialog', { name: S.savedTitle });
  await expect(saved.getByRole('textbox')).toHaveValue(final);
  await saved.getByRole('button', { name: S.toCalendar }).click();

  // "Keep" saves without any password dialog: the room's stays as it is.
  await details(page, `Kept ${roomName}`);
  await page.getByLabel(S.room, { exact: true }).selectOption({ label: roomName });
  await page.getByLabel(S.passwordModes.generated).check();
  await expect(keep).toBeChecked();
  for (let step = 1; step < 4; step += 1) await next(page);
  await page.getByRole('button', { name: S.save, exact: true }).click();
  await expect(page).toHaveURL(/\/calendar\/week\//);
  await expect(page.getByRole('dialog', { name: S.savedTitle })).toHaveCount(0);
});

test('a weekly meeting ends after a number of meetings, said on the review', async ({ page }) => {
  await details(page, `Ten weeks ${Date.now().toString(36)}`);
  for (let step = 1; step < 3; step += 1) await next(page);
  await page.getByLabel(S.repeat, { exact: true }).selectOption('weekly');
  const ends = page.getByRole('group', { name: S.ends });
  await expect(ends.getByRole('radio', { name: S.endsNever })).toBeChecked();
  await ends.getByRole('radio', { name: S.endsAfter, exact: true }).check();
  await ends.getByLabel(S.endCount).fill('0');
  await next(page);
  await expect(ends.getByRole('alert')).toHaveText(S.countInvalid);
  await ends.getByLabel(S.endCount).fill('10');
  await next(page);
  await expect(page.getByRole('main').getByText(`${S.repeatTypes.weekly}, 10 times`, { exact: true })).toBeVisible();
  const saved = page.waitForResponse((response) => response.url().endsWith('/api/event') && response.request().method() === 'POST');
  await page.getByRole('button', { name: S.save, exact: true }).click();
  const answer = (await (await saved).json()) as { event: { rrule: string } };
  expect(answer.event.rrule).toBe('FREQ=WEEKLY;BYDAY=MO;COUNT=10');
});
