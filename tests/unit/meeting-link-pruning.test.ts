/** @jest-environment node */
// Connections through the SFU (issue 46; docs/meetings.md "Connections through the SFU"): which
// calls keep a link to every peer (route-decisions.ts keepsLinks), what the machine opens when
// (machine.ts), and how a link the call no longer keeps goes by agreement (call/link-pruning.ts).
import { step, type MachineState } from '@/lib/meeting/client/call/machine';
import { LINK_OFF, LinkPruning, type LinkPruningContext, type PrunedLink } from '@/lib/meeting/client/call/link-pruning';
import { initialRoute, keepsLinks } from '@/lib/meeting/client/call/route-decisions';
import { LINKS_UP_TO, linksUpToOf } from '@/lib/meeting/client/call/route-pin';
import { inCall, person, run, SELF, server, fresh } from '../support/meeting-machine';

/** Ids that sort after our own "m": we never offer first to them without a handoff. */
const others = (count: number) => Array.from({ length: count }, (_, index) => `p${String(index).padStart(3, '0')}`);

describe('which calls keep a link to every peer', () => {
  it('up to LINKS_UP_TO on the SFU, any size where the mesh is all there is', () => {
    const auto = initialRoute();
    expect(keepsLinks(auto, LINKS_UP_TO)).toBe(true);
    expect(keepsLinks(auto, LINKS_UP_TO + 1)).toBe(false);
    expect(keepsLinks({ ...auto, refused: true }, 50)).toBe(true);
    expect(keepsLinks({ ...auto, backingOff: true }, 50)).toBe(true);
    expect(keepsLinks(initialRoute('mesh'), 50)).toBe(true);
    expect(keepsLinks(initialRoute('sfu'), 50)).toBe(false);
    expect(keepsLinks(initialRoute('sfu', 2), 3)).toBe(false);
    expect(keepsLinks(initialRoute('sfu', 3), 3)).toBe(true);
  });

  it('the address may lower it, within reason', () => {
    expect(linksUpToOf('?media=sfu&linksUpTo=2')).toBe(2);
    for (const search of ['', '?linksUpTo=0', '?linksUpTo=1.5', '?linksUpTo=999', '?linksUpTo=x']) expect(linksUpToOf(search)).toBe(LINKS_UP_TO);
  });
});

describe('what the machine opens', () => {
  const verified = (state: MachineState, ids: string[]) =>
    run(state, ...ids.map((peerId) => ({ type: 'peer-keys' as const, peerId, keys: 'verified' as const }))).state;

  it('a call above LINKS_UP_TO opens no link on a verification or a handoff, but answers a signal (a file)', () => {
    const state = inCall('a', ...others(LINKS_UP_TO));
    expect(step(state, { type: 'peer-verified', peerId: 'a', theyHandedOff: false }).effects).toEqual([]);
    expect(step(state, { type: 'peer-handed-off', peerId: 'a' }).effects).toEqual([]);
    expect(step(state, { type: 'peer-signal', peerId: 'a' }).effects).toEqual([
      { type: 'open-link', peerId: 'a', initiator: false },
      { type: 'apply-encodings' },
    ]);
  });

  it('a call at LINKS_UP_TO still links on a verification', () => {
    const crowd = others(LINKS_UP_TO - 1);
    const state = inCall(...crowd);
    expect(step(state, { type: 'peer-verified', peerId: crowd[0]!, theyHandedOff: false }).effects).toEqual([
      { type: 'open-link', peerId: crowd[0], initiator: true },
      { type: 'apply-encodings' },
    ]);
  });

  it('a call that shrinks to LINKS_UP_TO links every verified peer, the smaller id offering; one still pending waits for its verification', () => {
    const crowd = others(LINKS_UP_TO - 1);
    const pending = crowd.at(-1)!;
    const state = verified(inCall('a', ...crowd), ['a', ...crowd.slice(1, -1)]);
    const { effects } = step(state, server({ type: 'leave', participantId: crowd[0]!, reason: 'left' }));
    expect(effects.filter((effect) => effect.type === 'open-link')).toEqual([
      { type: 'open-link', peerId: 'a', initiator: false },
      ...crowd.slice(1, -1).map((peerId) => ({ type: 'open-link', peerId, initiator: true })),
    ]);
    expect(effects).not.toContainEqual(expect.objectContaining({ peerId: pending }));
  });

  it('a server known to have no SFU (MeetingInfo.sfu): a large call links everyone from the start and never asks for a ticket', () => {
    const crowd = others(LINKS_UP_TO + 2);
    const state = run(fresh(SELF, false), server({ type: 'welcome', self: SELF, participants: [SELF, ...crowd.map((id) => person(id))], locked: false })).state;
    expect(step(state, { type: 'route', input: { type: 'check' } }).effects).toEqual([]);
    expect(step(state, { type: 'peer-verified', peerId: crowd[0]!, theyHandedOff: false }).effects).toEqual([
      { type: 'open-link', peerId: crowd[0], initiator: true },
      { type: 'apply-encodings' },
    ]);
  });

  it('the server has no SFU: a large call links everyone once it says so', () => {
    const crowd = others(LINKS_UP_TO + 2);
    let state = verified(inCall(...crowd), crowd);
    ({ state } = run(state, { type: 'route', input: { type: 'check' } }));
    const { effects } = step(state, { type: 'route', input: { type: 'moved', outcome: 'none' } });
    expect(effects.filter((effect) => effect.type === 'open-link')).toHaveLength(crowd.length);
  });
});

