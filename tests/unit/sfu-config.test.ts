import { createHmac } from 'node:crypto';
import { parseSfuUrls } from '@/lib/configuration/sfu-urls';
import { leastLoaded } from '@/lib/sfu/placement';
import { janusToken, sfuRoomId, sfuRoomSecret, sfuRoomToken } from '@/lib/sfu/tokens';

// Issue 38: the pure parts of the SFU's server side. What Janus itself accepts is proven against
// the real binary in tests/integration/sfu-janus.test.ts.

describe('SFU_URLS', () => {
  it('reads each node as "<browser ws url>|<app http url>", commas between nodes', () => {
    expect(parseSfuUrls(undefined)).toEqual([]);
    expect(parseSfuUrls('  ')).toEqual([]);
    expect(parseSfuUrls('wss://meet.example.org/sfu|http://127.0.0.1:8088/janus')).toEqual([
      { publicUrl: 'wss://meet.example.org/sfu', apiUrl: 'http://127.0.0.1:8088/janus' },
    ]);
    expect(parseSfuUrls(' wss://a.example.org | http://10.0.0.5:8088/janus/ , ws://127.0.0.1:8188|https://10.0.0.6/janus')).toEqual([
      { publicUrl: 'wss://a.example.org', apiUrl: 'http://10.0.0.5:8088/janus' },
      { publicUrl: 'ws://127.0.0.1:8188', apiUrl: 'https://10.0.0.6/janus' },
    ]);
  });

  it.each([
    ['a node without its API address', 'wss://a.example.org', /must be "<ws\(s\) url>\|<http\(s\) url>"/],
    ['a third part', 'wss://a|http://b|http://c', /node 1 must be/],
    ['an empty node', 'wss://a.example.org|http://10.0.0.5/janus,', /node 2 must be/],
    ['the addresses swapped', 'http://10.0.0.5/janus|wss://a.example.org', /browser address must start with wss:\/\//],
    ['an API address that is no URL', 'wss://a.example.org|10.0.0.5:8088', /API address must start with http:\/\//],
    ['one browser address twice', 'wss://a.example.org|http://10.0.0.5/janus,wss://a.example.org|http://10.0.0.6/janus', /appears twice/],
  ])('refuses %s', (_label, value, message) => {
    expect(() => parseSfuUrls(value)).toThrow(message);
  });
});

describe('Janus tokens', () => {
  it('are "<expiry>,janus,<plugin>:<base64 HMAC-SHA1>" as token_auth_secret checks them', () => {
    const token = janusToken('s3cret', Date.UTC(2026, 0, 1, 0, 10, 0, 999));
    const data = `${Date.UTC(2026, 0, 1, 0, 10) / 1000},janus,janus.plugin.videoroom`;
    expect(token).toBe(`${data}:${createHmac('sha1', 's3cret').update(data).digest('base64')}`);
    expect(janusToken('s3cret', 0, ['a', 'b'])).toMatch(/^0,janus,a,b:/);
  });

  it('derive room ids, room secrets and room tokens that differ by meeting, participant and secret', () => {
    const room = sfuRoomId('s', 'meeting-1');
    expect(room).toMatch(/^m[A-Za-z0-9_-]{22}$/);
    expect(sfuRoomId('s', 'meeting-1')).toBe(room);
    expect(new Set([room, sfuRoomId('s', 'meeting-2'), sfuRoomId('t', 'meeting-1')]).size).toBe(3);
    expect(sfuRoomSecret('s', room)).not.toBe(sfuRoomSecret('t', room));
    const tokens = [sfuRoomToken('s', room, 'p1'), sfuRoomToken('s', room, 'p2'), sfuRoomToken('t', room, 'p1'), sfuRoomToken('s', sfuRoomId('s', 'x'), 'p1')];
    expect(new Set(tokens).size).toBe(4);
    tokens.forEach((token) => expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/));
  });
});

describe('placement', () => {
  it('picks the node with the fewest rooms, the first listed on a tie', () => {
    expect(leastLoaded(['a', 'b', 'c'], { a: 2, b: 1, c: 1 })).toBe('b');
    expect(leastLoaded(['a', 'b'], {})).toBe('a');
    expect(() => leastLoaded([], {})).toThrow(/no SFU node/);
  });
});
