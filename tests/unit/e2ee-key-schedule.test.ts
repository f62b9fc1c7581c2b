/** @jest-environment node */
// The sender-key schedule between real keys (docs/e2ee-crypto.md "Key schedule"): a joiner opens
// nothing sealed before it was admitted, those already here decrypt across the rotation without a
// gap, a burst of joins is one rotation, and a quiet call rotates on its interval.
import { SWITCH_DELAY_MS } from '@/lib/meeting/client/sfu/sender-key-ring';
import { openAs, room as makeRoom, sealNow, sendAndOpen } from '../support/sender-key-room';
import { until } from '../support/until';

const SCHEDULE = { debounceMs: 40, maxDelayMs: 150, intervalMs: 60_000, graceMs: 60_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every ring a test made is stopped after it, passed or failed: a ring left running keeps its timers going. */
const live: { stop(): void }[] = [];
async function room(...args: Parameters<typeof makeRoom>) {
  const made = await makeRoom(...args);
  live.push(...Object.values(made.rings));
  return made;
}
afterEach(() => {
  for (const ring of live.splice(0)) ring.stop();
});

describe('the key schedule through the SFU', () => {
  it('a joiner opens nothing sealed before its admission; those here keep decrypting across the rotation', async () => {
    const { keyrings, rings, present, settle, sent } = await room(['ada', 'bob', 'cy'], SCHEDULE);
    present.delete('cy');
    await Promise.all([rings.ada!.start(), rings.bob!.start()]);
    await settle();
    const before = await sealNow(keyrings, 'ada');
    expect((await openAs(keyrings, 'ada', 'bob', before)).ok).toBe(true);

    present.add('cy');
    await Promise.all([rings.ada!.peerVerified('cy'), rings.bob!.peerVerified('cy'), rings.cy!.start()]);
    await settle();
    // Admitted, and handed nothing of what is in use (generation 0): only the keys of the rotation
    // its admission causes, which a busy machine may already have sent.
    expect(sent.filter((box) => box.to === 'cy' && box.generation === 0)).toEqual([]);
    expect((await openAs(keyrings, 'ada', 'cy', before)).ok).toBe(false);

    await until(() => sent.filter((box) => box.to === 'cy').length >= 2, 'the rotated keys of ada and bob for cy');
    await settle();
    expect(
      sent
        .filter((box) => box.to === 'cy')
        .map((box) => `${box.from}:${box.generation}`)
        .sort(),
    ).toEqual(['ada:1', 'bob:1']);
    expect(rings.ada!.rotations).toEqual({ join: 1, leave: 0, interval: 0, room: 0 });
    // Given out, not used yet: the frames still go under generation 0, which the joiner cannot open.
    const inFlight = await sealNow(keyrings, 'ada');
    expect(await openAs(keyrings, 'ada', 'cy', inFlight)).toMatchObject({ ok: false, reason: 'unknown-key' });

    await sleep(SWITCH_DELAY_MS + 100);
    expect(rings.ada!.generation).toBe(1);
    expect((await sendAndOpen(keyrings, 'ada', 'cy')).ok).toBe(true);
    expect((await sendAndOpen(keyrings, 'ada', 'bob')).ok).toBe(true);
    // The frame sealed under the old key just before the switch still opens for bob (no gap), never for cy.
    expect((await openAs(keyrings, 'ada', 'bob', inFlight)).ok).toBe(true);
    expect((await openAs(keyrings, 'ada', 'cy', before)).ok).toBe(false);
  });

  it('ten joins in a burst make one rotation, and none of the ten is handed the key in use', async () => {
    const joiners = Array.from({ length: 10 }, (_, index) => `j${index}`);
    const { rings, present, settle, sent } = await room(['ada', 'bob', ...joiners], { ...SCHEDULE, debounceMs: 60, maxDelayMs: 400 });
    for (const id of joiners) present.delete(id);
    await rings.ada!.start();
    await settle();
    // Ten admissions at once: each verification's key work finishes when it does.
    for (const id of joiners) present.add(id);
    await Promise.all(joiners.map((id) => rings.ada!.peerVerified(id)));
    await until(() => joiners.every((id) => sent.some((box) => box.from === 'ada' && box.to === id)), 'a key for each joiner');
    await settle();
    expect(rings.ada!.rotations.join).toBe(1);
    for (const id of joiners) expect(sent.filter((box) => box.from === 'ada' && box.to === id).map((box) => box.generation)).toEqual([1]);
  });

  it('a quiet call rotates on its interval, and the others follow each rotation', async () => {
    const { keyrings, rings, settle } = await room(['ada', 'bob'], { ...SCHEDULE, intervalMs: 150 });
    await Promise.all([rings.ada!.start(), rings.bob!.start()]);
    await settle();
    // Waits on the rotations rather than 380 ms: on a busy machine the second box reached bob late.
    await until(() => rings.ada!.rotations.interval >= 2, 'two rotations on the interval');
    await until(() => (rings.bob!.received().ada ?? 0) >= 2, "bob holding ada's two rotated keys");
    await settle();
    expect(rings.bob!.received().ada).toBe(rings.ada!.rotations.interval);
    // Switched to the second rotation's key after the switch delay (later on a busy machine).
    await until(() => (rings.ada!.generation ?? 0) >= 2, 'the switch to generation 2', SWITCH_DELAY_MS + 5_000);
    await settle();
    expect((await sendAndOpen(keyrings, 'ada', 'bob')).ok).toBe(true);
  });

  it('a receiver drops the previous generation once its grace is over, not before', async () => {
    const { keyrings, rings, present, settle } = await room(['ada', 'bob', 'cy'], { ...SCHEDULE, graceMs: SWITCH_DELAY_MS + 400 });
    await Promise.all(Object.values(rings).map((ring) => ring.start()));
    await settle();
    const [first, second] = [await sealNow(keyrings, 'ada'), await sealNow(keyrings, 'ada')];
    present.delete('cy');
    rings.ada!.peerLeft('cy');
    rings.bob!.peerLeft('cy');
    await until(() => rings.bob!.received().ada === 1, "bob holding ada's key rotated at the leave");
    await settle();
    await sleep(SWITCH_DELAY_MS + 100);
    // Switched, within the grace: a frame sealed under generation 0 before still opens.
    expect(rings.ada!.generation).toBe(1);
    expect((await openAs(keyrings, 'ada', 'bob', first)).ok).toBe(true);
    await sleep(400);
    expect(await openAs(keyrings, 'ada', 'bob', second)).toMatchObject({ ok: false, reason: 'unknown-key' });
    expect((await sendAndOpen(keyrings, 'ada', 'bob')).ok).toBe(true);
  });

  it('those already in the call when we make our first key get it once verified, with no rotation: only newcomers cause one', async () => {
    const { rings, unverified, settle, sent } = await room(['new', 'old'], SCHEDULE);
    unverified.add('old');
    await rings.new!.start();
    await settle();
    expect(sent).toEqual([]);
    unverified.delete('old');
    await rings.new!.peerVerified('old');
    await settle();
    expect(sent.map((box) => `${box.from}>${box.to}:${box.generation}`)).toEqual(['new>old:0']);
    await sleep(SCHEDULE.maxDelayMs + 100);
    expect(rings.new!.rotations).toEqual({ join: 0, leave: 0, interval: 0, room: 0 });
  });
});
