/** @jest-environment node */
// Issue 49 point 2 (polls): the checks every received poll message passes (poll-messages.ts), the
// rules for who may open, vote and close (poll-book.ts), the tally (tally.ts), and the polls of
// several pages wired together as the sealed channels would (polls.ts): hostile input is dropped,
// one ballot per participant, every page counts the same (docs/meetings.md "Polls").
import {
  parsePollMessage,
  cleanText,
  parseChoices,
  OPTIONS_MAX,
  QUESTION_MAX,
  SNAPSHOT_BALLOTS_MAX,
  type PollMessage,
} from '@/lib/meeting/client/polls/poll-messages';
import { PollBook, POLLS_MAX, PENDING_MAX, type Verdict } from '@/lib/meeting/client/polls/poll-book';
import { tally } from '@/lib/meeting/client/polls/tally';
import { Polls } from '@/lib/meeting/client/polls/polls';
import { CallFeatures } from '@/lib/meeting/client/call/features';
import { POLLS } from '@/lib/meeting/client/polls/polls-feature';
import { fanOut, featureContext } from '../support/feature-context';

const open = (fields: Partial<Extract<PollMessage, { t: 'poll-open' }>> = {}): PollMessage => ({
  t: 'poll-open',
  id: 'p1',
  question: 'Lunch?',
  options: ['Pizza', 'Soup', 'Salad'],
  multiple: false,
  ...fields,
});

describe('a received poll message is checked before anything counts it', () => {
  const base = { t: 'poll-open', id: 'p1', question: 'Lunch?', options: ['Pizza', 'Soup'], multiple: false };
  it.each<[string, unknown]>([
    ['not an object', 'poll-open'],
    ['null', null],
    ['no id', { ...base, id: undefined }],
    ['an id with a slash', { ...base, id: '../p' }],
    ['an id of 65 characters', { ...base, id: 'x'.repeat(65) }],
    ['an unknown type', { ...base, t: 'poll-burn' }],
    ['one option', { ...base, options: ['Only'] }],
    [`${OPTIONS_MAX + 1} options`, { ...base, options: Array.from({ length: OPTIONS_MAX + 1 }, (_, i) => `o${i}`) }],
    ['an empty option', { ...base, options: ['Pizza', '   '] }],
    ['an option that is not text', { ...base, options: ['Pizza', 7] }],
    ['an option of 101 characters', { ...base, options: ['Pizza', 'x'.repeat(101)] }],
    ['a question of only invisible characters', { ...base, question: '\u202E\u200B' }],
    [`a question longer than ${QUESTION_MAX}`, { ...base, question: 'q'.repeat(QUESTION_MAX + 1) }],
    ['a megabyte question', { ...base, question: 'q'.repeat(1 << 20) }],
    ['multiple that is not a boolean', { ...base, multiple: 'yes' }],
    ['a snapshot ballot with an option out of range', { ...base, ballots: [{ voter: 'v1', choices: [2] }] }],
    [
      'a snapshot with one voter twice',
      {
        ...base,
        ballots: [
          { voter: 'v1', choices: [0] },
          { voter: 'v1', choices: [1] },
        ],
      },
    ],
    ['a snapshot ballot with two choices on a single-choice poll', { ...base, ballots: [{ voter: 'v1', choices: [0, 1] }] }],
    [
      `a snapshot of ${SNAPSHOT_BALLOTS_MAX + 1} ballots`,
      { ...base, ballots: Array.from({ length: SNAPSHOT_BALLOTS_MAX + 1 }, (_, i) => ({ voter: `v${i}`, choices: [0] })) },
    ],
    ['a vote with no choice', { t: 'poll-vote', id: 'p1', choices: [] }],
    ['a vote for option -1', { t: 'poll-vote', id: 'p1', choices: [-1] }],
    ['a vote for option 1.5', { t: 'poll-vote', id: 'p1', choices: [1.5] }],
    ['a vote naming one option twice', { t: 'poll-vote', id: 'p1', choices: [1, 1] }],
    ['a vote for option "0"', { t: 'poll-vote', id: 'p1', choices: ['0'] }],
    ['a vote that is not a list', { t: 'poll-vote', id: 'p1', choices: 0 }],
    ['a close with a negative count', { t: 'poll-close', id: 'p1', counts: [-1, 2] }],
    ['a close without counts', { t: 'poll-close', id: 'p1' }],
  ])('drops %s', (_name, raw) => expect(parsePollMessage(raw)).toBeNull());

  it('keeps what is well formed, with invisible characters and runs of spaces taken out', () => {
    expect(parsePollMessage({ ...base, question: ' Lunch\u202E  today?\n', options: ['Piz\u200Bza', 'Soup'] })).toEqual({
      ...base,
      question: 'Lunch today?',
      options: ['Piz za', 'Soup'],
    });
    expect(parsePollMessage({ t: 'poll-vote', id: 'p1', choices: [2, 0] })).toEqual({ t: 'poll-vote', id: 'p1', choices: [0, 2] });
    expect(parsePollMessage({ t: 'poll-close', id: 'p1', counts: [1, 0] })).toEqual({ t: 'poll-close', id: 'p1', counts: [1, 0] });
  });

  it.each<[unknown, number, boolean, number[] | null]>([
    [[0], 2, false, [0]],
    [[1, 0], 3, true, [0, 1]],
    [[0, 1], 3, false, null],
    [[3], 3, true, null],
    [[0, 1, 2, 3], 3, true, null],
  ])('choices %j of %i options (multiple: %s) → %j', (raw, count, multiple, expected) => expect(parseChoices(raw, count, multiple)).toEqual(expected));

  it('cuts nothing: a text over the limit is refused, not shortened', () => {
    expect(cleanText('x'.repeat(100), 100)).toHaveLength(100);
    expect(cleanText('x'.repeat(101), 100)).toBe('');
    expect(cleanText('😀'.repeat(100), 100)).toBe('😀'.repeat(100));
  });
});

