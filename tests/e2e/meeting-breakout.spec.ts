// Breakout rooms (docs/meetings.md "Breakout rooms"): the host and three guests in real Chromium
// with fake media. A guest's forged "open" is ignored; the host puts Ada and Bob in room 1 and Cy
// in room 2 from the dialog; each page then shows, hears and decodes only its room (the frame
// counters of the others stop), the host's message reaches every room, a forged "close" from a
// guest is ignored, and "Close rooms" brings everyone back, media flowing between all four again.
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { sweep, widths } from './support/layout';
import {
  closedAfterEach,
  expectMediaFromPeers,
  fragment,
  joinMeeting,
  newParticipantContext,
  peerStats,
  recordBodies,
  untilCountsStandStill,
  type Participant,
} from './support/meeting';
import { chatTexts } from './support/probe-readers';
import { localized, messages } from './support/messages';
import { logIn, seededAccount } from './support/session';
import { storedFilesHolding } from './support/stored-data';

test.describe.configure({ timeout: 240_000 });

const b = messages('en').Breakout;
const m = messages('en').Meeting;
const open = closedAfterEach();

/** The names on the other participants' camera tiles. */
const othersOnStage = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('figure[data-kind="camera"]')]
      .filter((figure) => figure.getAttribute('data-participant') !== window.enclaveProbe!.getState().self.id)
      .map((figure) => figure.getAttribute('aria-label'))
      .sort(),
  );
const idOf = (page: Page, name: string) => page.evaluate((name) => window.enclaveProbe!.getState().peers.find((peer) => peer.name === name)!.id, name);
const framesFrom = async (page: Page) => Object.fromEntries(Object.entries(await peerStats(page)).map(([id, stats]) => [id, stats.framesDecoded]));

/** Frames keep coming from `inRoom` and have stopped from `apart` (nothing in flight is left to decode). */
async function decodesOnly(page: Page, inRoom: string[], apart: string[]) {
  const before = await untilCountsStandStill(
    () => framesFrom(page),
    (counts, id) => counts[id]!,
    apart,
  );
  for (const id of inRoom) await expect.poll(async () => (await framesFrom(page))[id]! - before[id]!, { timeout: 15_000 }).toBeGreaterThan(20);
  const after = await framesFrom(page);
  for (const id of apart) expect(after[id], `frames from ${id}`).toBe(before[id]);
}

