// Issue 33 points 4 and 9: an instant meeting in one click, the default room's link on the
// dashboard, the rooms card's link shortened and copied whole, at phone, tablet and desktop widths.
import { expect, test, type Page } from '@playwright/test';
import { logIn } from './support/session';
import { messages } from './support/messages';

const en = messages('en');
const de = messages('de');

type Room = { name: string; isDefault: boolean; meetingId: string; link: string };

async function defaultRoom(page: Page): Promise<Room> {
  const rooms = (await (await page.request.get('/api/rooms')).json()) as Room[];
  return rooms.find((room) => room.isDefault) ?? rooms[0]!;
}

/** Nothing scrolls sideways: the page is no wider than the window. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

test.beforeEach(async ({ context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await logIn(context, baseURL!);
});

test('"Start meeting now" opens the default room\'s lobby in one click; the modal is the other choice', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/');
  const room = await defaultRoom(page);
  await page.getByRole('main').getByRole('link', { name: en.Dashboard.startNow }).click();
  await expect(page).toHaveURL(new RegExp(`/now/${room.meetingId}$`));
  await expect(page.getByRole('button', { name: en.Meeting.joinNow })).toBeVisible();

  await page.goto('/');
  await page.getByRole('main').getByRole('button', { name: en.Dashboard.otherRoom }).click();
  await expect(page.getByRole('dialog', { name: en.NewMeeting.title })).toBeVisible();
});

test('the dashboard shows the default room with its link to copy and a Start button', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/');
  const room = await defaultRoom(page);
  const card = page.getByRole('region', { name: en.Dashboard.defaultRoom });
  await expect(card).toContainText(room.name);
  const link = card.getByRole('link', { name: /\/now\// });
  await expect(link).toHaveAttribute('href', room.link);
  await expect(link).toHaveAttribute('title', room.link);
  await expect(link).toHaveText(new RegExp(`/now/${room.meetingId.slice(0, 6)}…$`));
  await card.getByRole('button', { name: en.RoomLink.copy }).click();
  await expect(page.getByRole('status').filter({ hasText: en.RoomLink.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(room.link);
  await expect(card.getByRole('link', { name: en.Dashboard.start, exact: true })).toHaveAttribute('href', `/now/${room.meetingId}`);
});

test('the rooms card names the link shortly and copies it whole', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/admin');
  const room = await defaultRoom(page);
  const card = page.getByRole('listitem').filter({ hasText: room.name }).first();
  const link = card.getByRole('link', { name: /\/now\// });
  await expect(link).toHaveText(new RegExp(`/now/${room.meetingId.slice(0, 6)}…$`));
  await card.getByRole('button', { name: `${en.RoomLink.copy} (${room.name})` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(room.link);
  await expectNoSidewaysScroll(page);
});

for (const width of [390, 768, 1366]) {
  for (const [locale, m] of [
    ['en', en],
    ['de', de],
  ] as const) {
    test(`dashboard and rooms fit ${width} px in ${locale}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      const prefix = locale === 'en' ? '' : `/${locale}`;
      await page.goto(`${prefix}/`);
      const start = page.getByRole('main').getByRole('link', { name: m.Dashboard.startNow });
      await expect(start).toBeVisible();
      await expectNoSidewaysScroll(page);
      // Every control of the room card is on screen and not covered by another.
      const card = page.getByRole('region', { name: m.Dashboard.defaultRoom });
      for (const control of [card.getByRole('button', { name: m.RoomLink.copy }), card.getByRole('link', { name: m.Dashboard.start, exact: true })]) {
        await expect(control).toBeInViewport();
        await control.click({ trial: true });
      }
      await page.goto(`${prefix}/admin`);
      await expect(page.getByRole('heading', { name: m.Rooms.title, level: 1 })).toBeVisible();
      await expectNoSidewaysScroll(page);
    });
  }
}
