// Issue 48 point 2: a room's link works for as long as the room exists. Weekly meetings in one
// room with last week's link, a link sent before the host removed someone, and the removed person
// told they cannot rejoin with no tile left behind — in real Chromium (docs/e2ee-crypto.md "Who gets S").
import { expect, test, type Page } from '@playwright/test';
import { closedAfterEach, expectMediaFromPeers, fragment, joinMeeting } from './support/meeting';
import { cryptoStats, encryptionState } from './support/probe-readers';
import { messages } from './support/messages';
import { seededAccount } from './support/session';

const en = messages('en');
test.describe.configure({ timeout: 180_000 });

const open = closedAfterEach();

const peersSeen = (page: Page) => page.evaluate(() => window.enclaveProbe?.getState().peers.map(({ name, keys }) => ({ name, keys })) ?? []);

/** Frames from every peer decrypt on this page, more and more, and none fails its check. */
async function expectDecrypting(page: Page, peers: number) {
  const before = await cryptoStats(page);
  await expect
    .poll(async () => Object.entries(await cryptoStats(page)).filter(([id, s]) => s.received.decrypted > (before[id]?.received.decrypted ?? 0) + 20).length, {
      timeout: 20_000,
      intervals: [500],
    })
    .toBe(peers);
  for (const s of Object.values(await cryptoStats(page))) expect(s.received.failed.auth ?? 0).toBe(0);
}

test('weekly meetings in one room: last week’s link gets a newcomer in, seen and heard, after the room ended and started again', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  // Last week the link sent round carried a key ("#k=", as the in-call copy gave then).
  const lastWeek = fragment();
  const host1 = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', host: 'demo', fragment: lastWeek });
  const bob1 = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', fragment: lastWeek });
  open.push(host1, bob1);
  await expectMediaFromPeers(bob1.page, 1);
  expect(await encryptionState(bob1.page)).toMatchObject({ status: 'on', source: 'link' });
  // The in-call copy now gives the room's link without a key: nothing in it can go out of date.
  await host1.page.getByRole('button', { name: en.Meeting.copyLink }).click();
  expect(await host1.page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/now/${meetingId}`);
  // The meeting ends: everyone leaves, and with them the key.
  for (const { page } of [bob1, host1]) {
    await page.getByRole('button', { name: en.Meeting.leave, exact: true }).click();
    await expect(page.getByRole('heading', { name: en.Meeting.ended.left })).toBeVisible();
  }
  await Promise.all(open.map(({ context }) => context.close()));
  open.length = 0;

  // This week the host starts the room without the old link: a new key.
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', host: 'demo' });
  open.push(host);
  await expect.poll(() => encryptionState(host.page)).toMatchObject({ status: 'on', source: 'created' });
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', fragment: lastWeek });
  open.push(bob);
  await expectMediaFromPeers(bob.page, 1, 45_000);
  await expectMediaFromPeers(host.page, 1, 45_000);
  await expectDecrypting(bob.page, 1);
  await expectDecrypting(host.page, 1);
  expect(await encryptionState(bob.page)).toMatchObject({ status: 'on', source: 'handoff', staleLink: true });
  await expect(bob.page.getByTestId('stale-link')).toHaveText(en.Meeting.e2ee.staleLink);
  await expect(bob.page.getByTestId('encryption-indicator')).toHaveAttribute('data-status', 'on');
  // The host holds its key, is not told "wrong key", and sees Bob, not a tile stuck connecting.
  expect(await encryptionState(host.page)).toMatchObject({ status: 'on', source: 'created' });
  expect(await peersSeen(host.page)).toEqual([{ name: 'Bob', keys: 'verified' }]);
});

test('a link sent before the host removed someone still works after; the removed person is told they cannot rejoin and leaves no tile', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const sent = fragment();
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', host: 'demo', fragment: sent });
  const cy = await joinMeeting(browser, baseURL!, meetingId, { name: 'Cy', fragment: sent });
  open.push(host, cy);
  await expectMediaFromPeers(host.page, 1);

  // "Remove" asks first; Cancel keeps Cy in the call.
  await host.page.getByRole('button', { name: en.Meeting.people, exact: true }).click();
  const panel = host.page.getByRole('complementary');
  const removeCy = panel.getByRole('button', { name: en.Meeting.remove.replace('{name}', 'Cy') });
  await removeCy.click();
  const dialog = host.page.getByRole('dialog', { name: en.Meeting.removeConfirm.title.replace('{name}', 'Cy') });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: en.Meeting.cancel }).click();
  await expect(dialog).toHaveCount(0);
  expect(await peersSeen(host.page)).toEqual([{ name: 'Cy', keys: 'verified' }]);
  await removeCy.click();
  await dialog.getByRole('button', { name: en.Meeting.removeConfirm.confirm, exact: true }).click();

  // Cy is told, and the meeting moves to a new key: the link's key is out of date from now on.
  await expect(cy.page.getByRole('heading', { name: en.Meeting.ended.removed })).toBeVisible();
  await expect(cy.page.getByText(en.Meeting.removedText)).toBeVisible();
  await expect.poll(async () => (await encryptionState(host.page))?.epoch).toBe(1);
  // Cy opens the link again: told again, no lobby, nothing joins.
  await cy.page.goto(`/now/${meetingId}${sent}`);
  await expect(cy.page.getByRole('heading', { name: en.Meeting.ended.removed })).toBeVisible();
  await expect(cy.page.getByText(en.Meeting.removedText)).toBeVisible();
  await expect(cy.page.getByRole('button', { name: /^(Join now|Ask to join)$/ })).toHaveCount(0);

  // Dan opens the link that was sent before the removal: he gets in, sees and hears the host and is seen.
  const dan = await joinMeeting(browser, baseURL!, meetingId, { name: 'Dan', fragment: sent });
  open.push(dan);
  await expectMediaFromPeers(dan.page, 1, 45_000);
  await expectMediaFromPeers(host.page, 1, 45_000);
  await expectDecrypting(dan.page, 1);
  await expectDecrypting(host.page, 1);
  expect(await encryptionState(dan.page)).toMatchObject({ status: 'on', source: 'handoff', epoch: 1, staleLink: true });
  // No ghost: the host sees Dan only, connected.
  expect(await peersSeen(host.page)).toEqual([{ name: 'Dan', keys: 'verified' }]);
  await expect(host.page.getByRole('banner').getByText('2 participants', { exact: true })).toBeVisible();
});
