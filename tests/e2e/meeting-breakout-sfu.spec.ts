// Breakout rooms through the SFU (docs/e2ee-crypto.md "Breakout key epochs"), in real Chromium
// against the e2e server's Janus: the host puts Ada and Bob in room 1 and Cy in room 2, then
// visits room 2. Each page decodes only its room and receives nothing else from Janus; every
// sender's key changed when the rooms opened and reached only its room; Cy's page, subscribing to
// Ada anyway as a curious page could (Janus forwards ciphertext to anyone in its room), counts
// every one of her frames failing to open. Chat stays in the room; leaving the visit rotates room
// 2's keys away from the host; closing brings everyone back, decoding everyone under new keys.
// A second test moves a call with rooms open from the mesh to the SFU: the rooms stay apart.
import { expect, test, type Page } from '@playwright/test';
import { closedAfterEach, fragment, joinMeeting, selfId, untilCountsStandStill } from './support/meeting';
import { chatTexts, cryptoStats, mediaRoute, senderKeys, sfuMessages, type CryptoStats } from './support/probe-readers';
import { messages } from './support/messages';
import { seededAccount } from './support/session';

// The four-person test alone took 1 min 3 s on a machine at full speed and 2.8 min on one at a
// quarter of it (2026-12-01), where inside the whole meetings run it passed 4 minutes: its budget
// is the slow machine's, not a wait on anything.
test.describe.configure({ timeout: 360_000 });

const b = messages('en').Breakout;
const m = messages('en').Meeting;
const open = closedAfterEach();

/** Frames from a sender through the SFU that opened here, and those that did not. */
const framesFrom = (stats: CryptoStats, id: string) => {
  const received = stats[`sfu:${id}`]?.received;
  const failed = received ? Object.values(received.failed).reduce((sum, count) => sum + count, 0) : 0;
  return { decrypted: received?.decrypted ?? 0, failed };
};

/**
 * Through the SFU, frames keep opening from `inRoom` and none arrive from `apart` any more, opened
 * or not: Janus no longer forwards them to this page.
 */
async function decodesOnlyThroughSfu(page: Page, inRoom: string[], apart: string[]) {
  const total = (stats: CryptoStats, id: string) => framesFrom(stats, id).decrypted + framesFrom(stats, id).failed;
  const before = await untilCountsStandStill(() => cryptoStats(page), total, apart, { timeout: 30_000, interval: 1_500 }).catch(async (error: unknown) => {
    // Seen twice, once on CI, and never on a rerun (2026-12-01): what the page held when the
    // frames kept coming, for the next time. `hearing` lists the publishers its subscription reaches.
    const [stats, messages, rooms] = await Promise.all([cryptoStats(page), sfuMessages(page), page.evaluate(() => window.enclaveProbe!.breakout().open)]);
    const received = Object.fromEntries(apart.map((id) => [id, stats[`sfu:${id}`]?.received]));
    console.log(`frames from another room kept coming: ${JSON.stringify({ received, hearing: messages?.hearing, rooms })}`);
    throw error;
  });
  for (const id of inRoom)
    await expect
      .poll(async () => framesFrom(await cryptoStats(page), id).decrypted - framesFrom(before, id).decrypted, { timeout: 30_000 })
      .toBeGreaterThan(20);
  const after = await cryptoStats(page);
  for (const id of apart) expect(total(after, id), `frames from ${id}`).toBe(total(before, id));
}

/** The host's dialog: Ada and Bob to room 1, Cy to room 2. */
async function openRooms(host: Page, assignment: Record<string, number>) {
  await host.getByRole('button', { name: b.title }).filter({ visible: true }).click();
  const dialog = host.getByRole('dialog', { name: b.title });
  await dialog.getByLabel(b.count).selectOption('2');
  for (const [name, room] of Object.entries(assignment))
    await dialog.getByLabel(b.roomFor.replace('{name}', name)).selectOption({ label: b.roomName.replace('{number}', String(room)) });
  await dialog.getByRole('button', { name: b.openRooms }).click();
  await expect(dialog).toBeHidden();
}

const roomName = (number: number) => b.roomName.replace('{number}', String(number));

