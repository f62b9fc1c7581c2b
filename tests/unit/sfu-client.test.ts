/** @jest-environment node */
// The browser's side of the SFU (issue 38) that runs without a browser: when a call moves, what
// the meeting page may connect to, that a mesh never loads the SFU's code, and that a camera
// we receive does not stay below the layer asked of it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AUTO, chooseRoute, MESH_UP_TO, mediaRouteOf, routePin, SFU_FROM } from '@/lib/meeting/client/call/route-pin';
import { sfuOrigins } from '@/lib/configuration/sfu-urls';
import { pagePolicy } from '@/lib/security/csp';
import { forwardedLayer, LayerWatch, NUDGE_FIRST_MS, NUDGE_WAITS_MS } from '@/lib/meeting/client/sfu/layer-watch';
import { departedPublisher, publisherJoin, publishersIn, streamsOf, subscriptionRequest } from '@/lib/meeting/client/sfu/videoroom-requests';

describe('the media route', () => {
  it('moves to the SFU from SFU_FROM and back at MESH_UP_TO, keeping its route in between', () => {
    expect(chooseRoute('mesh', SFU_FROM - 1, AUTO)).toBe('mesh');
    expect(chooseRoute('mesh', SFU_FROM, AUTO)).toBe('sfu');
    expect(chooseRoute('sfu', MESH_UP_TO + 1, AUTO)).toBe('sfu');
    expect(chooseRoute('sfu', MESH_UP_TO, AUTO)).toBe('mesh');
    expect(chooseRoute('mesh', 2, 'sfu')).toBe('sfu');
    expect(chooseRoute('sfu', 30, 'mesh')).toBe('mesh');
  });

  it('reads a pin from the address, and nothing else', () => {
    expect(mediaRouteOf('?media=sfu')).toBe('sfu');
    expect(mediaRouteOf('?frames=script&media=mesh')).toBe('mesh');
    expect(mediaRouteOf('?media=other')).toBe(AUTO);
    expect(mediaRouteOf('')).toBe(AUTO);
    expect(mediaRouteOf('?sfuFrom=3')).toEqual({ sfuFrom: 3, meshUpTo: 2 });
    expect(mediaRouteOf('?sfuFrom=1')).toBe(AUTO);
    expect(chooseRoute('mesh', 3, { sfuFrom: 3, meshUpTo: 2 })).toBe('sfu');
    expect(chooseRoute('sfu', 2, { sfuFrom: 3, meshUpTo: 2 })).toBe('mesh');
  });

  it("takes the room's setting (the host's choice) unless the address pins a route", () => {
    expect(routePin('', 'auto')).toBe(AUTO);
    expect(routePin('', 'sfu')).toBe('sfu');
    expect(routePin('?frames=script', 'mesh')).toBe('mesh');
    // An address that names nothing valid leaves the room's choice.
    expect(routePin('?media=other&sfuFrom=1', 'sfu')).toBe('sfu');
    // Tests and benches: the address wins over the room, either way.
    expect(routePin('?media=mesh', 'sfu')).toBe('mesh');
    expect(routePin('?media=sfu', 'mesh')).toBe('sfu');
    expect(routePin('?media=sfu', 'auto')).toBe('sfu');
    expect(routePin('?sfuFrom=3', 'mesh')).toEqual({ sfuFrom: 3, meshUpTo: 2 });
    expect(routePin('?sfuFrom=6', 'sfu')).toEqual({ sfuFrom: 6, meshUpTo: 5 });
  });
});

describe("the meeting page's policy", () => {
  it('lets the page reach the SFU nodes browsers use, not their private API addresses', () => {
    const origins = sfuOrigins('wss://meet.example.org/sfu|http://127.0.0.1:8088/janus, ws://127.0.0.1:4900|http://127.0.0.1:4901/janus');
    expect(origins).toEqual(['wss://meet.example.org', 'ws://127.0.0.1:4900']);
    const policy = pagePolicy('n', false, { wasm: true, connect: origins });
    expect(policy).toContain("connect-src 'self' wss://meet.example.org ws://127.0.0.1:4900;");
    expect(policy).not.toContain('8088');
    expect(sfuOrigins(undefined)).toEqual([]);
    expect(sfuOrigins('https://not-a-socket|http://x')).toEqual([]);
    expect(pagePolicy('n', false)).toContain("connect-src 'self';");
  });
});

describe("the SFU's code stays out of the call's first load", () => {
  it('only dynamic imports reach the SFU side, the SFU client and the sender keys', () => {
    const sources = ['app', 'components', 'lib']
      .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => path.join(dir, file)))
      .filter((file) => /\.tsx?$/.test(file) && !file.startsWith(path.join('lib', 'meeting', 'client', 'sfu')) && !file.endsWith('sender-keys.ts'));
    const staticImports = sources.filter((file) =>
      /^import (?!type)[^;]*from '[^']*(\/sfu\/(sfu-session|sfu-media|sfu-data|sfu-channels|sender-key-ring|janus-session|layers)|\/e2ee\/(sender-keys|sender-data)|\/signaling\/sfu-ticket)'/m.test(
        readFileSync(file, 'utf8'),
      ),
    );
    expect(staticImports).toEqual([]);
    // They do load, on demand.
    expect(readFileSync('lib/meeting/client/call/sfu-route.ts', 'utf8')).toContain("import('../sfu/sfu-session')");
  });
});

