/** @jest-environment node */
// Issue 49 point 2, the host's setting and anonymous polls (docs/meetings.md "Polls"): who may
// launch (only the roster's host changes that), and anonymous ballots that reach every page under
// tokens through a relay that is neither the creator nor the host, one token per voter.
import { parsePollMessage, type PollMessage } from '@/lib/meeting/client/polls/poll-messages';
import { PollBook, type Verdict } from '@/lib/meeting/client/polls/poll-book';
import { Polls } from '@/lib/meeting/client/polls/polls';
import { fanOut } from '../support/feature-context';

const token = 'anon-AAAAAAAAAAAAAAAAAAAAAA';
const open = (fields: Record<string, unknown> = {}) => ({
  t: 'poll-open',
  id: 'p1',
  question: 'Lunch?',
  options: ['Pizza', 'Soup'],
  multiple: false,
  ...fields,
});

describe('the new poll messages are checked', () => {
  it.each([
    { name: 'a host rule', raw: { t: 'poll-rule', id: 'rule', hostOnly: true } },
    { name: 'an anonymous poll', raw: open({ anon: true, relay: 'bob' }) },
    { name: 'an anonymous snapshot with tokens', raw: open({ anon: true, relay: 'bob', ballots: [{ voter: token, choices: [1] }] }) },
    { name: 'a cast', raw: { t: 'poll-cast', id: 'p1', choices: [0] } },
    { name: 'a relayed ballot', raw: { t: 'poll-avote', id: 'p1', token, choices: [1] } },
  ])('takes $name', ({ raw }) => {
    expect(parsePollMessage(raw)).not.toBeNull();
  });

  it.each([
    { name: 'a rule that is not a boolean', raw: { t: 'poll-rule', id: 'rule', hostOnly: 'yes' } },
    { name: 'a rule under another id', raw: { t: 'poll-rule', id: 'p1', hostOnly: true } },
    { name: 'an anonymous poll without a relay', raw: open({ anon: true }) },
    { name: 'an anonymous flag that is not true', raw: open({ anon: 1, relay: 'bob' }) },
    { name: 'a relay without anonymity', raw: open({ relay: 'bob' }) },
    { name: 'a relay that is no id', raw: open({ anon: true, relay: '<b>' }) },
    { name: 'an anonymous snapshot naming voters', raw: open({ anon: true, relay: 'bob', ballots: [{ voter: 'carol', choices: [1] }] }) },
    { name: 'a relayed ballot without a token', raw: { t: 'poll-avote', id: 'p1', choices: [1] } },
    { name: 'a relayed ballot under a voter', raw: { t: 'poll-avote', id: 'p1', token: 'carol', choices: [1] } },
    { name: 'a cast with bad choices', raw: { t: 'poll-cast', id: 'p1', choices: [1, 1] } },
  ])('drops $name', ({ raw }) => {
    expect(parsePollMessage(raw)).toBeNull();
  });
});

describe('the poll book obeys the host and the relay', () => {
  const book = () => new PollBook('me', (peer) => peer === 'host');
  const apply = (b: PollBook, from: string, raw: Record<string, unknown>): Verdict => b.apply(from, parsePollMessage(raw) as PollMessage);

  it.each([
    { name: 'a guest’s rule is refused', steps: [['ada', { t: 'poll-rule', id: 'rule', hostOnly: true }, 'not-host']] },
    {
      name: 'host only: a guest’s new poll is refused, the host’s taken',
      steps: [
        ['host', { t: 'poll-rule', id: 'rule', hostOnly: true }, 'ok'],
        ['ada', open(), 'not-host'],
        ['host', open(), 'ok'],
      ],
    },
    {
      name: 'everyone again, once the host says so',
      steps: [
        ['host', { t: 'poll-rule', id: 'rule', hostOnly: true }, 'ok'],
        ['host', { t: 'poll-rule', id: 'rule', hostOnly: false }, 'ok'],
        ['ada', open(), 'ok'],
      ],
    },
    { name: 'an anonymous poll relayed by its creator is refused', steps: [['ada', open({ anon: true, relay: 'ada' }), 'not-relay']] },
    { name: 'an anonymous poll relayed by the host is refused', steps: [['ada', open({ anon: true, relay: 'host' }), 'not-relay']] },
    {
      name: 'an anonymous poll takes no named vote, and ballots only from its relay',
      steps: [
        ['host', open({ anon: true, relay: 'bob' }), 'ok'],
        ['ada', { t: 'poll-vote', id: 'p1', choices: [0] }, 'anonymous'],
        ['ada', { t: 'poll-avote', id: 'p1', token, choices: [0] }, 'not-relay'],
        ['host', { t: 'poll-avote', id: 'p1', token, choices: [0] }, 'not-relay'],
        ['bob', { t: 'poll-avote', id: 'p1', token, choices: [0] }, 'ok'],
        ['bob', { t: 'poll-avote', id: 'p1', token, choices: [5] }, 'bad-choices'],
        ['me', { t: 'poll-cast', id: 'p1', choices: [0] }, 'not-relay'],
      ],
    },
    {
      name: 'a named poll takes no relayed ballot',
      steps: [
        ['host', open(), 'ok'],
        ['bob', { t: 'poll-avote', id: 'p1', token, choices: [0] }, 'not-relay'],
      ],
    },
  ])('$name', ({ steps }) => {
    const b = book();
    for (const [from, raw, verdict] of steps as [string, Record<string, unknown>, Verdict][]) expect(apply(b, from, raw)).toBe(verdict);
  });

  it('a relay that leaves pauses its anonymous poll for good; the creator can still close it', () => {
    const b = book();
    apply(b, 'host', open({ anon: true, relay: 'bob' }));
    expect(b.peerGone('bob')).toBe(true);
    expect(b.polls.get('p1')!.closed).toBe('relay-left');
    expect(apply(b, 'host', open({ anon: true, relay: 'bob' }))).toBe('ok');
    expect(b.polls.get('p1')!.closed).toBe('relay-left');
    expect(apply(b, 'host', { t: 'poll-close', id: 'p1', counts: [0, 0] })).toBe('ok');
  });
});

