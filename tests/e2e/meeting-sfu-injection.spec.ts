// Issue 46 point 2's proof through a real Janus: a participant who holds another sender's key
// (every receiver does, through the SFU) seals frames as that sender, and the SFU passes them off
// under that sender's id. Mallory seals her frames with Ada's current key, under Ada's KID (the
// probe's sfuImpersonate: sender-key-ring.ts impersonate); Bob's connection to Janus goes through a
// relay that swaps Ada's and Mallory's ids in every message both ways (an SFU operator working with
// Mallory), so Bob's page takes Mallory's stream for Ada's. The frames would open under Ada's key
// (tests/unit/e2ee-frame-proof.test.ts shows such a frame opening without the proof); Bob's page
// checks each frame's signature against Ada's frame-proof key first, drops them all, counts them as
// forged, and opens none as Ada's.
import { expect, test, type BrowserContext } from '@playwright/test';
import { decodeHeader } from '../../lib/meeting/e2ee/sframe';
import { senderKid } from '../../lib/meeting/e2ee/sender-keys';
import { E2E_JANUS_BASE_PORT } from './support/constants.mjs';
import { closedAfterEach, fragment, joinMeeting, selfId } from './support/meeting';
import { cryptoStats, mediaRoute, senderKeys, type CryptoStats } from './support/probe-readers';
import { seededAccount } from './support/session';

test.describe.configure({ timeout: 180_000 });

const receivedFrom = (stats: CryptoStats, sender: string) => stats[`sfu:${sender}`]?.received ?? { decrypted: 0, failed: { forged: 0 } };

const open = closedAfterEach();

/**
 * Every text message between the context's pages and Janus, with `a` and `b` swapped (as an SFU
 * that relabels feeds would). Counts the messages it changed.
 */
async function relabelJanus(context: BrowserContext, [a, b]: [string, string]) {
  const relay = { changed: 0 };
  const swap = (message: string | Buffer) => {
    if (typeof message !== 'string') return message;
    const swapped = message
      .split(a)
      .map((part) => part.split(b).join(a))
      .join(b);
    if (swapped !== message) relay.changed++;
    return swapped;
  };
  await context.routeWebSocket(new RegExp(`^ws://[^/]+:${E2E_JANUS_BASE_PORT}(/|$)`), (page) => {
    const janus = page.connectToServer();
    page.onMessage((message) => janus.send(swap(message)));
    janus.onMessage((message) => page.send(swap(message)));
  });
  return relay;
}

test('frames sealed with another sender’s key and passed off under its id by the SFU are dropped as forged, and none opens', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const hash = fragment();
  const join = async (name: string, prepare?: (context: BrowserContext) => Promise<void>) => {
    open.push(await joinMeeting(browser, baseURL!, meetingId, { name, search: '?media=sfu', fragment: hash, prepare }));
    return open.at(-1)!;
  };
  const ada = await join('Ada');
  const mallory = await join('Mallory');
  const [adaId, malloryId] = await Promise.all([selfId(ada.page), selfId(mallory.page)]);
  let relay = { changed: 0 };
  const bob = await join('Bob', async (context) => void (relay = await relabelJanus(context, [adaId, malloryId])));
  for (const { page } of open) await expect.poll(() => mediaRoute(page), { timeout: 30_000 }).toBe('sfu');
  // Janus told Bob who publishes what: under the swapped ids.
  expect(relay.changed).toBeGreaterThan(0);

  // Bob was handed Ada's current key when he came; Mallory holds the one before, from which she
  // derives it (Ada ratcheted for Bob).
  await expect
    .poll(
      async () => {
        const own = (await senderKeys(ada.page)).own;
        const atBob = (await senderKeys(bob.page)).received[adaId];
        const atMallory = (await senderKeys(mallory.page)).received[adaId];
        return own !== null && atBob === own && atMallory !== undefined && atMallory <= own;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const adaGeneration = (await senderKeys(ada.page)).own!;
  expect((await senderKeys(mallory.page)).own).not.toBe(adaGeneration);

  // Mallory seals as Ada: what she sends now carries Ada's KID.
  expect(await mallory.page.evaluate(([id, generation]) => window.enclaveProbe!.sfuImpersonate(id, generation), [adaId, adaGeneration] as const)).toBe(true);
  await mallory.page.waitForTimeout(500);
  const samples = await mallory.page.evaluate(() => window.enclaveProbe!.sampleFrames(30));
  expect(samples.length).toBeGreaterThan(0);
  for (const { sealed } of samples) expect(decodeHeader(Uint8Array.from(sealed))?.kid).toBe(senderKid(adaGeneration));

  // Bob receives them as Ada's for a few seconds: every one is dropped as forged, none opens.
  const before = receivedFrom(await cryptoStats(bob.page), adaId);
  await expect.poll(async () => receivedFrom(await cryptoStats(bob.page), adaId).failed.forged - before.failed.forged, { timeout: 15_000 }).toBeGreaterThan(30);
  const after = receivedFrom(await cryptoStats(bob.page), adaId);
  expect(after.decrypted).toBe(before.decrypted);
  expect(after.decrypted).toBe(0);
  console.log(`sender proof through Janus: ${after.failed.forged} frames passed off as Ada's dropped as forged on Bob's page, ${after.decrypted} opened`);
});
