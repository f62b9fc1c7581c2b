/** @jest-environment node */
import { parseEventStream } from '@/lib/meeting/client/signaling/event-stream';
import {
  cameraEncoding,
  cameraOnByDefault,
  screenEncoding,
  startBitrateKbps,
  videoEncodings,
  videoTarget,
  WARM_UP_HEIGHT,
  withOpusDtx,
  withVideoStartBitrate,
} from '@/lib/meeting/client/media/encoding-policy';
import { generateMeetingPassword, PASSWORD_ALPHABET } from '@/lib/meeting/password';
import { parsePeerMessage } from '@/lib/meeting/client/call/peer-messages';
import { AUTO, startingRoute } from '@/lib/meeting/client/call/route-pin';
import { classifyQuality } from '@/lib/meeting/client/links/stats';
import { gridCells } from '@/lib/meeting/client/media/recorder';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]) {
  const out = [];
  for await (const message of parseEventStream(streamOf(chunks))) out.push(message);
  return out;
}

describe('event stream parser', () => {
  it('reads events split anywhere across chunks, skips comments, keeps the last id', async () => {
    const text = ': heartbeat\n\nid: 1\nevent: welcome\ndata: {"a":1}\n\nid: 2\nevent: join\ndata: line one\ndata: line two\n\n';
    // Every possible split point between two chunks gives the same events.
    for (let cut = 0; cut <= text.length; cut += 1) {
      const events = await collect([text.slice(0, cut), text.slice(cut)]);
      expect(events).toEqual([
        { id: '1', event: 'welcome', data: '{"a":1}' },
        { id: '2', event: 'join', data: 'line one\nline two' },
      ]);
    }
  });

  it('handles CRLF line ends, multi-byte characters split across chunks and an unfinished last event', async () => {
    const bytes = new TextEncoder().encode('id: 7\r\ndata: Grüße 👋\r\n\r\ndata: never finished');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events = [];
    for await (const message of parseEventStream(stream)) events.push(message);
    expect(events).toEqual([{ id: '7', event: 'message', data: 'Grüße 👋' }]);
  });
});