describe('the poll book: who may say what', () => {
  type Step = [from: string, message: PollMessage, verdict: Verdict];
  const vote = (choices: number[], id = 'p1'): PollMessage => ({ t: 'poll-vote', id, choices });
  const close = (counts: number[] = [0, 0, 0], id = 'p1'): PollMessage => ({ t: 'poll-close', id, counts });
  it.each<[string, Step[], Record<string, number[]>, false | 'closed' | 'creator-left']>([
    [
      'a vote counts for the peer whose channel carried it',
      [
        ['ada', open(), 'ok'],
        ['bob', vote([1]), 'ok'],
      ],
      { bob: [1] },
      false,
    ],
    [
      'a second vote replaces the first: one ballot per participant',
      [
        ['ada', open(), 'ok'],
        ['bob', vote([1]), 'ok'],
        ['bob', vote([2]), 'ok'],
      ],
      { bob: [2] },
      false,
    ],
    [
      'two choices on a single-choice poll are dropped',
      [
        ['ada', open(), 'ok'],
        ['bob', vote([0, 1]), 'bad-choices'],
      ],
      {},
      false,
    ],
    [
      'an option the poll does not have is dropped',
      [
        ['ada', open(), 'ok'],
        ['bob', vote([3]), 'bad-choices'],
      ],
      {},
      false,
    ],
    [
      'a multiple-choice poll takes several',
      [
        ['ada', open({ multiple: true }), 'ok'],
        ['bob', vote([0, 2]), 'ok'],
      ],
      { bob: [0, 2] },
      false,
    ],
    [
      'a vote after the close is dropped',
      [
        ['ada', open(), 'ok'],
        ['ada', close(), 'ok'],
        ['bob', vote([0]), 'closed'],
      ],
      {},
      'closed',
    ],
    [
      'only the creator closes',
      [
        ['ada', open(), 'ok'],
        ['bob', close(), 'not-creator'],
      ],
      {},
      false,
    ],
    ['a close for a poll nobody opened is dropped', [['ada', close(), 'unknown']], {}, false],
    [
      'another peer cannot take over a poll id',
      [
        ['ada', open(), 'ok'],
        ['eve', open({ question: 'Mine now' }), 'not-creator'],
      ],
      {},
      false,
    ],
    [
      'a closed poll does not reopen',
      [
        ['ada', open(), 'ok'],
        ['ada', close(), 'ok'],
        ['ada', open(), 'closed'],
      ],
      {},
      'closed',
    ],
    [
      'a vote before its poll waits for it',
      [
        ['bob', vote([2]), 'pending'],
        ['ada', open(), 'ok'],
      ],
      { bob: [2] },
      false,
    ],
    [
      "a creator's snapshot brings the ballots of those who voted before us",
      [
        [
          'ada',
          open({
            ballots: [
              { voter: 'ada', choices: [0] },
              { voter: 'gone', choices: [1] },
            ],
          }),
          'ok',
        ],
      ],
      { ada: [0], gone: [1] },
      false,
    ],
    [
      "a ballot from its voter is not overruled by a creator's snapshot",
      [
        ['ada', open(), 'ok'],
        ['bob', vote([2]), 'ok'],
        ['ada', open({ ballots: [{ voter: 'bob', choices: [0] }] }), 'ok'],
      ],
      { bob: [2] },
      false,
    ],
    ['a snapshot cannot speak for us', [['ada', open({ ballots: [{ voter: 'me', choices: [0] }] }), 'ok']], {}, false],
  ])('%s', (_name, steps, ballots, closed) => {
    const book = new PollBook('me');
    for (const [from, message, verdict] of steps) expect(book.apply(from, message)).toBe(verdict);
    const poll = book.polls.get('p1');
    expect(Object.fromEntries([...(poll?.ballots ?? [])].map(([voter, ballot]) => [voter, ballot.choices]))).toEqual(ballots);
    expect(poll?.closed ?? false).toBe(closed);
  });

  it('a creator who leaves stops its polls taking votes; back, the poll is open again with its ballots', () => {
    const book = new PollBook('me');
    book.apply('ada', open());
    book.apply('bob', { t: 'poll-vote', id: 'p1', choices: [1] });
    expect(book.peerGone('ada')).toBe(true);
    expect(book.apply('bob', { t: 'poll-vote', id: 'p1', choices: [0] })).toBe('closed');
    expect(book.apply('ada', open({ ballots: [{ voter: 'ada', choices: [2] }] }))).toBe('ok');
    expect(book.polls.get('p1')?.closed).toBe(false);
    expect(tally(book.polls.get('p1')!).counts).toEqual([0, 1, 1]);
  });

  it(`keeps at most ${POLLS_MAX} polls and ${PENDING_MAX} waiting ballots, whatever a peer sends`, () => {
    const book = new PollBook('me');
    for (let i = 0; i < POLLS_MAX; i++) expect(book.apply('eve', open({ id: `p${i}` }))).toBe('ok');
    expect(book.apply('eve', open({ id: 'one-more' }))).toBe('too-many');
    for (let i = 0; i < PENDING_MAX; i++) expect(book.apply('eve', { t: 'poll-vote', id: `q${i}`, choices: [0] })).toBe('pending');
    expect(book.apply('eve', { t: 'poll-vote', id: 'q-more', choices: [0] })).toBe('too-many');
  });

  it('introduces itself to a late joiner with its own open polls and its ballots in the others', () => {
    const book = new PollBook('me');
    book.apply('me', open({ id: 'mine' }));
    book.apply('bob', { t: 'poll-vote', id: 'mine', choices: [1] });
    book.apply('ada', open({ id: 'hers' }));
    book.apply('me', { t: 'poll-vote', id: 'hers', choices: [2] });
    book.apply('ada', open({ id: 'closed' }));
    book.apply('ada', { t: 'poll-close', id: 'closed', counts: [0, 0, 0] });
    expect(book.introduction(10)).toEqual([
      { ...open({ id: 'mine' }), ballots: [{ voter: 'bob', choices: [1] }] },
      { t: 'poll-vote', id: 'hers', choices: [2] },
    ]);
  });
});

