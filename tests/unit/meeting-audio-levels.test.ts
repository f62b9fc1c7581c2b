// Who speaks (lib/meeting/client/links/monitors.ts audioLevels): each peer's level from the SFU's
// audio receiver when heard through it, from the link's otherwise. Above route-pin.ts LINKS_UP_TO
// a call through the SFU keeps no link, and its speakers must still be read.
import { audioLevels } from '@/lib/meeting/client/links/monitors';

const receiverAt = (audioLevel: number, ageMs = 0) =>
  ({ getSynchronizationSources: () => [{ audioLevel, timestamp: performance.timeOrigin + performance.now() - ageMs }] }) as unknown as RTCRtpReceiver;
const link = (receiver: RTCRtpReceiver | null) => ({ receiver: () => receiver });

it('reads a peer heard through the SFU that has no link', () => {
  expect(audioLevels(new Map(), new Map([['ada', receiverAt(0.4)]]))).toEqual({ ada: 0.4 });
});

it("prefers the SFU's receiver over a link's, and reads a link's otherwise", () => {
  const links = new Map([
    ['ada', link(receiverAt(0.1))],
    ['bob', link(receiverAt(0.3))],
  ]);
  expect(audioLevels(links, new Map([['ada', receiverAt(0.5)]]))).toEqual({ ada: 0.5, bob: 0.3 });
});

it('counts an old reading, or none, as silence', () => {
  const links = new Map([
    ['ada', link(receiverAt(0.6, 5_000))],
    ['bob', link(null)],
  ]);
  expect(audioLevels(links)).toEqual({ ada: 0, bob: 0 });
});
