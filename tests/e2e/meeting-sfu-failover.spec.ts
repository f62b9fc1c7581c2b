// Issue 46 point 5: the Janus node a call is on dies mid-call. A call of six (two browsers and four
// Node participants, bench/large-room/crowd.ts) goes through one of two real Janus nodes listed in
// SFU_URLS; that Janus is SIGKILLed, and every browser must receive media again through the other
// node within 5 s, with no decrypt failure and nothing in clear (the browser's half:
// lib/meeting/client/call/route-decisions.ts, a new ticket at once; the server's:
// lib/sfu/ticket.ts, which moves the meeting to the healthy node). The sender keys rotate on a
// leave after the move as before it.
import { expect, test, type Page } from '@playwright/test';
import { startCrowd } from '../../bench/large-room/crowd-process.mjs';
import { startJanus } from '../support/janus.mjs';
import { roomParticipants, tapPublisher } from './support/janus-tap';
import { extraPort, seed, startInstance, tempDataDir } from './support/instances';
import { fragment, joinMeeting, newSecret, selfId, type Participant } from './support/meeting';
import { cryptoStats, mediaRoute, senderKeys, type CryptoStats } from './support/probe-readers';

// One retry: on a quiet machine the recovery took 1.8–2.1 s in most runs and 5.2 s in one
// (2026-11-29), Janus being lost sends media back to the links before a new ticket moves it to the
// other node (lib/meeting/client/call/route-decisions.ts); that variance is open in issue 46. The
// 5 s budget itself stays: one slow try is tolerated, two fail.
test.describe.configure({ timeout: 300_000, retries: 1 });

type Janus = Awaited<ReturnType<typeof startJanus>>;

const SFU_SECRET = 'e2e-failover-sfu-secret-0123456789abcdef';
/** Clear of serve.mjs's Janus (E2E_PORT + 300 … + 399): WebSockets, HTTP, admin, then RTP from + 50. */
const janusBase = (index: number) => Number(process.env.E2E_PORT ?? 3210) + 400 + 100 * index;
/** The budget issue 46 sets: everyone back in a working call within 5 s of the node's death. */
const RECOVERY_MS = 5_000;

const peerIds = (page: Page) => page.evaluate(() => window.enclaveProbe!.getState().peers.map((peer: { id: string }) => peer.id));
const decryptedVia = (stats: CryptoStats, sender: string) => stats[`sfu:${sender}`]?.received.decrypted ?? 0;
/** Every frame that failed to open on this page, by key and reason. */
const failures = (stats: CryptoStats): Record<string, number> =>
  Object.fromEntries(
    Object.entries(stats).flatMap(([key, { received }]) =>
      Object.entries(received.failed)
        .filter(([, count]) => count > 0)
        .map(([reason, count]) => [`${key} ${reason}`, count]),
    ),
  );