describe('the tally', () => {
  it.each<[string, boolean, number[][], { voters: number; counts: number[]; percents: number[] }]>([
    ['nobody voted', false, [], { voters: 0, counts: [0, 0, 0], percents: [0, 0, 0] }],
    ['single choice', false, [[0], [0], [2]], { voters: 3, counts: [2, 0, 1], percents: [67, 0, 33] }],
    ['multiple choice: shares of voters, adding up to more than 100', true, [[0, 1], [1], [1, 2]], { voters: 3, counts: [1, 3, 1], percents: [33, 100, 33] }],
  ])('%s', (_name, multiple, ballots, expected) => {
    const poll = { options: ['a', 'b', 'c'], multiple, ballots: new Map(ballots.map((choices, i) => [`v${i}`, { choices, direct: true }])) };
    expect(tally(poll)).toEqual(expected);
  });
});

describe('polls on several pages, wired as the sealed channels would', () => {
  /** Pages that can reach each other; `connect` opens a pair's channel (both sides introduce themselves). `host`: the roster's host. */
  function call(host = 'host') {
    const pages = new Map<string, { polls: Polls; reach: Set<string> }>();
    const add = (id: string) => {
      const reach = new Set<string>();
      const polls = new Polls(
        fanOut({
          selfId: id,
          peers: () => [...reach].map((peer) => ({ id: peer, name: peer.toUpperCase() })),
          send: (to, message) => {
            // Through JSON, as the channel carries it.
            pages.get(to)!.polls.receive(id, JSON.parse(JSON.stringify(message)));
            return true;
          },
          isHost: (peerId) => peerId === host,
          selfIsHost: () => id === host,
        }),
      );
      pages.set(id, { polls, reach });
      return polls;
    };
    const connect = (a: string, b: string) => {
      pages.get(a)!.reach.add(b);
      pages.get(b)!.reach.add(a);
      pages.get(a)!.polls.channelOpen(b);
      pages.get(b)!.polls.channelOpen(a);
    };
    const leave = (id: string) => {
      for (const [other, page] of pages) {
        if (!page.reach.delete(id)) continue;
        page.polls.peerGone(id);
        pages.get(id)!.reach.delete(other);
      }
    };
    return { add, connect, leave };
  }
  const counts = (polls: Polls) => polls.getSnapshot().map((poll) => poll.tally.counts);

  it('a launch reaches everyone, votes are counted alike on every page, a late joiner gets the poll and its tally, a close ends it', () => {
    const { add, connect, leave } = call();
    const [ada, bob, cy] = [add('ada'), add('bob'), add('cy')];
    connect('ada', 'bob');
    expect(ada.launch('Lunch?', ['Pizza', 'Soup'], false)).toBe('launched');
    // Bob's screen is told (a note, kept until dismissed); Ada's is not, she launched it.
    expect(bob.getNotice()).toMatchObject({ creatorName: 'ADA', question: 'Lunch?' });
    expect(ada.getNotice()).toBeNull();
    bob.dismissNotice();
    expect(bob.getNotice()).toBeNull();
    const id = ada.getSnapshot()[0]!.id;
    expect(bob.vote(id, [1])).toBe(true);
    expect(ada.vote(id, [1])).toBe(true);
    expect(counts(ada)).toEqual([[0, 2]]);
    expect(counts(bob)).toEqual([[0, 2]]);

    // Cy joins late: the poll and both ballots come, from their authors.
    connect('cy', 'bob');
    connect('cy', 'ada');
    expect(counts(cy)).toEqual([[0, 2]]);
    expect(cy.vote(id, [0])).toBe(true);
    // Bob changes his mind: still one ballot.
    expect(bob.vote(id, [0])).toBe(true);
    for (const page of [ada, bob, cy]) expect(page.getSnapshot()[0]!.tally).toEqual({ voters: 3, counts: [2, 1], percents: [67, 33] });

    // Bob leaves; his ballot stays counted, and a later joiner hears it from the creator.
    leave('bob');
    const dee = add('dee');
    connect('dee', 'ada');
    connect('dee', 'cy');
    expect(counts(dee)).toEqual([[2, 1]]);

    // Only Ada closes it; after that, no vote moves it on any page.
    expect(cy.close(id)).toBe(false);
    expect(ada.close(id)).toBe(true);
    expect(cy.vote(id, [1])).toBe(false);
    for (const page of [ada, cy, dee]) expect(page.getSnapshot()[0]).toMatchObject({ closed: 'closed', disagrees: false, tally: { counts: [2, 1] } });
  });

  it('hostile messages are dropped and counted; a vote that names another voter counts for its sender only', () => {
    const { add, connect } = call();
    const [ada, eve] = [add('ada'), add('eve')];
    connect('ada', 'eve');
    ada.launch('Lunch?', ['Pizza', 'Soup'], false);
    const id = ada.getSnapshot()[0]!.id;
    expect(eve.getSnapshot().map((poll) => poll.id)).toEqual([id]);
    const before = JSON.stringify(ada.getSnapshot());
    for (const raw of [
      { t: 'poll-vote', id, choices: [5] },
      { t: 'poll-vote', id, choices: [0, 1] },
      { t: 'poll-vote', id, choices: [0], voter: 'bob' },
      { t: 'poll-close', id, counts: [9, 9] },
      { t: 'poll-open', id, question: 'Taken over', options: ['a', 'b'], multiple: false },
      { t: 'poll-open', id: 'x', question: 'q'.repeat(10_000), options: ['a', 'b'], multiple: false },
      { t: 'poll-vote', id: { $gt: '' }, choices: [0] },
      'poll-vote',
    ])
      ada.receive('eve', raw);
    expect(ada.dropped).toBe(7);
    // The extra "voter" field is ignored: the vote counts for eve, whose channel carried it.
    expect(JSON.stringify(ada.getSnapshot())).not.toBe(before);
    expect(ada.getSnapshot()[0]!.tally.counts).toEqual([1, 0]);
    expect(ada.getSnapshot()).toHaveLength(1);
  });
});

