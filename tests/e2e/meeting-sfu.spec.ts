// Meetings through the SFU (issue 38), in real Chromium against a real Janus (the e2e server
// starts one: tests/e2e/support/serve.mjs): every receiver decrypts every sender through it, the
// mesh links then carry no media, Janus itself forwards only ciphertext, someone removed holds
// none of the keys made after, someone with the wrong room secret decodes nothing, and a call
// moves to the SFU and back as people come and go.
import { expect, test, type Page } from '@playwright/test';
import {
  closedAfterEach,
  expectRemoteTilesPlaying,
  fragment,
  joinMeeting,
  newSecret,
  participantCount,
  sayInChat,
  selfId,
  type Participant,
} from './support/meeting';
import { cryptoStats, mediaRoute, senderKeys, type CryptoStats } from './support/probe-readers';
import { FRAME_PROOF_LENGTH } from '../../lib/meeting/e2ee/frame-proof';
import { FrameDecryptor } from '../../lib/meeting/e2ee/frame';
import { decodeHeader, deriveSFrameKey } from '../../lib/meeting/e2ee/sframe';
import { ratchetSenderKey, senderMediaBaseKey } from '../../lib/meeting/e2ee/sender-keys';
import { tapPublisher } from './support/janus-tap';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const open = closedAfterEach();

/** Frames from each of `senders` (participant ids) keep opening on this page through the SFU. */
async function expectDecryptingThroughSfu(page: Page, senders: string[]) {
  const before = await cryptoStats(page);
  await expect
    .poll(
      async () => {
        const now = await cryptoStats(page);
        return senders.filter((id) => (now[`sfu:${id}`]?.received.decrypted ?? 0) > (before[`sfu:${id}`]?.received.decrypted ?? 0) + 20).length;
      },
      { timeout: 45_000, intervals: [1000] },
    )
    .toBe(senders.length);
  const after = await cryptoStats(page);
  expect(after.sfu?.sent.encrypted).toBeGreaterThan(0);
  for (const id of senders) expect(after[`sfu:${id}`]?.received.failed.auth).toBe(0);
  // Every frame through the SFU carries its sender's signature (issue 46): none of the real ones fails it.
  for (const id of senders) expect(after[`sfu:${id}`]?.received.failed.forged).toBe(0);
}

const expectSaid = (page: Page, text: string) => expect(page.getByRole('complementary').getByText(text, { exact: true })).toBeVisible({ timeout: 15_000 });

/** What the mesh links encrypt: nothing more once media goes through the SFU. */
async function meshFramesSent(page: Page, peers: string[]) {
  const stats = await cryptoStats(page);
  return peers.reduce((sum, id) => sum + (stats[id]?.sent.encrypted ?? 0), 0);
}

test('three participants through the SFU: every receiver decrypts every sender, the mesh carries no media, Janus forwards only ciphertext', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const secret = newSecret();
  const people: Participant[] = [];
  for (const name of ['Ada', 'Bob', 'Cy']) {
    people.push(await joinMeeting(browser, baseURL!, meetingId, { name, search: '?media=sfu', fragment: fragment(secret) }));
    open.push(people.at(-1)!);
  }
  const ids = await Promise.all(people.map(({ page }) => selfId(page)));
  for (const { page } of people) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
  for (const [index, { page }] of people.entries())
    await expectDecryptingThroughSfu(
      page,
      ids.filter((_, other) => other !== index),
    );

  // Who speaks is read from the SFU's receivers: the links carry no audio.
  await expect.poll(() => people[0]!.page.evaluate(() => window.enclaveProbe!.getState().activeSpeaker), { timeout: 15_000 }).not.toBeNull();

  // The links between them stay (chat, state) but encrypt no frame: media goes one way only.
  const [ada] = people;
  const others = ids.slice(1);
  const meshBefore = await meshFramesSent(ada!.page, others);
  await ada!.page.waitForTimeout(2000);
  expect(await meshFramesSent(ada!.page, others)).toBe(meshBefore);

  // Janus forwards Ada's camera to a UDP port of ours while her page samples what it encrypts:
  // her sealed frames are found in what Janus sent (the tap works), no clear frame is.
  const [tap, samples] = await Promise.all([
    tapPublisher(meetingId, ids[0]!, { seconds: 4, atLeast: 31, maxSeconds: 30 }),
    ada!.page.waitForTimeout(1000).then(() => ada!.page.evaluate(() => window.enclaveProbe!.sampleFrames(60))),
  ]);
  expect(tap.packets).toBeGreaterThan(30);
  const windows = (frames: number[][]) =>
    frames
      .map((bytes) => Buffer.from(bytes))
      .filter((bytes) => bytes.length >= 64)
      .flatMap((bytes) => [0, 32].map((at) => bytes.subarray(at, at + 32)));
  const sealed = windows(samples.map(({ sealed }) => sealed));
  const clear = windows(samples.map(({ plain }) => plain));
  expect(clear.length).toBeGreaterThan(0);
  expect(sealed.filter((window) => tap.payloads.includes(window)).length).toBeGreaterThan(0);
  expect(clear.filter((window) => tap.payloads.includes(window))).toEqual([]);
});

