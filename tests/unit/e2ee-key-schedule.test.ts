/** @jest-environment node */
// The sender-key schedule between real keys (docs/e2ee-crypto.md "Rotation"): a joiner opens
// nothing sealed before it was admitted, those already here decrypt across the ratchet without a
// gap or a message, a burst of joins costs one box per joiner, and a quiet call rotates on its
// interval.
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
  it('a joiner opens nothing sealed before its admission; every sender ratchets for it at once, and those here follow with no message', async () => {
    const { keyrings, rings, present, settle, sent } = await room(['ada', 'bob', 'cy'], SCHEDULE);
    present.delete('cy');
    await Promise.all([rings.ada!.start(), rings.bob!.start()]);
    await settle();
    const before = await sealNow(keyrings, 'ada');
    expect((await openAs(keyrings, 'ada', 'bob', before)).ok).toBe(true);
    const inFlight = await sealNow(keyrings, 'ada');
    const boxesBefore = sent.length;

    // Ada verifies Cy first: she ratchets and sends under the new key at once. Bob, who has not
    // seen Cy yet, opens it from the generations he installed ahead.
    present.add('cy');
    await Promise.all([rings.ada!.peerVerified('cy'), rings.cy!.start()]);
    await settle();
    expect(rings.ada!.generation).toBe(1);
    expect(rings.ada!.rotations).toEqual({ join: 1, leave: 0, interval: 0, room: 0 });
    const ratcheted = await sealNow(keyrings, 'ada');
    expect((await openAs(keyrings, 'ada', 'bob', ratcheted)).ok).toBe(true);
    expect((await openAs(keyrings, 'ada', 'cy', ratcheted)).ok).toBe(true);
    await rings.bob!.peerVerified('cy');
    await settle();

    // One box per sender, each to the joiner, of a generation made after it came; none to Bob or Ada.
    expect(
      sent
        .slice(boxesBefore)
        .filter((box) => box.from !== 'cy')
        .map((box) => `${box.from}>${box.to}:${box.generation}`)
        .sort(),
    ).toEqual(['ada>cy:1', 'bob>cy:1']);
    // Cy opens nothing sealed before it came, under any key it holds.
    expect((await openAs(keyrings, 'ada', 'cy', before)).ok).toBe(false);
    expect((await sendAndOpen(keyrings, 'bob', 'cy')).ok).toBe(true);
    expect((await sendAndOpen(keyrings, 'bob', 'ada')).ok).toBe(true);
    // A frame sealed under the old key before the ratchet, arriving late, still opens for Bob (no gap), never for Cy.
    expect((await openAs(keyrings, 'ada', 'bob', inFlight)).ok).toBe(true);
    expect((await openAs(keyrings, 'ada', 'cy', inFlight)).ok).toBe(false);
  });

  it('ten joins in a burst cost each sender one box per joiner and none to those here, and none of the ten is handed the key in use', async () => {
    const joiners = Array.from({ length: 10 }, (_, index) => `j${index}`);
    const { keyrings, rings, present, settle, sent } = await room(['ada', 'bob', ...joiners], SCHEDULE);
    for (const id of joiners) present.delete(id);
    await Promise.all([rings.ada!.start(), rings.bob!.start()]);
    await settle();
    const boxesBefore = sent.length;
    // Ten admissions at once: each verification's key work finishes when it does.
    for (const id of joiners) present.add(id);
    await Promise.all(joiners.flatMap((id) => [rings.ada!.peerVerified(id), rings.bob!.peerVerified(id)]));
    await until(() => joiners.every((id) => sent.some((box) => box.from === 'ada' && box.to === id)), 'a key for each joiner');
    await settle();
    const fromAda = sent.slice(boxesBefore).filter((box) => box.from === 'ada');
    expect(fromAda.map((box) => box.to).sort()).toEqual([...joiners].sort());
    expect(fromAda.every((box) => box.generation >= 1)).toBe(true);
    // Bob was handed nothing, and follows Ada's ten ratchets.
    expect(rings.ada!.generation).toBe(10);
    expect((await sendAndOpen(keyrings, 'ada', 'bob')).ok).toBe(true);
    for (const id of joiners) await rings[id]!.start();
    await settle();
    expect((await sendAndOpen(keyrings, 'ada', 'j0')).ok).toBe(true);
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