describe('mesh quality policy (docs/e2ee-crypto.md "Mesh size")', () => {
  it('lowers height, bitrate and frame rate as the meeting grows', () => {
    expect(videoTarget(2)).toEqual({ height: 720, maxBitrate: 1_500_000, maxFramerate: 30 });
    expect(videoTarget(4).height).toBe(720);
    expect(videoTarget(5)).toEqual({ height: 360, maxBitrate: 500_000, maxFramerate: 30 });
    expect(videoTarget(9)).toEqual({ height: 180, maxBitrate: 200_000, maxFramerate: 15 });
    expect(videoTarget(16).height).toBeLessThan(180);
    for (let n = 2; n < 30; n += 1) {
      // Never more upload in total for a bigger room than the policy's 720p budget × 3 peers.
      expect((n - 1) * videoTarget(n).maxBitrate).toBeLessThanOrEqual(4_500_000);
      expect(videoTarget(n + 1).maxBitrate).toBeLessThanOrEqual(videoTarget(n).maxBitrate);
    }
  });

  it('scales the capture down to the target and sends nothing to a peer that hides our tile', () => {
    expect(cameraEncoding(6, 720, true)).toMatchObject({ active: true, scaleResolutionDownBy: 2, maxBitrate: 500_000 });
    expect(cameraEncoding(2, 480, true).scaleResolutionDownBy).toBe(1);
    expect(cameraEncoding(3, 720, false).active).toBe(false);
    expect(screenEncoding(10).maxBitrate).toBeLessThan(screenEncoding(2).maxBitrate);
  });

  it('keeps a sender without a track inactive, so the camera gets the whole estimate at the start of a call', () => {
    const base = { participants: 2, captureHeight: 720, visible: true, warmingUp: false };
    expect(videoEncodings({ ...base, camera: true, screen: false })).toMatchObject({
      camera: { active: true, scaleResolutionDownBy: 1 },
      screen: { active: false },
    });
    expect(videoEncodings({ ...base, camera: false, screen: true })).toMatchObject({
      camera: { active: false },
      screen: { active: true, maxBitrate: 2_500_000 },
    });
    expect(videoEncodings({ ...base, visible: false, camera: true, screen: false }).camera.active).toBe(false);
  });

  it('a connection warming up sends the camera at 360p at most, then the policy\u2019s own size', () => {
    expect(WARM_UP_HEIGHT).toBe(360);
    const base = { participants: 2, captureHeight: 720, visible: true, camera: true, screen: false };
    expect(videoEncodings({ ...base, warmingUp: true }).camera).toMatchObject({ active: true, scaleResolutionDownBy: 2, maxBitrate: 1_500_000 });
    expect(videoEncodings({ ...base, warmingUp: false }).camera.scaleResolutionDownBy).toBe(1);
    // A room whose policy is already 360p or less is unchanged; a smaller capture is never scaled up.
    expect(cameraEncoding(6, 720, true, true)).toEqual(cameraEncoding(6, 720, true, false));
    expect(cameraEncoding(12, 720, true, true).scaleResolutionDownBy).toBe(4);
    expect(cameraEncoding(2, 240, true, true).scaleResolutionDownBy).toBe(1);
    // The screen is text: never softened.
    expect(videoEncodings({ ...base, screen: true, warmingUp: true }).screen.scaleResolutionDownBy).toBe(1);
  });

  it('starts audio-only above 20 participants on the mesh, with the camera on at any size through the SFU', () => {
    expect(cameraOnByDefault(20, false)).toBe(true);
    expect(cameraOnByDefault(21, false)).toBe(false);
    expect(cameraOnByDefault(21, true)).toBe(true);
    expect(cameraOnByDefault(100, true)).toBe(true);
    // The lobby's route: the SFU only where the server has one and the pin sends this size there.
    expect(startingRoute(30, AUTO, true)).toBe('sfu');
    expect(startingRoute(30, AUTO, false)).toBe('mesh');
    expect(startingRoute(5, AUTO, true)).toBe('mesh');
    expect(startingRoute(30, 'mesh', true)).toBe('mesh');
    expect(startingRoute(2, 'sfu', true)).toBe('sfu');
  });

  it('turns on Opus DTX in the SDP once, leaving other codecs alone', () => {
    const sdp = 'a=rtpmap:111 opus/48000/2\r\na=fmtp:111 minptime=10;useinbandfec=1\r\na=rtpmap:96 VP8/90000\r\na=fmtp:96 x=1\r\n';
    const once = withOpusDtx(sdp);
    expect(once).toContain('a=fmtp:111 minptime=10;useinbandfec=1;usedtx=1');
    expect(once).toContain('a=fmtp:96 x=1\r\n');
    expect(withOpusDtx(once)).toBe(once);
    expect(withOpusDtx('v=0\r\n')).toBe('v=0\r\n');
  });

  it('starts the video estimate within the policy: at most 1 Mbps, the budget of a large mesh', () => {
    expect(startBitrateKbps(2)).toBe(1000);
    expect(startBitrateKbps(6)).toBe(500);
    expect(startBitrateKbps(30)).toBe(100);
  });

  it('puts the start bitrate on every VP8 payload of every video section, once, and nowhere else', () => {
    const sdp = [
      'v=0',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=rtpmap:111 opus/48000/2',
      'a=fmtp:111 minptime=10',
      'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
      'a=rtpmap:96 VP8/90000',
      'a=rtpmap:97 rtx/90000',
      'a=fmtp:97 apt=96',
      'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'a=rtpmap:96 VP8/90000',
      'a=fmtp:96 max-fr=30',
      '',
    ].join('\r\n');
    const once = withVideoStartBitrate(sdp, 800);
    expect(once).toContain('a=rtpmap:96 VP8/90000\r\na=fmtp:96 x-google-start-bitrate=800\r\na=rtpmap:97 rtx/90000');
    expect(once).toContain('a=fmtp:96 max-fr=30;x-google-start-bitrate=800\r\n');
    expect(once).toContain('a=fmtp:111 minptime=10\r\n');
    expect(once).toContain('a=fmtp:97 apt=96\r\n');
    expect(once.match(/x-google-start-bitrate/g)).toHaveLength(2);
    expect(withVideoStartBitrate(once, 800)).toBe(once);
  });

  it('grades a connection by round trip and loss', () => {
    expect(classifyQuality(null, null)).toBe('unknown');
    expect(classifyQuality(20, 0)).toBe('good');
    expect(classifyQuality(300, 0)).toBe('fair');
    expect(classifyQuality(50, 0.2)).toBe('poor');
  });
});