test('someone removed gets none of the keys made after; a link with an out-of-date key falls back to being handed the current one', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const secret = newSecret();
  const host = await joinMeeting(browser, baseURL!, meetingId, { name: 'Demo User', host: 'demo', search: '?media=sfu', fragment: fragment(secret) });
  open.push(host);
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', search: '?media=sfu', fragment: fragment(secret) });
  open.push(bob);
  const eve = await joinMeeting(browser, baseURL!, meetingId, { name: 'Eve', search: '?media=sfu', fragment: fragment(newSecret()) });
  open.push(eve);
  const [hostId, bobId] = await Promise.all([host, bob].map(({ page }) => selfId(page)));
  await expectDecryptingThroughSfu(bob.page, [hostId!]);

  // Eve's key is not the room's, as last week's link would be: refused at her first announcement,
  // she drops it and is handed the room's current key like a link without one (issue 48, point 2),
  // says so on screen, and then opens what Janus forwards her under the sender keys she is given.
  await expect.poll(() => mediaRoute(eve.page), { timeout: 30_000 }).toBe('sfu');
  await expect(eve.page.getByTestId('stale-link')).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(
      async () => {
        const stats = await cryptoStats(eve.page);
        return [hostId!, bobId!].every((id) => (stats[`sfu:${id}`]?.received.decrypted ?? 0) > 20);
      },
      { timeout: 45_000, intervals: [1000] },
    )
    .toBe(true);

  // Eve goes. Cy, who has the key, joins, gets everyone's sender key, and is removed by the host.
  await eve.context.close();
  open.splice(open.indexOf(eve), 1);
  // What the host seals under before Cy comes: Cy must never be handed it (issue 46, the key schedule).
  await expect.poll(async () => (await senderKeys(host.page)).received[bobId!] !== undefined, { timeout: 15_000 }).toBe(true);
  const beforeCy = (await senderKeys(host.page)).own!;
  const cy = await joinMeeting(browser, baseURL!, meetingId, { name: 'Cy', search: '?media=sfu', fragment: fragment(secret) });
  open.push(cy);
  const cyId = await selfId(cy.page);
  await expectDecryptingThroughSfu(cy.page, [hostId!, bobId!]);
  // Bob's receiving connection had Eve's streams: Janus may give Cy's the same transceivers, whose
  // transforms then follow them to Cy's keys.
  await expectDecryptingThroughSfu(bob.page, [cyId]);
  const heldByCy = (await senderKeys(cy.page)).received;
  const hostGeneration = (await senderKeys(host.page)).own!;
  expect(heldByCy[hostId!]).toBe(hostGeneration);
  expect(hostGeneration).toBeGreaterThan(beforeCy);

  // The call screen (and its probe) goes with the removal: keep a hold of Cy's to read it after.
  await cy.page.evaluate(() => Object.assign(window, { keptProbe: window.enclaveProbe }));
  await host.page.evaluate((id) => window.enclaveProbe!.hostAction('remove', id), cyId);
  await participantCount(host.page, 2);
  // Host and Bob each make a new key, give it to each other, and send under it a second later.
  await expect.poll(async () => (await senderKeys(host.page)).own, { timeout: 15_000 }).toBeGreaterThan(hostGeneration);
  const hostNow = (await senderKeys(host.page)).own!;
  await expect.poll(async () => (await senderKeys(bob.page)).received[hostId!], { timeout: 15_000 }).toBe(hostNow);
  await expectDecryptingThroughSfu(bob.page, [hostId!]);
  // Cy, removed, holds only what was made before.
  const keptByCy = await cy.page.evaluate(() => (window as unknown as { keptProbe: NonNullable<Window['enclaveProbe']> }).keptProbe.senderKeys());
  expect(keptByCy.received[hostId!]).toBe(hostGeneration);
});