/**
 * Ada and Bob join with their cameras off: a frame is a frame to the keys (the counts read their
 * microphones'), and four 720p encoders with their decoders left the two cores no time for the
 * rest (a banner over 10 s late on a loaded run). The host and Cy keep theirs, so each room's move
 * regroups video subscriptions too.
 */
const AUDIO_ONLY = new Set(['Ada', 'Bob']);

test('four people in two rooms through the SFU: each room its own keys, another room’s frames do not open, the host visits, all come back', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const hash = fragment();
  const join = async (name: string, host = false) => {
    const participant = await joinMeeting(browser, baseURL!, meetingId, {
      name,
      search: '?media=sfu',
      fragment: hash,
      ...(host && { host: 'demo' as const }),
      ...(AUDIO_ONLY.has(name) && { camera: false as const }),
    });
    open.push(participant);
    return participant;
  };
  const host = await join('Demo User', true);
  const ada = await join('Ada');
  const bob = await join('Bob');
  const cy = await join('Cy');
  const everyone = [host, ada, bob, cy];
  const [hostId, adaId, bobId, cyId] = await Promise.all(everyone.map(({ page }) => selfId(page)));
  const ids = [hostId!, adaId!, bobId!, cyId!];
  for (const { page } of everyone) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
  for (const [index, { page }] of everyone.entries())
    await decodesOnlyThroughSfu(
      page,
      ids.filter((_, other) => other !== index),
      [],
    );
  const mainGeneration = Object.fromEntries(await Promise.all(everyone.map(async ({ page }, at) => [ids[at], (await senderKeys(page)).own!] as const)));

  await openRooms(host.page, { Ada: 1, Bob: 1, Cy: 2 });
  // The host's message over a link, to pages that share two cores with 12 video decoders: on a
  // loaded CI run (2026-11-30) Ada's banner took over 10 s.
  await expect(ada.page.getByText(b.inRoom.replace('{room}', roomName(1)))).toBeVisible({ timeout: 30_000 });
  await expect(cy.page.getByText(b.inRoom.replace('{room}', roomName(2)))).toBeVisible({ timeout: 30_000 });
  // The host visits room 2 from the dialog.
  await host.page.getByRole('button', { name: b.manage }).click();
  await host.page.getByRole('button', { name: b.visit.replace('{room}', roomName(2)) }).click();
  await expect(host.page.getByText(b.hostVisiting.replace('{room}', roomName(2)))).toBeVisible();
  await host.page
    .getByRole('dialog', { name: b.title })
    .getByRole('button', { name: messages('en').Modal.close, exact: true })
    .click();

  // Every sender moved to a key of its room's epoch, and only its room holds it.
  for (const [at, { page }] of everyone.entries())
    await expect.poll(async () => (await senderKeys(page)).own!, { timeout: 15_000 }).toBeGreaterThan(mainGeneration[ids[at]!]!);
  const own = async (page: Page) => (await senderKeys(page)).own!;
  // The holder has the sender's key of now, both read together: every regroup asks for a rotation
  // (sender-key-ring.ts regroup), and the split and the host's visit make two when they come more
  // than a second apart (key-schedule.ts maxDelayMs), as on a loaded CI run.
  const holdsCurrent = async (holder: Page, sender: Page, senderId: string) => (await senderKeys(holder)).received[senderId] === (await own(sender));
  await expect.poll(() => holdsCurrent(bob.page, ada.page, adaId!), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => holdsCurrent(host.page, cy.page, cyId!), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => holdsCurrent(cy.page, host.page, hostId!), { timeout: 15_000 }).toBe(true);
  expect((await senderKeys(cy.page)).received[adaId!]).toBeLessThan(await own(ada.page));
  expect((await senderKeys(ada.page)).received[cyId!]).toBeLessThan(await own(cy.page));
  expect((await senderKeys(ada.page)).received[hostId!]).toBeLessThan(await own(host.page));

  // Media: each page decodes its room and receives nothing from the other.
  await decodesOnlyThroughSfu(ada.page, [bobId!], [cyId!, hostId!]);
  await decodesOnlyThroughSfu(cy.page, [hostId!], [adaId!, bobId!]);
  await decodesOnlyThroughSfu(host.page, [cyId!], [adaId!, bobId!]);

  // Cy's page asks Janus for Ada's streams anyway: they arrive, and not one frame opens.
  const peeked = framesFrom(await cryptoStats(cy.page), adaId!);
  await cy.page.evaluate((id) => window.enclaveProbe!.sfuPeek(id), adaId!);
  await expect.poll(async () => framesFrom(await cryptoStats(cy.page), adaId!).failed - peeked.failed, { timeout: 30_000 }).toBeGreaterThan(30);
  expect(framesFrom(await cryptoStats(cy.page), adaId!).decrypted).toBe(peeked.decrypted);

  // Chat stays in the room.
  await ada.page.getByRole('button', { name: m.chat, exact: true }).click();
  await ada.page.getByLabel(m.chatMessage, { exact: true }).fill('Only for room one');
  await ada.page.getByLabel(m.chatMessage, { exact: true }).press('Enter');
  await expect.poll(() => chatTexts(bob.page)).toContain('Only for room one');
  expect(await chatTexts(cy.page)).not.toContain('Only for room one');
  expect(await chatTexts(host.page)).not.toContain('Only for room one');

  // The host goes back to the main room: Cy rotates to a key the host does not get.
  const cyDuringVisit = await own(cy.page);
  await host.page.getByRole('button', { name: b.leaveVisit }).click();
  await expect(host.page.getByText(b.hostOpen, { exact: true })).toBeVisible();
  await expect.poll(() => own(cy.page), { timeout: 15_000 }).toBeGreaterThan(cyDuringVisit);
  await host.page.waitForTimeout(1500);
  expect((await senderKeys(host.page)).received[cyId!]).toBe(cyDuringVisit);
  await decodesOnlyThroughSfu(host.page, [], [adaId!, bobId!, cyId!]);

  // Close now: everyone rotates to a key for the whole call and decodes everyone again.
  await host.page.getByRole('button', { name: b.manage }).click();
  await host.page.getByRole('dialog', { name: b.title }).getByRole('button', { name: b.closeRooms }).click();
  for (const { page } of everyone) await expect(page.getByRole('region', { name: b.title })).toHaveCount(0, { timeout: 20_000 });
  for (const [index, { page }] of everyone.entries()) {
    const others = ids.filter((_, other) => other !== index);
    await decodesOnlyThroughSfu(page, others, []);
    const keys = await senderKeys(page);
    for (const [at, other] of everyone.entries()) if (at !== index) expect(keys.received[ids[at]!]).toBe(await own(other.page));
  }
});