describe('pages wired as the sealed channels would', () => {
  /** Everyone reaches everyone; `host` is the roster's host; every message is logged with its sender and receiver. */
  function call(ids: string[], host = 'host') {
    const pages = new Map<string, Polls>();
    const wire: { from: string; to: string; message: PollMessage }[] = [];
    for (const id of ids) {
      pages.set(
        id,
        new Polls(
          fanOut({
            selfId: id,
            peers: () => [...pages.keys()].filter((other) => other !== id).map((other) => ({ id: other, name: other })),
            send: (to, message) => {
              wire.push({ from: id, to, message });
              pages.get(to)?.receive(id, JSON.parse(JSON.stringify(message)));
              return true;
            },
            isHost: (peer) => peer === host,
            selfIsHost: () => id === host,
          }),
        ),
      );
    }
    return { pages, wire };
  }

  it('an anonymous poll: every page counts the same; the host and the creator hold tokens, never who chose what', () => {
    const { pages, wire } = call(['host', 'ada', 'bob', 'cy']);
    const host = pages.get('host')!;
    expect(host.launch('Lunch?', ['Pizza', 'Soup'], false, true)).toBe('launched');
    const id = host.getSnapshot()[0]!.id;
    expect(wire[0]!.message).toMatchObject({ anon: true });
    const relayId = (wire[0]!.message as { relay: string }).relay;
    expect(['ada', 'bob', 'cy']).toContain(relayId);
    for (const [who, choice] of [
      ['host', 0],
      ['ada', 1],
      ['bob', 1],
      ['cy', 0],
    ] as const)
      expect(pages.get(who)!.vote(id, [choice])).toBe(true);
    // Ada changes her mind: her token's ballot is replaced, not added.
    expect(pages.get('ada')!.vote(id, [0])).toBe(true);
    for (const page of pages.values()) expect(page.getSnapshot()[0]!.tally.counts).toEqual([3, 1]);
    for (const [who, page] of pages) {
      const { keys, relayed } = page.inspect();
      expect(keys[id]!.every((key) => key.startsWith('anon-'))).toBe(true);
      expect(relayed).toBe(who === relayId ? 4 : 0);
    }
    // No ballot went anywhere but to the relay, and the relay's went out under tokens only.
    for (const { from, to } of wire.filter((entry) => entry.message.t === 'poll-cast')) expect([from !== relayId, to]).toEqual([true, relayId]);
    expect(wire.some(({ message }) => message.t === 'poll-vote')).toBe(false);
    expect(wire.filter(({ message }) => message.t === 'poll-avote').every(({ from }) => from === relayId)).toBe(true);
    expect(pages.get('ada')!.getSnapshot()[0]!.ours).toEqual([0]);
  });

  it('an anonymous poll needs a relay who is neither the creator nor the host', () => {
    const { pages } = call(['host', 'ada']);
    expect(pages.get('ada')!.launch('Lunch?', ['Pizza', 'Soup'], false, true)).toBe('no-relay');
    expect(pages.get('host')!.launch('Lunch?', ['Pizza', 'Soup'], false, true)).toBe('launched');
  });

  it('a relay stuffing ballots beyond the call’s size is refused', () => {
    const { pages, wire } = call(['host', 'ada', 'bob']);
    pages.get('host')!.launch('Lunch?', ['Pizza', 'Soup'], false, true);
    const { id, relay } = wire[0]!.message as { id: string; relay: string };
    const host = pages.get('host')!;
    for (let n = 0; n < 6; n++) host.receive(relay, { t: 'poll-avote', id, token: `anon-${String(n).repeat(22)}`, choices: [0] });
    // Three people in the call: three tokens at most.
    expect(host.getSnapshot()[0]!.tally.voters).toBe(3);
    expect(host.dropped).toBe(3);
  });

  it('host only: the host’s setting reaches everyone; a guest cannot launch, and a guest’s poll sent anyway is refused everywhere', () => {
    const { pages, wire } = call(['host', 'ada', 'bob']);
    const [host, ada, bob] = ['host', 'ada', 'bob'].map((id) => pages.get(id)!) as [Polls, Polls, Polls];
    expect(ada.setHostOnly(true)).toBe(false);
    expect(host.setHostOnly(true)).toBe(true);
    expect([ada.canLaunch(), bob.canLaunch(), host.canLaunch()]).toEqual([false, false, true]);
    expect(ada.launch('Mine?', ['Yes', 'No'], false)).toBe('not-allowed');
    bob.receive('ada', open({ id: 'forged' }));
    host.receive('ada', open({ id: 'forged' }));
    expect([bob.getSnapshot(), host.getSnapshot()]).toEqual([[], []]);
    expect(host.launch('Lunch?', ['Pizza', 'Soup'], false)).toBe('launched');
    expect(bob.getSnapshot()).toHaveLength(1);
    // Someone whose channel opens (a late joiner) hears the setting from the host, and only from it.
    const before = wire.length;
    host.channelOpen('bob');
    ada.channelOpen('bob');
    expect(wire.slice(before).filter(({ message }) => message.t === 'poll-rule')).toEqual([
      { from: 'host', to: 'bob', message: { t: 'poll-rule', id: 'rule', hostOnly: true } },
    ]);
  });
});