/** An RTP packet's payload: after the fixed header, the CSRCs and the header extension, before any padding. */
function rtpPayload(packet: Buffer): Buffer {
  let at = 12 + 4 * (packet[0]! & 0x0f);
  if (packet[0]! & 0x10) at += 4 + 4 * packet.readUInt16BE(at + 2);
  const padding = packet[0]! & 0x20 ? packet[packet.length - 1]! : 0;
  return packet.subarray(at, packet.length - padding);
}

/** The newest sender key a page was handed by one participant, raw. */
async function heldKey(page: Page, senderId: string) {
  const held = (await page.evaluate(() => window.enclaveProbe!.sfuHeldKeys()))[senderId];
  expect(held, 'a sender key held').toBeDefined();
  return held!;
}

/** The key and the next `steps` generations anyone holding it can derive (the ratchet on join). */
async function withRatchets(held: { generation: number; key: number[] }, steps: number): Promise<number[][]> {
  const keys = [held.key];
  let key = { generation: held.generation, key: Uint8Array.from(held.key) };
  for (let step = 0; step < steps; step += 1) keys.push([...(key = await ratchetSenderKey(key)).key]);
  return keys;
}

/**
 * How many of these sealed Opus frames (TOC byte ‖ SFrame ‖ frame proof) a raw sender key opens,
 * trying it under whatever KID each frame names: the key material itself is what is tested.
 */
async function framesOpenedBy(raw: number[], packets: Buffer[]): Promise<number> {
  const base = await senderMediaBaseKey(Uint8Array.from(raw), 'audio');
  let opened = 0;
  for (const packet of packets) {
    const payload = rtpPayload(packet);
    const data = new Uint8Array(payload.subarray(0, payload.length - FRAME_PROOF_LENGTH));
    const header = decodeHeader(data, 1);
    if (!header) continue;
    const decryptor = new FrameDecryptor();
    decryptor.setKey(await deriveSFrameKey(base, header.kid));
    if ((await decryptor.open(data, 1)).ok) opened += 1;
  }
  return opened;
}