describe('generated meeting password (SPEC point 9)', () => {
  it('has 16 characters from letters, digits and !@#$%^&*', () => {
    for (let i = 0; i < 200; i += 1) {
      const password = generateMeetingPassword();
      expect(password).toHaveLength(16);
      expect(password).toMatch(/^[A-Za-z0-9!@#$%^&*]{16}$/);
      // Issue 33: nothing that reads as another character.
      expect(password).not.toMatch(/[IJOlo01]/);
    }
  });

  it('leaves out look-alikes and keeps at least 95 bits', () => {
    for (const char of 'IJOlo01') expect(PASSWORD_ALPHABET).not.toContain(char);
    expect(new Set(PASSWORD_ALPHABET).size).toBe(PASSWORD_ALPHABET.length);
    expect(PASSWORD_ALPHABET).toMatch(/^[A-Za-z0-9!@#$%^&*]+$/);
    for (const symbol of '!@#$%^&*') expect(PASSWORD_ALPHABET).toContain(symbol);
    expect(16 * Math.log2(PASSWORD_ALPHABET.length)).toBeGreaterThan(95);
  });

  it('uses the whole alphabet without a visible bias', () => {
    const counts = new Map<string, number>();
    const draws = 2000;
    for (let i = 0; i < draws; i += 1) for (const char of generateMeetingPassword()) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(PASSWORD_ALPHABET.length);
    const expected = (draws * 16) / PASSWORD_ALPHABET.length;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.25);
  });
});

describe('messages between participants', () => {
  it('accepts well-formed messages and drops anything else', () => {
    expect(parsePeerMessage({ t: 'chat', id: 'x', text: 'hi', at: 5 })).toEqual({ t: 'chat', id: 'x', text: 'hi', at: 5 });
    expect(parsePeerMessage({ t: 'reaction', emoji: '👍' })).toEqual({ t: 'reaction', emoji: '👍' });
    expect(parsePeerMessage({ t: 'view', visible: false })).toEqual({ t: 'view', visible: false });
    const state = { t: 'state', muted: true, cameraOff: false, sharing: false, hand: true, recording: false };
    expect(parsePeerMessage({ ...state, extra: '<script>' })).toEqual(state);
    for (const bad of [
      null,
      'chat',
      { t: 'chat', id: 'x', text: '   ' },
      { t: 'chat', id: 'x', text: 'a'.repeat(2001) },
      { t: 'chat', id: 'y'.repeat(65), text: 'hi' },
      { t: 'reaction', emoji: '<img>' },
      { t: 'state', muted: 'yes' },
      { t: 'view' },
      { t: 'unknown' },
    ])
      expect(parsePeerMessage(bad)).toBeNull();
  });
});

describe('recording layout', () => {
  it('places tiles in a near-square grid that covers the frame without overlap', () => {
    expect(gridCells(1, 1280, 720)).toEqual([{ x: 0, y: 0, width: 1280, height: 720 }]);
    const five = gridCells(5, 1200, 600);
    expect(five).toHaveLength(5);
    expect(five[0]).toEqual({ x: 0, y: 0, width: 400, height: 300 });
    expect(five[4]).toEqual({ x: 400, y: 300, width: 400, height: 300 });
  });
});
