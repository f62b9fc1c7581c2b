// Issue 38, "The host can pin a room to either mode": the owner sets "Calls in this room" in the
// room dialog (by keyboard), and a call of two in that room goes through the SFU, which a call
// of two never does on its own (automatic: from six). The dialog's new choice fits every width.
// A room of its own, deleted after: the seeded demo room stays automatic for the other tests.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { closedAfterEach, fragment, joinMeeting, newParticipantContext, selfId } from './support/meeting';
import { cryptoStats, mediaRoute } from './support/probe-readers';
import { localized, messages } from './support/messages';
import { logIn } from './support/session';
import { sweep, widths } from './support/layout';

test.describe.configure({ timeout: 180_000 });

const en = messages('en');
const { Rooms: R, Manage: M } = en;

const open = closedAfterEach();

const item = (list: Locator, name: string) => list.getByRole('listitem').filter({ has: list.page().getByRole('heading', { name, exact: true }) });

/** Deletes the demo account's rooms named `name` through the API (the test's own, whatever happened). */
async function removeRooms(page: Page, baseURL: string, name: string) {
  const rooms = (await (await page.request.get('/api/rooms')).json()) as { id: string; name: string }[];
  for (const room of rooms.filter((room) => room.name === name)) {
    await page.request.delete(`/api/room/${room.id}`, { headers: { origin: baseURL } });
  }
}

test('a room pinned to "Always through the server" in its dialog: a call of two there goes through the SFU', async ({ browser, baseURL }) => {
  const name = `Through the server ${Date.now().toString(36)}`;
  const ownerContext = await newParticipantContext(browser, baseURL!);
  await logIn(ownerContext, baseURL!, 'demo');
  const owner = await ownerContext.newPage();
  try {
    await owner.goto('/admin');
    await owner.getByRole('button', { name: R.add }).click();
    let dialog = owner.getByRole('dialog', { name: R.addTitle });
    await dialog.getByLabel(R.name, { exact: true }).fill(name);
    const choice = dialog.getByRole('group', { name: R.mediaRoute });
    const automatic = choice.getByRole('radio', { name: R.mediaRouteAuto.replace('{count}', '6') });
    await expect(automatic).toBeChecked();
    await expect(choice).toContainText(R.mediaRouteHint);
    // By keyboard: into the group, then down the options (a radio group moves with the arrows).
    await automatic.focus();
    await owner.keyboard.press('ArrowDown');
    await expect(choice.getByRole('radio', { name: R.mediaRouteMesh })).toBeChecked();
    await owner.keyboard.press('ArrowDown');
    await expect(choice.getByRole('radio', { name: R.mediaRouteSfu })).toBeChecked();
    await dialog.getByRole('button', { name: M.save }).click();
    await expect(dialog).toBeHidden();

    const rooms = owner.getByRole('list', { name: R.listLabel });
    await expect(item(rooms, name)).toContainText(R.mediaRouteSfu);
    const link = await item(rooms, name).getByRole('link').getAttribute('href');
    const meetingId = link!.split('/now/')[1]!;
    // Opened again, the dialog shows what was saved.
    await item(rooms, name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    dialog = owner.getByRole('dialog', { name: R.editTitle });
    await expect(dialog.getByRole('radio', { name: R.mediaRouteSfu })).toBeChecked();
    await dialog.getByRole('button', { name: M.cancel }).click();

    // Two guests with the room's link, no ?media= in it: two would stay a mesh if the room were automatic.
    const hash = fragment();
    for (const guest of ['Ada', 'Bob']) {
      open.push(await joinMeeting(browser, baseURL!, meetingId, { name: guest, fragment: hash }));
    }
    for (const { page } of open) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
    // And media flows there: each decrypts the other's frames that came through Janus.
    const ids = await Promise.all(open.map(({ page }) => selfId(page)));
    for (const [index, { page }] of open.entries()) {
      const other = ids[1 - index]!;
      await expect
        .poll(async () => (await cryptoStats(page))[`sfu:${other}`]?.received.decrypted ?? 0, { timeout: 45_000, intervals: [1000] })
        .toBeGreaterThan(20);
    }
  } finally {
    await removeRooms(owner, baseURL!, name);
    await ownerContext.close();
  }
});

for (const locale of ['en', 'de']) {
  test(`the room dialog with its "Calls in this room" choice fits every width (${locale})`, async ({ browser, baseURL }, testInfo) => {
    const context = await browser.newContext({ baseURL });
    await logIn(context, baseURL!, 'demo');
    const page = await context.newPage();
    const t = messages(locale).Rooms;
    await page.goto(localized(locale, '/admin'));
    await page.getByRole('button', { name: t.add }).click();
    const dialog = page.getByRole('dialog', { name: t.addTitle });
    await expect(dialog.getByRole('group', { name: t.mediaRoute })).toBeVisible();
    for (const viewport of widths) await sweep(page, testInfo, `${locale} room dialog`, viewport, { fullPage: false });
    await context.close();
  });
}