test('a joiner’s key opens none of the ciphertext Janus carried before it was admitted (a tap kept it), and a leaver’s none of what comes after it left', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const hash = fragment(newSecret());
  const join = async (name: string) => {
    open.push(await joinMeeting(browser, baseURL!, meetingId, { name, search: '?media=sfu', fragment: hash }));
    return open.at(-1)!;
  };
  const ada = await join('Ada');
  const bob = await join('Bob');
  const [adaId, bobId] = await Promise.all([ada, bob].map(({ page }) => selfId(page)));
  await expectDecryptingThroughSfu(bob.page, [adaId!]);
  await expectDecryptingThroughSfu(ada.page, [bobId!]);

  // An SFU operator keeps Ada's microphone as Janus forwards it, before Cy comes.
  const generationBefore = (await senderKeys(ada.page)).own!;
  const before = await tapPublisher(meetingId, adaId!, { seconds: 3, atLeast: 51, maxSeconds: 20, mid: '0' });
  expect(before.packets).toBeGreaterThan(50);
  // Nobody came or went while it tapped: Bob's key of Ada's opens those frames (they are real ones, and the method works).
  const bobHeld = await heldKey(bob.page, adaId!);
  expect([bobHeld.generation, (await senderKeys(ada.page)).own]).toEqual([generationBefore, generationBefore]);
  expect(await framesOpenedBy(bobHeld.key, before.each)).toBeGreaterThan(before.packets / 2);

  // Ada ratchets for Cy and hands Cy the result: Cy can derive what comes after it, nothing before.
  const cy = await join('Cy');
  await expectDecryptingThroughSfu(cy.page, [adaId!]);
  const cyHeld = await heldKey(cy.page, adaId!);
  expect(cyHeld.generation).toBeGreaterThan(generationBefore);
  const cyCould = await withRatchets(cyHeld, 6);
  const after = await tapPublisher(meetingId, adaId!, { seconds: 3, atLeast: 51, maxSeconds: 20, mid: '0' });
  const generationAfter = (await senderKeys(ada.page)).own!;

  // Cy's key opens what Ada sends under it now; none of Cy's keys opens anything from before Cy came.
  expect(generationAfter).toBe(cyHeld.generation);
  expect(await framesOpenedBy(cyHeld.key, after.each)).toBeGreaterThan(after.packets / 2);
  for (const key of cyCould) expect(await framesOpenedBy(key, before.each)).toBe(0);

  // Cy leaves: Ada rotates to a key Cy never gets. What Janus carries then, Cy's last key opens none of; Bob's opens it.
  await cy.context.close();
  open.splice(open.indexOf(cy), 1);
  await expect.poll(async () => (await senderKeys(ada.page)).own, { timeout: 15_000 }).toBeGreaterThan(generationAfter);
  const generationGone = (await senderKeys(ada.page)).own!;
  await expect.poll(async () => (await senderKeys(bob.page)).received[adaId!], { timeout: 15_000 }).toBe(generationGone);
  // Past the 1 s switch to the new key.
  await ada.page.waitForTimeout(1500);
  const gone = await tapPublisher(meetingId, adaId!, { seconds: 3, atLeast: 51, maxSeconds: 20, mid: '0' });
  expect((await senderKeys(ada.page)).own).toBe(generationGone);
  const bobNow = await heldKey(bob.page, adaId!);
  expect(bobNow.generation).toBe(generationGone);
  expect(await framesOpenedBy(bobNow.key, gone.each)).toBeGreaterThan(gone.packets / 2);
  // Neither the leaver's key nor any ratchet Cy could still make of it opens any of that.
  for (const key of cyCould) expect(await framesOpenedBy(key, gone.each)).toBe(0);
  console.log(
    `joiner: ${before.packets} of Ada's packets from before Cy came, none opened by Cy's key (generation ${cyHeld.generation}) or its ratchets; ${after.packets} while Cy was there; ${gone.packets} after Cy left (generation ${generationGone}), none opened by Cy's`,
  );
});