describe('a link closed by agreement', () => {
  function setup(options: { keeps?: boolean; hearing?: string[]; busy?: string[] } = {}) {
    const links = new Map<string, PrunedLink & { retired: boolean }>();
    const add = (id: string) =>
      links.set(id, {
        retired: false,
        busy: () => (options.busy ?? []).includes(id),
        retire() {
          this.retired = true;
        },
      });
    const sent: { to: string; t: string }[] = [];
    const closed: string[] = [];
    const reopened: string[] = [];
    const world = { keeps: options.keeps ?? false, hearing: options.hearing ?? [] };
    const ctx: LinkPruningContext = {
      keepsLinks: () => world.keeps,
      links: () => links,
      hearing: () => world.hearing,
      send: (to, message) => void sent.push({ to, t: message.t }),
      close: (id) => {
        closed.push(id);
        links.delete(id);
      },
      reopen: (id) => {
        reopened.push(id);
        add(id);
      },
    };
    const clock = { now: 100_000 };
    const pruning = new LinkPruning(ctx, { retireMs: 20, youngMs: 1000, now: () => clock.now });
    /** Each link seen, then old enough to go. */
    const aged = () => {
      pruning.prune();
      clock.now += 1000;
    };
    return { pruning, links, add, sent, closed, reopened, world, clock, aged };
  }
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('a link whose peer hears us both ways through the SFU is retired, told, and closed after the wait', async () => {
    const { pruning, links, add, sent, closed, aged } = setup({ hearing: ['bob'] });
    add('bob');
    add('cy');
    aged();
    pruning.prune();
    pruning.prune();
    expect(links.get('bob')!.retired).toBe(true);
    expect(links.get('cy')!.retired).toBe(false);
    expect(sent).toEqual([{ to: 'bob', t: LINK_OFF }]);
    expect(closed).toEqual([]);
    await wait(40);
    expect(closed).toEqual(['bob']);
  });

  it('nothing goes while the call keeps links, nor a link a file is on', async () => {
    const kept = setup({ keeps: true, hearing: ['bob'] });
    kept.add('bob');
    kept.aged();
    kept.pruning.prune();
    const busy = setup({ hearing: ['bob'], busy: ['bob'] });
    busy.add('bob');
    busy.aged();
    busy.pruning.prune();
    await wait(40);
    expect([...kept.sent, ...busy.sent, ...kept.closed, ...busy.closed]).toEqual([]);
  });

  it('a new link is left alone until it is YOUNG_MS old: the peer may have opened it for a file whose channel is not open yet', () => {
    const { pruning, add, sent, clock } = setup({ hearing: ['bob'] });
    add('bob');
    pruning.prune();
    clock.now += 999;
    pruning.prune();
    expect(sent).toEqual([]);
    clock.now += 1;
    pruning.prune();
    expect(sent).toEqual([{ to: 'bob', t: LINK_OFF }]);
  });

  it("the peer's link-off closes our side at once; a call that keeps links again makes a new one", () => {
    const { pruning, add, closed, reopened, world } = setup();
    add('bob');
    pruning.offFrom('bob');
    expect(closed).toEqual(['bob']);
    expect(reopened).toEqual([]);
    world.keeps = true;
    add('bob');
    pruning.offFrom('bob');
    expect(closed).toEqual(['bob', 'bob']);
    expect(reopened).toEqual(['bob']);
    pruning.offFrom('nobody');
    expect(closed).toHaveLength(2);
  });

  it('a call that shrank during the wait gets its link again', async () => {
    const { pruning, add, closed, reopened, world, aged } = setup({ hearing: ['bob'] });
    add('bob');
    aged();
    pruning.prune();
    world.keeps = true;
    await wait(40);
    expect(closed).toEqual(['bob']);
    expect(reopened).toEqual(['bob']);
  });
});