test('the host splits four people into two rooms; each sees and decodes only its room; a guest cannot move anyone; all come back', async ({
  browser,
  baseURL,
}, testInfo) => {
  const meetingId = seededAccount('demo').meetingId;
  // What the server is sent: the rooms, who is in which and the host's message travel sealed, never in it.
  const bodies: string[][] = [];
  const prepare = async (context: BrowserContext) => void bodies.push(recordBodies(context));
  const host = await joinMeeting(browser, baseURL!, meetingId, {
    name: 'Demo User',
    host: 'demo',
    fragment: fragment(),
    prepare,
  });
  open.push(host);
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', prepare });
  open.push(ada);
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', prepare });
  open.push(bob);
  const cy = await joinMeeting(browser, baseURL!, meetingId, { name: 'Cy', prepare });
  open.push(cy);
  const everyone = [host, ada, bob, cy];
  for (const { page } of everyone) await expectMediaFromPeers(page, 3, 60_000);

  // A guest forges the host's "open" (over its sealed channel to Cy): Cy's page ignores it.
  const cyAtBob = await idOf(bob.page, 'Cy');
  const forged = { t: 'breakout-open', round: 7, count: 2, rooms: { [cyAtBob]: 1 } };
  expect(await bob.page.evaluate(({ to, message }) => window.enclaveProbe!.sendRawMessage(to, message), { to: cyAtBob, message: forged })).toBe(true);
  await expect(cy.page.getByRole('region', { name: b.title })).toHaveCount(0);
  expect(await cy.page.evaluate(() => window.enclaveProbe!.breakout().open)).toBeNull();
  expect(await othersOnStage(cy.page)).toEqual(['Ada', 'Bob', 'Demo User']);

  // The host opens the dialog from the toolbar and assigns by hand.
  await host.page.getByRole('button', { name: b.title }).filter({ visible: true }).click();
  const dialog = host.page.getByRole('dialog', { name: b.title });
  await dialog.getByLabel(b.count).selectOption('2');
  await dialog.getByLabel(b.roomFor.replace('{name}', 'Ada')).selectOption({ label: b.roomName.replace('{number}', '1') });
  await dialog.getByLabel(b.roomFor.replace('{name}', 'Bob')).selectOption({ label: b.roomName.replace('{number}', '1') });
  await dialog.getByLabel(b.roomFor.replace('{name}', 'Cy')).selectOption({ label: b.roomName.replace('{number}', '2') });
  await dialog.getByRole('button', { name: b.openRooms }).click();
  await expect(dialog).toBeHidden();

  const room1 = b.inRoom.replace('{room}', b.roomName.replace('{number}', '1'));
  const room2 = b.inRoom.replace('{room}', b.roomName.replace('{number}', '2'));
  await expect(ada.page.getByText(room1)).toBeVisible();
  await expect(bob.page.getByText(room1)).toBeVisible();
  await expect(cy.page.getByText(room2)).toBeVisible();
  await expect(host.page.getByText(b.hostOpen, { exact: true })).toBeVisible();
  await expect.poll(() => othersOnStage(ada.page)).toEqual(['Bob']);
  await expect.poll(() => othersOnStage(bob.page)).toEqual(['Ada']);
  await expect.poll(() => othersOnStage(cy.page)).toEqual([]);
  await expect.poll(() => othersOnStage(host.page)).toEqual([]);

  // Media: Ada decodes Bob only; Cy decodes nobody; the host (main room) nobody.
  const at = async (page: Page, ...names: string[]) => Promise.all(names.map((name) => idOf(page, name)));
  await decodesOnly(ada.page, await at(ada.page, 'Bob'), await at(ada.page, 'Cy', 'Demo User'));
  await decodesOnly(cy.page, [], await at(cy.page, 'Ada', 'Bob', 'Demo User'));

  // Chat stays in the room: Ada's message reaches Bob, not Cy (nor the host in the main room).
  await ada.page.getByRole('button', { name: m.chat, exact: true }).click();
  await ada.page.getByLabel(m.chatMessage, { exact: true }).fill('Only for room one');
  await ada.page.getByLabel(m.chatMessage, { exact: true }).press('Enter');
  await expect.poll(() => chatTexts(bob.page)).toContain('Only for room one');
  expect(await chatTexts(cy.page)).not.toContain('Only for room one');
  expect(await chatTexts(host.page)).not.toContain('Only for room one');
  // Help: Cy asks, the host sees it.
  await cy.page.getByRole('button', { name: b.askHelp }).click();
  await expect(host.page.getByText(b.helpFrom.replace('{name}', 'Cy').replace('{room}', b.roomName.replace('{number}', '2')))).toBeVisible();

  // The host's message reaches every room.
  await host.page.getByRole('button', { name: b.manage }).click();
  const hostMessage = `Five minutes left ${randomBytes(4).toString('hex')}`;
  await dialog.getByLabel(b.message).fill(hostMessage);
  await dialog.getByRole('button', { name: b.send, exact: true }).click();
  for (const { page } of [ada, bob, cy]) await expect(page.getByText(b.fromHost.replace('{text}', hostMessage))).toBeVisible();

  // The banner and the host's dialog fit 390, 768 and 1366 px, the bar in one row.
  const checks = { fullPage: false, oneRow: [`nav[aria-label="${m.controls}"]`] };
  for (const viewport of widths) await sweep(host.page, testInfo, 'breakout dialog, open rooms', viewport, checks);
  for (const viewport of widths) await sweep(cy.page, testInfo, 'breakout banner in a room', viewport, checks);

  // A guest's forged "close" is ignored.
  const adaAtBob = await idOf(bob.page, 'Ada');
  await bob.page.evaluate(({ to }) => window.enclaveProbe!.sendRawMessage(to, { t: 'breakout-close', round: 1, seconds: 0 }), { to: adaAtBob });
  await expect(ada.page.getByText(room1)).toBeVisible();
  expect(await ada.page.evaluate(() => window.enclaveProbe!.breakout().open?.round)).toBe(1);

  // Close after a 10 s countdown: everyone sees it, then everyone is back with everyone.
  await dialog.getByLabel(b.closeAfter).selectOption({ label: b.afterSeconds.replace('{seconds}', '10') });
  await dialog.getByRole('button', { name: b.closeRooms }).click();
  await expect(cy.page.getByRole('timer')).toBeVisible();
  for (const { page } of everyone) await expect(page.getByRole('region', { name: b.title })).toHaveCount(0, { timeout: 20_000 });
  for (const { page } of everyone) await expect.poll(() => othersOnStage(page)).toHaveLength(3);
  for (const { page } of everyone) await expectMediaFromPeers(page, 3, 30_000);

  // Nothing of the rooms reached the server: no request body carries a breakout message or the
  // host's message, and no log line or database file holds the message.
  for (const text of ['breakout-', hostMessage]) expect(bodies.flat().filter((body) => body.includes(text))).toEqual([]);
  expect(storedFilesHolding(hostMessage)).toEqual([]);
});