test('a quiet call rotates its sender keys on the interval (shortened to 4 s by ?keyEvery=4) with no frame failing to open across the switches', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const hash = fragment(newSecret());
  for (const name of ['Ada', 'Bob']) open.push(await joinMeeting(browser, baseURL!, meetingId, { name, search: '?media=sfu&keyEvery=4', fragment: hash }));
  const [ada, bob] = open as [Participant, Participant];
  const [adaId, bobId] = await Promise.all([ada, bob].map(({ page }) => selfId(page)));
  await expectDecryptingThroughSfu(ada.page, [bobId!]);
  await expectDecryptingThroughSfu(bob.page, [adaId!]);
  const failedFrom = (stats: CryptoStats, id: string) => Object.values(stats[`sfu:${id}`]?.received.failed ?? {}).reduce((sum, count) => sum + count, 0);
  const start = await Promise.all([ada, bob].map(async ({ page }) => ({ own: (await senderKeys(page)).own!, stats: await cryptoStats(page) })));

  // Nobody joins or leaves: three more intervals, three more keys from each sender, each reaching the other.
  for (const [at, { page }] of [ada, bob].entries())
    await expect.poll(async () => (await senderKeys(page)).own!, { timeout: 30_000, intervals: [500] }).toBeGreaterThanOrEqual(start[at]!.own + 3);
  // Each holds the other's key in use, or already the next one: a key is given out SWITCH_DELAY_MS
  // (lib/meeting/client/sfu/sender-key-ring.ts) before its sender uses it, so both are read in one
  // poll. A value read once before polling went stale at the next rotation (CI, 2026-12-01: 5 against 11).
  const keyLead = async (sender: Participant, senderId: string, receiver: Participant) => {
    const inUse = (await senderKeys(sender.page)).own!;
    return ((await senderKeys(receiver.page)).received[senderId] ?? -1) - inUse;
  };
  await expect.poll(() => keyLead(ada, adaId!, bob)).toBeGreaterThanOrEqual(0);
  await expect.poll(() => keyLead(bob, bobId!, ada)).toBeGreaterThanOrEqual(0);
  // And the frames kept opening through every switch: none failed, whatever the reason.
  const [adaNow, bobNow] = await Promise.all([ada, bob].map(({ page }) => cryptoStats(page)));
  expect(failedFrom(adaNow!, bobId!)).toBe(failedFrom(start[0]!.stats, bobId!));
  expect(failedFrom(bobNow!, adaId!)).toBe(failedFrom(start[1]!.stats, adaId!));
  expect(bobNow![`sfu:${adaId}`]!.received.decrypted - (start[1]!.stats[`sfu:${adaId}`]?.received.decrypted ?? 0)).toBeGreaterThan(100);
  expect(adaNow![`sfu:${bobId}`]!.received.decrypted - (start[0]!.stats[`sfu:${bobId}`]?.received.decrypted ?? 0)).toBeGreaterThan(100);
});

test('a call moves to the SFU when it grows and back to the mesh when it shrinks, never without frame encryption, chat flowing throughout', async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const secret = newSecret();
  // From 3 people through the SFU, at 2 back to the mesh (the automatic rule, with a lower threshold).
  const join = (name: string) => joinMeeting(browser, baseURL!, meetingId, { name, search: '?sfuFrom=3', fragment: fragment(secret) });
  const ada = await join('Ada');
  open.push(ada);
  const bob = await join('Bob');
  open.push(bob);
  const [adaId, bobId] = await Promise.all([ada, bob].map(({ page }) => selfId(page)));
  await expect.poll(async () => (await cryptoStats(ada.page))[bobId!]?.received.decrypted ?? 0, { timeout: 30_000 }).toBeGreaterThan(20);
  expect(await mediaRoute(ada.page)).toBe('mesh');
  // The header says where the media goes (the machine's route, route-decisions.ts).
  await expect(ada.page.getByTestId('media-route')).toContainText('Direct');
  // Chat (the call's data messages) flows on every route and through every move.
  for (const { page } of [ada, bob]) await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await sayInChat(bob.page, 'on the mesh');
  await expectSaid(ada.page, 'on the mesh');

  const cy = await join('Cy');
  open.push(cy);
  // Said while the call moves to the SFU.
  await sayInChat(bob.page, 'while moving');
  const cyId = await selfId(cy.page);
  for (const { page } of [ada, bob, cy]) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
  await expect(ada.page.getByTestId('media-route')).toBeVisible();
  await expect(ada.page.getByTestId('media-route')).toContainText('Via SFU');
  await expectDecryptingThroughSfu(ada.page, [bobId!, cyId!]);
  await expectDecryptingThroughSfu(cy.page, [adaId!, bobId!]);
  await expectRemoteTilesPlaying(ada.page, 2);
  await expectSaid(ada.page, 'while moving');
  await cy.page.getByRole('button', { name: 'Chat', exact: true }).click();
  await sayInChat(cy.page, 'through the SFU');
  for (const { page } of [ada, bob]) await expectSaid(page, 'through the SFU');

  await cy.context.close();
  open.splice(open.indexOf(cy), 1);
  for (const { page } of [ada, bob]) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('mesh');
  await expect(ada.page.getByTestId('media-route')).toContainText('Direct');
  // Back on the link between them, still sealed with their pairwise keys.
  const before = (await cryptoStats(ada.page))[bobId!]?.received.decrypted ?? 0;
  await expect.poll(async () => (await cryptoStats(ada.page))[bobId!]?.received.decrypted ?? 0, { timeout: 30_000 }).toBeGreaterThan(before + 20);
  expect((await cryptoStats(ada.page))[bobId!]?.received.failed.auth).toBe(0);
  // And shown: Bob's tile plays his camera over the link again, not the SFU's ended track.
  await expectRemoteTilesPlaying(ada.page, 1);
  await sayInChat(ada.page, 'back on the mesh');
  await expectSaid(bob.page, 'back on the mesh');
});

