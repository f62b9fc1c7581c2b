/** @jest-environment node */
// The data channels of the SFU connections (sfu/sfu-channels.ts): Janus relays its publishers'
// messages to a subscriber only once the subscriber opened a channel of its own on the
// subscription, so one is made after Janus's first offer that has data, and the publishers in the
// subscription are greeted only once it is open; every channel Janus opens brings messages.
import { SfuChannels } from '@/lib/meeting/client/sfu/sfu-channels';

/** What the channels use of a data channel. */
class FakeChannel {
  readyState: RTCDataChannelState = 'connecting';
  binaryType = 'blob';
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  readonly sent: Uint8Array[] = [];
  constructor(readonly label: string) {}
  send(bytes: Uint8Array) {
    this.sent.push(bytes);
  }
  open() {
    this.readyState = 'open';
    this.onopen?.();
  }
}

class FakeConnection {
  readonly made: FakeChannel[] = [];
  ondatachannel: ((event: { channel: FakeChannel }) => void) | null = null;
  createDataChannel(label: string) {
    const channel = new FakeChannel(label);
    this.made.push(channel);
    return channel;
  }
}

const asPc = (pc: FakeConnection) => pc as unknown as RTCPeerConnection;
const OFFER_WITH_DATA = 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n';
const OFFER_WITHOUT = 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n';

function channels(subscribed: string[]) {
  const opened: string[][] = [];
  const received: number[] = [];
  const made = new SfuChannels({ opened: (ids) => void opened.push(ids), receive: (bytes) => void received.push(bytes.length) }, () => subscribed);
  return { made, opened, received };
}

it('our subscription gets a channel of its own only once an offer has data, and greets only once it is open', () => {
  const subscribed = ['ada'];
  const { made, opened } = channels(subscribed);
  const pc = new FakeConnection();
  made.receiving(asPc(pc));
  made.described(asPc(pc), OFFER_WITHOUT);
  expect(pc.made).toEqual([]);
  made.described(asPc(pc), OFFER_WITH_DATA);
  made.described(asPc(pc), OFFER_WITH_DATA);
  expect(pc.made.map(({ label }) => label)).toEqual(['enclave-in']);
  made.heardNow();
  expect(opened).toEqual([]);
  pc.made[0]!.open();
  expect(opened).toEqual([['ada']]);
  // A publisher added to the open subscription is greeted once; one forgotten (gone, left) again when back.
  subscribed.push('bob');
  made.heardNow();
  made.heardNow();
  expect(opened).toEqual([['ada'], ['bob']]);
  made.forget('ada');
  made.heardNow();
  expect(opened).toEqual([['ada'], ['bob'], ['ada']]);
});

it('takes binary messages on every channel Janus opens, and nothing else', () => {
  const { made, received } = channels([]);
  const pc = new FakeConnection();
  made.receiving(asPc(pc));
  const relayed = new FakeChannel('ada');
  pc.ondatachannel!({ channel: relayed });
  expect(relayed.binaryType).toBe('arraybuffer');
  relayed.onmessage!({ data: new ArrayBuffer(10) });
  relayed.onmessage!({ data: 'clear text' });
  relayed.onmessage!({ data: new ArrayBuffer(96 * 1024 + 1) });
  expect(received).toEqual([10]);
});

it('sends on our publisher channel once it is open, and says so when it is not', () => {
  const { made } = channels([]);
  const pc = new FakeConnection();
  expect(made.send(new Uint8Array([1]))).toBe(false);
  made.publish(asPc(pc));
  expect(pc.made.map(({ label }) => label)).toEqual(['enclave']);
  expect(made.send(new Uint8Array([1]))).toBe(false);
  pc.made[0]!.open();
  expect(made.send(new Uint8Array([1, 2]))).toBe(true);
  expect(pc.made[0]!.sent).toEqual([new Uint8Array([1, 2])]);
});