describe('the VideoRoom requests', () => {
  const ticket = { url: 'ws://127.0.0.1:1', room: 'mroom', token: 't', roomToken: 'rt', expiresAt: 0 };

  it('joins as a publisher under our own id, and subscribes with the private id only the first time', () => {
    expect(publisherJoin(ticket, 'ada')).toEqual({ request: 'join', ptype: 'publisher', room: 'mroom', id: 'ada', token: 'rt' });
    expect(subscriptionRequest(ticket, ['bob', 'cy'], 42, true)).toEqual({
      request: 'join',
      ptype: 'subscriber',
      room: 'mroom',
      streams: [{ feed: 'bob' }, { feed: 'cy' }],
      token: 'rt',
      private_id: 42,
    });
    expect(subscriptionRequest(ticket, ['dan'], 42, false)).toEqual({ request: 'subscribe', streams: [{ feed: 'dan' }] });
  });

  it("reads Janus's streams by mid, and nothing from an answer without them", () => {
    const streams = streamsOf({
      streams: [
        { mid: 0, type: 'audio', feed_id: 'bob' },
        { mid: '1', type: 'video', feed_id: 'bob', feed_description: 'camera' },
      ],
    });
    expect([...streams.keys()]).toEqual(['0', '1']);
    expect(streams.get('1')?.feed_description).toBe('camera');
    expect(streamsOf({ videoroom: 'event' }).size).toBe(0);
    expect(streamsOf(undefined).size).toBe(0);
  });

  it('reads who publishes and who left from VideoRoom events, ourselves and malformed entries left out', () => {
    expect(publishersIn([{ id: 'ada' }, { id: 'me' }, { id: 7 }, null, { display: 'x' }], 'me')).toEqual(['ada']);
    expect(publishersIn(undefined, 'me')).toEqual([]);
    expect(departedPublisher({ leaving: 'bob' })).toBe('bob');
    expect(departedPublisher({ unpublished: 'cy' })).toBe('cy');
    expect(departedPublisher({ leaving: 42 })).toBeNull();
  });
});

describe('the layer watch', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A watch whose requests are recorded: [mid, layer] each time it asks again. */
  function watch() {
    const asked: [string, number][] = [];
    return { asked, layers: new LayerWatch((mid, layer) => asked.push([mid, layer])) };
  }

  it('asks again, less and less often, while Janus forwards a lower layer than asked, then gives up until Janus reports a change', () => {
    const { asked, layers } = watch();
    layers.asking('1', 2);
    layers.forwarding('1', 1);
    jest.advanceTimersByTime(NUDGE_FIRST_MS - 1);
    expect(asked).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(asked).toEqual([['1', 2]]);
    jest.advanceTimersByTime(NUDGE_WAITS_MS[1]);
    expect(asked).toHaveLength(2);
    jest.advanceTimersByTime(NUDGE_WAITS_MS[2] + NUDGE_WAITS_MS[3]);
    expect(asked).toHaveLength(4);
    // A sender that never sends the layer is not made to send key frames for good.
    jest.advanceTimersByTime(NUDGE_WAITS_MS[3] * 10);
    expect(asked).toHaveLength(4);
    // Janus falls back again: a new round.
    layers.forwarding('1', 0);
    jest.advanceTimersByTime(NUDGE_FIRST_MS);
    expect(asked).toHaveLength(5);
  });

  it('stops once the asked layer arrives, and watches again after a fall back', () => {
    const { asked, layers } = watch();
    layers.asking('1', 2);
    // No word from Janus yet counts as below.
    jest.advanceTimersByTime(NUDGE_FIRST_MS);
    expect(asked).toEqual([['1', 2]]);
    layers.forwarding('1', 2);
    jest.advanceTimersByTime(NUDGE_WAITS_MS[3] * 4);
    expect(asked).toHaveLength(1);
    layers.forwarding('1', 0);
    jest.advanceTimersByTime(NUDGE_FIRST_MS);
    expect(asked).toEqual([
      ['1', 2],
      ['1', 2],
    ]);
  });

  it('leaves alone a stream at or above its layer, a paused one, and everything after a reset', () => {
    const { asked, layers } = watch();
    layers.asking('1', 1);
    layers.forwarding('1', 2);
    layers.asking('2', 2);
    layers.asking('2', 'off');
    layers.asking('3', 2);
    layers.reset();
    jest.advanceTimersByTime(NUDGE_WAITS_MS[3] * 4);
    expect(asked).toEqual([]);
    // Asked lower than forwarded: Janus moves down on its own, at the next key frame it asks for.
    layers.asking('4', 0);
    layers.forwarding('4', 1);
    jest.advanceTimersByTime(NUDGE_WAITS_MS[3]);
    expect(asked).toEqual([]);
  });

  it("reads Janus's substream events, and nothing else", () => {
    expect(forwardedLayer({ videoroom: 'event', mid: '3', substream: 1 })).toEqual({ mid: '3', layer: 1 });
    expect(forwardedLayer({ videoroom: 'event', mid: '3', temporal: 2 })).toBeNull();
    expect(forwardedLayer({ videoroom: 'event', substream: 1 })).toBeNull();
    expect(forwardedLayer(undefined)).toBeNull();
  });
});