/** The simulcast layers (rid: frame height) whose frames advanced over half a second. */
async function layersSending(page: Page): Promise<Record<string, number>> {
  const stats = () => page.evaluate(() => window.enclaveProbe!.sfuStats().then(({ layers }) => layers));
  const before = await stats();
  await page.waitForTimeout(500);
  const after = await stats();
  return Object.fromEntries(
    Object.entries(after)
      .filter(([rid, layer]) => layer.active && layer.frames > (before[rid]?.frames ?? 0))
      .map(([rid, layer]) => [rid, layer.height]),
  );
}

test("each receiver gets the camera layer its tile needs: the sender's full size in a small call, nothing while the tile is hidden", async ({
  browser,
  baseURL,
}) => {
  const meetingId = seededAccount('demo').meetingId;
  const secret = newSecret();
  const ada = await joinMeeting(browser, baseURL!, meetingId, { name: 'Ada', search: '?media=sfu', fragment: fragment(secret) });
  open.push(ada);
  const bob = await joinMeeting(browser, baseURL!, meetingId, { name: 'Bob', search: '?media=sfu', fragment: fragment(secret) });
  open.push(bob);
  const adaId = await selfId(ada.page);
  await expectDecryptingThroughSfu(bob.page, [adaId]);
  /** Frames of Ada's camera decoded on Bob's page, and their height. */
  const camera = async () => {
    const { received } = await bob.page.evaluate(() => window.enclaveProbe!.sfuStats());
    return (
      Object.values(received)
        .filter(({ kind }) => kind === 'video')
        .sort((a, b) => b.frames - a.frames)[0] ?? { frames: 0, height: 0 }
    );
  };
  // Two in the call: Bob asks Janus for the top layer. Ada's encoder sends it at the capture's
  // size, unless her bandwidth estimate or this machine's load has it scaled down or paused for
  // a while (libwebrtc adapts simulcast so): Bob must get the tallest layer she sends, of two or
  // three, never a lower one.
  await expect
    .poll(
      async () => {
        const sending = await layersSending(ada.page);
        const received = (await camera()).height;
        const heights = Object.values(sending);
        // On failure the message shows the last look: what Ada sent, what Bob decoded.
        return heights.length >= 2 && received === Math.max(...heights) ? 'the tallest' : `${received}p of ${JSON.stringify(sending)}`;
      },
      { timeout: 45_000, intervals: [1000] },
    )
    .toBe('the tallest');

  // Bob's tile of Ada goes out of view: Janus stops forwarding her camera to him.
  await bob.page.evaluate((id) => window.enclaveProbe!.showPeer(id, false), adaId);
  await bob.page.waitForTimeout(1500);
  const paused = (await camera()).frames;
  await bob.page.waitForTimeout(2000);
  expect((await camera()).frames - paused).toBeLessThan(3);
  // And back in view: frames again.
  await bob.page.evaluate((id) => window.enclaveProbe!.showPeer(id, true), adaId);
  await expect.poll(async () => (await camera()).frames, { timeout: 15_000 }).toBeGreaterThan(paused + 20);
});