test('the Janus node a call of six is on dies: every browser receives media again through the other node within 5 s, every frame encrypted', async ({
  browser,
}) => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  const people: Participant[] = [];
  try {
    const nodes: Janus[] = await Promise.all([0, 1].map((index) => startJanus({ basePort: janusBase(index), secret: SFU_SECRET })));
    cleanups.push(() => Promise.all(nodes.map((node) => node.stop())));
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const env = { DATA_DIR: data.dir, SFU_URLS: nodes.map((node) => `${node.wsUrl}|${node.httpUrl}`).join(','), SFU_SECRET };
    const account = seed(env, 'failover@enclave.local');
    const instance = await startInstance(extraPort(70), env);
    cleanups.push(() => instance.stop());
    const meetingId = account.meetingId;

    // Two browsers, then four Node participants: at six the call moves to the SFU (route-pin.ts SFU_FROM).
    const secret = newSecret();
    for (const name of ['Browser A', 'Browser B']) {
      people.push(await joinMeeting(browser, instance.url, meetingId, { name, fragment: fragment(secret) }));
      cleanups.push(() =>
        people
          .at(-1)!
          .context.close()
          .catch(() => undefined),
      );
    }
    const crowd = startCrowd();
    cleanups.push(() => void crowd.child.kill());
    await crowd.call({ cmd: 'init', baseURL: instance.url, meetingId, secret, audioTo: 'browsers', media: 'sfu', speakers: null });
    await crowd.call({ cmd: 'add', count: 4 });
    const pages = people.map(({ page }) => page);
    const ids = await Promise.all(pages.map(selfId));
    for (const page of pages) await expect.poll(() => mediaRoute(page), { timeout: 60_000 }).toBe('sfu');
    // Each browser opens frames from all five others through the SFU.
    for (const page of pages)
      await expect
        .poll(
          async () => {
            const [stats, others] = await Promise.all([cryptoStats(page), peerIds(page)]);
            return others.length === 5 && others.every((id) => decryptedVia(stats, id) > 20);
          },
          { timeout: 60_000, intervals: [500] },
        )
        .toBe(true);
    const everyone = [...ids, ...(await peerIds(pages[0]!)).filter((id) => !ids.includes(id))];
    const nodeApi = (node: Janus) => ({ api: node.httpUrl, secret: SFU_SECRET });
    const holding = await Promise.all(nodes.map((node) => roomParticipants(meetingId, nodeApi(node))));
    const deadIndex = holding.findIndex((list) => (list?.length ?? 0) === 6);
    expect(deadIndex, `the room on one node with all six: ${JSON.stringify(holding)}`).toBeGreaterThanOrEqual(0);
    const [dead, healthy] = [nodes[deadIndex]!, nodes[1 - deadIndex]!];

    // The node dies as a crash does: no goodbye to anyone.
    const before = await Promise.all(pages.map(cryptoStats));
    const killedAt = Date.now();
    process.kill(dead.pid!, 'SIGKILL');
    // Back when frames from every other participant open again through the SFU, on this page.
    const recovered: (number | null)[] = pages.map(() => null);
    const bySender: Record<string, number>[] = pages.map(() => ({}));
    while (recovered.some((at) => at === null) && Date.now() - killedAt < 30_000) {
      await Promise.all(
        pages.map(async (page, index) => {
          if (recovered[index] !== null) return;
          const stats = await cryptoStats(page);
          const others = everyone.filter((id) => id !== ids[index]);
          for (const id of others)
            if (bySender[index]![id] === undefined && decryptedVia(stats, id) > decryptedVia(before[index]!, id) + 10)
              bySender[index]![id] = Date.now() - killedAt;
          if (others.every((id) => bySender[index]![id] !== undefined)) recovered[index] = Math.max(...others.map((id) => bySender[index]![id]!));
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const name = (id: string) => (ids.includes(id) ? `browser ${'AB'[ids.indexOf(id)]}` : `node ${everyone.indexOf(id) - 1}`);
    console.log(`failover: every other participant's frames open again through the SFU after ${recovered.join(' ms, ')} ms (browsers A, B)`);
    for (const [index, senders] of bySender.entries())
      console.log(
        `  browser ${'AB'[index]} from: ${Object.entries(senders)
          .map(([id, ms]) => `${name(id)} ${ms} ms`)
          .join(', ')}`,
      );
    test.info().annotations.push({ type: 'recovery-ms', description: recovered.join(',') });
    for (const at of recovered) expect(at, 'recovery after the kill, ms').not.toBeNull();
    for (const at of recovered) expect(at!).toBeLessThanOrEqual(RECOVERY_MS);

    // The kill and the move make no frame fail to open, on any key.
    const moved = await Promise.all(pages.map(cryptoStats));
    for (const [index, stats] of moved.entries()) expect(failures(stats), 'frames that failed to open after the kill').toEqual(failures(before[index]!));
    // Through the other node: everyone is in the meeting's room there, and the call is still on the SFU.
    await expect.poll(async () => (await roomParticipants(meetingId, nodeApi(healthy)))?.sort(), { timeout: 15_000 }).toEqual([...everyone].sort());
    expect(await roomParticipants(meetingId, nodeApi(dead))).toBeNull();
    // The machine's route says so once the move has finished (publishing, layers), after the first frames.
    for (const page of pages) await expect.poll(() => mediaRoute(page), { timeout: 10_000 }).toBe('sfu');

    // Nothing in clear: the new node forwards Browser A's sealed frames and none of its clear ones.
    const [tap, samples] = await Promise.all([
      tapPublisher(meetingId, ids[0]!, { seconds: 3, atLeast: 21, maxSeconds: 30, node: nodeApi(healthy) }),
      pages[0]!.waitForTimeout(500).then(() => pages[0]!.evaluate(() => window.enclaveProbe!.sampleFrames(60))),
    ]);
    expect(tap.packets).toBeGreaterThan(20);
    const windows = (frames: number[][]) =>
      frames
        .map((bytes) => Buffer.from(bytes))
        .filter((bytes) => bytes.length >= 64)
        .flatMap((bytes) => [0, 32].map((at) => bytes.subarray(at, at + 32)));
    expect(windows(samples.map(({ sealed }) => sealed)).filter((window) => tap.payloads.includes(window)).length).toBeGreaterThan(0);
    expect(windows(samples.map(({ plain }) => plain)).filter((window) => tap.payloads.includes(window))).toEqual([]);

    // The sender keys go on as designed on the new node's subscriptions: a leave rotates every
    // sender's key, each browser gets the other's new one, and frames keep opening.
    const generations = await Promise.all(pages.map(senderKeys));
    await crowd.call({ cmd: 'leave', count: 1 });
    for (const [index, page] of pages.entries()) {
      const other = ids[1 - index]!;
      await expect
        .poll(
          async () => {
            const [mine, theirs] = [await senderKeys(page), await senderKeys(pages[1 - index]!)];
            return (mine.own ?? 0) > (generations[index]!.own ?? 0) && mine.received[other] === theirs.own;
          },
          { timeout: 30_000, intervals: [500] },
        )
        .toBe(true);
      const rotated = await cryptoStats(page);
      await expect.poll(async () => decryptedVia(await cryptoStats(page), other) > decryptedVia(rotated, other) + 20, { timeout: 15_000 }).toBe(true);
    }
    // No frame ever failed authentication (one not sealed under its sender's key) or its sender's
    // signature. The rotation's own drops (a frame under a key not yet arrived) are reported.
    const after = await Promise.all(pages.map(cryptoStats));
    console.log('frames that failed to open, at the kill and at the end:', JSON.stringify(before.map(failures)), JSON.stringify(after.map(failures)));
    for (const stats of after) expect(Object.keys(failures(stats)).filter((key) => / (auth|forged)$/.test(key))).toEqual([]);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
});