test('in German the host opens rooms by keyboard; the dialog and the banner fit 390, 768 and 1366 px', async ({ browser, baseURL }, testInfo) => {
  const de = messages('de');
  const meetingId = seededAccount('demo').meetingId;
  const join = async (name: string, host: boolean): Promise<Participant> => {
    const context = await newParticipantContext(browser, baseURL!);
    if (host) await logIn(context, baseURL!, 'demo');
    const page = await context.newPage();
    await page.goto(localized('de', `/now/${meetingId}`) + (host ? fragment() : ''));
    const button = page.getByRole('button', { name: new RegExp(`^(${de.Meeting.joinNow}|${de.Meeting.askToJoin})$`) });
    await expect(button).toBeVisible({ timeout: 30_000 });
    const nameField = page.getByLabel(de.Meeting.yourName, { exact: true });
    if (await nameField.isVisible()) await nameField.fill(name);
    await button.click();
    await expect(page.getByRole('navigation', { name: de.Meeting.controls })).toBeVisible({ timeout: 15_000 });
    const participant = { context, page, name };
    open.push(participant);
    return participant;
  };
  const host = await join('Demo User', true);
  const ada = await join('Ada', false);
  await expectMediaFromPeers(host.page, 1, 60_000);

  // At 390 px the control sits in "More" (widths: 1366, 768, 390); reached and chosen by keyboard.
  await host.page.setViewportSize(widths[2]);
  await host.page.getByRole('button', { name: de.Meeting.moreOptions, exact: true }).filter({ visible: true }).focus();
  await host.page.keyboard.press('ArrowDown');
  const item = host.page.getByRole('menuitem', { name: de.Breakout.title });
  for (let step = 0; step < 12 && !(await item.evaluate((element) => element === document.activeElement)); step++) await host.page.keyboard.press('ArrowDown');
  await expect(item).toBeFocused();
  await host.page.keyboard.press('Enter');
  const dialog = host.page.getByRole('dialog', { name: de.Breakout.title });
  await expect(dialog.getByLabel(de.Breakout.roomFor.replace('{name}', 'Ada'))).toBeVisible();
  const checks = { fullPage: false, oneRow: [`nav[aria-label="${de.Meeting.controls}"]`] };
  for (const viewport of widths) await sweep(host.page, testInfo, 'de breakout dialog', viewport, checks);
  await dialog.getByLabel(de.Breakout.roomFor.replace('{name}', 'Ada')).selectOption({ label: de.Breakout.roomName.replace('{number}', '2') });
  await dialog.getByRole('button', { name: de.Breakout.openRooms }).press('Enter');
  await expect(ada.page.getByText(de.Breakout.inRoom.replace('{room}', de.Breakout.roomName.replace('{number}', '2')))).toBeVisible();
  for (const viewport of widths) await sweep(ada.page, testInfo, 'de breakout banner', viewport, checks);
  for (const viewport of widths) await sweep(host.page, testInfo, 'de breakout host banner', viewport, checks);
});