test('rooms opened on the mesh stay apart when the call moves to the SFU', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const hash = fragment();
  const join = async (name: string, host = false) => {
    const participant = await joinMeeting(browser, baseURL!, meetingId, {
      name,
      search: '?sfuFrom=4',
      fragment: hash,
      ...(host && { host: 'demo' as const }),
      ...(AUDIO_ONLY.has(name) && { camera: false as const }),
    });
    open.push(participant);
    return participant;
  };
  const host = await join('Demo User', true);
  const ada = await join('Ada');
  const bob = await join('Bob');
  for (const { page } of [host, ada, bob]) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('mesh');
  await openRooms(host.page, { Ada: 1, Bob: 2 });
  await expect(bob.page.getByText(b.inRoom.replace('{room}', roomName(2)))).toBeVisible({ timeout: 30_000 });

  // A fourth person makes the call move to the SFU; Cy lands in the main room with the host.
  const cy = await join('Cy');
  const everyone = [host, ada, bob, cy];
  for (const { page } of everyone) await expect.poll(() => mediaRoute(page), { timeout: 45_000 }).toBe('sfu');
  const [hostId, adaId, bobId, cyId] = await Promise.all(everyone.map(({ page }) => selfId(page)));
  await decodesOnlyThroughSfu(host.page, [cyId!], [adaId!, bobId!]);
  await decodesOnlyThroughSfu(cy.page, [hostId!], [adaId!, bobId!]);
  await decodesOnlyThroughSfu(ada.page, [], [bobId!, hostId!, cyId!]);
  expect((await senderKeys(ada.page)).received[bobId!]).toBeUndefined();
  expect((await senderKeys(cy.page)).received[adaId!]).toBeUndefined();
});