describe('the polls feature on the call seam', () => {
  it('takes the poll- messages, loads the polls on the first one, and hears a late joiner’s channel', async () => {
    const sent: [string, { t: string }][] = [];
    const features = new CallFeatures(
      featureContext({
        // The host hooks (call/features.ts) polls do not use: anyone launches a poll.
        isHost: () => false,
        selfIsHost: () => false,
        setApart: () => undefined,
        inAnotherRoom: () => false,
        selfId: 'me',
        fileLimit: 1,
        peers: () => [{ id: 'ada', name: 'Ada' }],
        send: (peerId, message) => (sent.push([peerId, message]), true),
        openChannel: async () => null,
      }),
    );
    const feature = features.use(POLLS);
    expect(features.receive('ada', { t: 'poll-open', id: 'p1', question: 'Q?', options: ['a', 'b'], multiple: false })).toBe(true);
    expect(features.receive('ada', { t: 'chat', text: 'hi' })).toBe(false);
    const polls = await feature.load();
    expect(polls.getSnapshot()).toMatchObject([{ id: 'p1', creatorName: 'Ada', mine: false }]);
    polls.vote('p1', [1]);
    features.channelOpen('bob');
    await feature.load();
    expect(sent).toEqual([
      ['ada', { t: 'poll-vote', id: 'p1', choices: [1] }],
      ['bob', { t: 'poll-vote', id: 'p1', choices: [1] }],
    ]);
  });
});
