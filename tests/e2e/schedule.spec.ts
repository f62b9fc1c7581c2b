import { expect, test, type Page } from '@playwright/test';
import { logIn } from './support/session';
import { messages } from './support/messages';

const en = messages('en');
const { Schedule: S, Calendar: C } = en;

/** YYYY-MM-DD of the Monday `weeks` weeks after this one. */
function mondayIn(weeks: number): string {
  const now = new Date();
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7) + 7 * weeks));
  return monday.toISOString().slice(0, 10);
}

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

async function next(page: Page) {
  await page.getByRole('button', { name: S.next, exact: true }).click();
}

test.describe('SPEC point 2: schedule a weekly meeting, see it in the calendar, edit one, delete the series', () => {
  // The browser's own zone differs from the account's (Europe/London): the calendar must show the
  // account's wall clock, not the browser's.
  test.use({ timezoneId: 'America/New_York' });

  test.beforeEach(async ({ page, context, baseURL }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(context, baseURL!);
  });

  test('through the wizard, the week and month views, an occurrence edit and the series deletion', async ({ page }) => {
    const title = `Weekly sync ${Date.now().toString(36)}`;
    const moved = `${title} (moved)`;
    const first = mondayIn(2);

    await page.goto('/schedule');
    await expect(page.getByRole('heading', { level: 1, name: S.title })).toBeVisible();

    // Step 0: a name too short is refused on its step; then the details.
    await page.getByLabel(S.name, { exact: true }).fill('Hey');
    await next(page);
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(en.Errors.room_title_length);
    await page.getByLabel(S.name, { exact: true }).fill(title);
    await page.getByLabel(S.date, { exact: true }).fill(first);
    // The time picker rounds up to the next 5 minutes (SPEC point 5).
    await page.getByLabel(S.startTime, { exact: true }).fill('10:02');
    await page.getByLabel(S.duration, { exact: true }).selectOption('1:00');
    await next(page);

    // Step 1: room and password.
    await expect(page.getByRole('heading', { level: 2, name: S.steps.room })).toBeVisible();
    await expect(page.getByLabel(S.password, { exact: true })).toBeDisabled();
    await next(page);

    // Step 2: the organizer's own address is refused; a guest by e-mail.
    await page.getByLabel(S.guestEmail, { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: S.addGuest, exact: true }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(en.Errors.invite_incorrect_email_format);
    await page.getByLabel(S.guestEmail, { exact: true }).fill(`guest.${Date.now().toString(36)}@example.test`);
    await page.getByRole('button', { name: S.addGuest, exact: true }).click();
    await expect(page.getByRole('list', { name: S.guests }).getByRole('listitem')).toHaveCount(1);
    await next(page);

    // Step 3: weekly, and a second reminder through the notifications modal; a duplicate is refused.
    await page.getByLabel(S.repeat, { exact: true }).selectOption('weekly');
    const reminders = page.getByRole('list', { name: S.notifications });
    await expect(reminders.getByRole('listitem')).toHaveText([S.notificationChoices.minutes15 + '×']);
    await page.getByRole('button', { name: S.addNotification }).click();
    let dialog = page.getByRole('dialog', { name: S.notificationsTitle });
    await dialog.getByLabel(S.notificationWhen).selectOption({ label: S.notificationChoices.minutes15 });
    await dialog.getByRole('button', { name: S.add, exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText(en.Errors.notification_not_added);
    await dialog.getByLabel(S.notificationWhen).selectOption({ label: S.notificationChoices.hour1 });
    await dialog.getByRole('button', { name: S.add, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(reminders.getByRole('listitem')).toHaveCount(2);
    await next(page);

    // Step 4: the review, then save: the week of the meeting opens.
    const review = page.getByRole('main');
    await expect(review.getByText(title, { exact: true })).toBeVisible();
    await expect(review.getByText(S.repeatTypes.weekly, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: S.save, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/calendar/week/${first}$`));

    // Week view: on Monday at 10:05 London time (en-US shows 10:05 AM), although the browser is in New York.
    const monday = page.getByRole('list').filter({ has: page.getByRole('button', { name: title }) });
    await expect(monday).toHaveCount(1);
    await expect(monday.getByRole('button', { name: title })).toContainText('10:05 AM');
    // The account's zone is not the browser's, so the calendar says which zone its times are in.
    await expect(page.getByTestId('zone-note')).toHaveText('Times in Europe/London');

    // Month view: every Monday of its 42-day grid from the first meeting on.
    await page.getByRole('navigation', { name: C.views }).getByRole('link', { name: C.month }).click();
    await expect(page).toHaveURL(new RegExp(`/calendar/month/${first}$`));
    const firstOfMonth = `${first.slice(0, 7)}-01`;
    const gridEnd = addDays(firstOfMonth, 42 - ((new Date(`${firstOfMonth}T12:00:00Z`).getUTCDay() + 6) % 7));
    let mondays = 0;
    for (let day = first; day < gridEnd; day = addDays(day, 7)) mondays += 1;
    await expect(page.getByRole('button', { name: title })).toHaveCount(mondays);

    // The private feed a calendar app subscribes to carries the series with its zone.
    await page.getByRole('button', { name: C.subscribe }).click();
    dialog = page.getByRole('dialog', { name: C.feedTitle });
    await dialog.getByRole('button', { name: C.feedCreate }).click();
    const feedUrl = await dialog.getByLabel(C.feedUrl).inputValue();
    const feed = await (await page.request.get(feedUrl)).text();
    expect(feed).toContain(`SUMMARY:${title}`);
    expect(feed).toMatch(/DTSTART;TZID=Europe\/London:\d{8}T100500/);
    expect(feed).toContain('RRULE:FREQ=WEEKLY');
    await dialog.getByRole('button', { name: en.Modal.close }).click();

    // Edit the second occurrence only ("this meeting").
    const second = addDays(first, 7);
    await page.goto(`/calendar/week/${second}`);
    await page.getByRole('button', { name: title }).click();
    dialog = page.getByRole('dialog', { name: title });
    await dialog.getByRole('link', { name: C.edit }).click();
    await expect(page.getByRole('heading', { level: 1, name: S.editTitle })).toBeVisible();
    await expect(page.getByLabel(S.date, { exact: true })).toHaveValue(second);
    await page.getByLabel(S.name, { exact: true }).fill(moved);
    await page.getByLabel(S.startTime, { exact: true }).fill('14:30');
    for (let step = 0; step < 4; step += 1) await next(page);
    await page.getByRole('button', { name: S.save, exact: true }).click();
    dialog = page.getByRole('dialog', { name: S.saveRecurringTitle });
    await expect(dialog.getByRole('radio', { name: S.saveScopes.this })).toBeChecked();
    await dialog.getByRole('button', { name: S.save, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/calendar/week/${second}$`));
    await expect(page.getByRole('button', { name: moved })).toContainText('2:30 PM');
    await expect(page.getByRole('button', { name: title, exact: true })).toHaveCount(0);
    // The other weeks keep the series as it was.
    await page.goto(`/calendar/week/${addDays(first, 14)}`);
    await expect(page.getByRole('button', { name: title })).toContainText('10:05 AM');

    // The list view names day, date, room, time and title.
    await page.goto(`/calendar/event/${first}`);
    const row = page.getByRole('row').filter({ hasText: moved });
    await expect(row).toContainText('Demo room');
    await expect(row).toContainText(/2:30\s*–\s*3:30\sPM/);

    // Delete the whole series from one of its meetings.
    await page.goto(`/calendar/week/${first}`);
    await page.getByRole('button', { name: title }).click();
    await page.getByRole('dialog', { name: title }).getByRole('button', { name: C.delete }).click();
    dialog = page.getByRole('dialog', { name: C.deleteRecurringTitle });
    await dialog.getByRole('radio', { name: C.allEvents }).check();
    await dialog.getByLabel(C.cancelMessage).fill('The sync moves to chat.');
    await dialog.getByRole('button', { name: C.delete, exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: title })).toHaveCount(0);
    await page.goto(`/calendar/month/${first}`);
    // The meetings come from GET /api/events/calendar after the page: none once they are in.
    await expect(page.getByTestId('calendar-meetings')).toHaveAttribute('data-state', 'ready');
    await expect(page.getByRole('button', { name: new RegExp(title) })).toHaveCount(0);
  });
});
