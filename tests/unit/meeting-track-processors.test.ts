/** @jest-environment node */
import { LocalInputs } from '@/lib/meeting/client/call/local-inputs';
import type { TrackProcessor } from '@/lib/meeting/client/media/track-processor';
import { registerPipeline } from '@/lib/meeting/client/background/registry';
import type { BackgroundPipeline } from '@/lib/meeting/client/background/pipeline';

// One ownership rule for what processes a capture (issue 49 point 3): the session holds the raw
// capture, the senders (and the recorder, which reads what they send) get the processed track,
// mute acts on what is sent, a processor never stops its capture and is stopped once.

class Track {
  enabled = true;
  stopped = 0;
  constructor(readonly id: string) {}
  stop() {
    this.stopped += 1;
  }
}
const track = (id: string) => new Track(id) as unknown as MediaStreamTrack & Track;

function processorOf(raw: MediaStreamTrack, id = 'filtered'): TrackProcessor & { stops: number } {
  const out = track(id);
  const processor = {
    raw,
    track: out as MediaStreamTrack,
    stops: 0,
    stop() {
      processor.stops += 1;
      out.stop();
    },
  };
  return processor;
}

function inputs(muted = false) {
  const mic = track('mic');
  const sent: (string | null)[] = [];
  let ended = false;
  const media = new LocalInputs(
    { audio: mic, camera: null },
    {
      send: async (slot, sending) => void (slot === 'audio' && sent.push(sending ? (sending as unknown as Track).id : null)),
      muted: () => muted,
      ended: () => ended,
    },
  );
  return { media, mic, sent, end: () => void (ended = true) };
}

it('sends the processed track, keeps the capture, and puts the capture back when the processor comes off', async () => {
  const { media, mic, sent } = inputs();
  const filter = processorOf(mic);
  expect(await media.setProcessor('audio', filter)).toBe(true);
  expect(sent).toEqual(['filtered']);
  expect(media.capture('audio')).toBe(mic);
  await media.removeProcessor('audio', filter);
  expect(sent).toEqual(['filtered', 'mic']);
  expect(filter.stops).toBe(1);
  expect(mic.stopped).toBe(0);
});

it('muted: the processed track goes out disabled while the capture keeps feeding the processor', async () => {
  const { media, mic } = inputs(true);
  mic.enabled = false;
  const filter = processorOf(mic);
  await media.setProcessor('audio', filter);
  expect(filter.track.enabled).toBe(false);
  expect(mic.enabled).toBe(true);
  await media.removeProcessor('audio', filter);
  expect(mic.enabled).toBe(false);
});

it('another microphone drops the processor of the old one; a processor made from the old one is refused and stopped', async () => {
  const { media, mic, sent } = inputs();
  const filter = processorOf(mic);
  await media.setProcessor('audio', filter);
  const next = track('mic-2');
  await media.switchMicrophone(next);
  expect(sent.at(-1)).toBe('mic-2');
  expect(filter.stops).toBe(1);
  expect(mic.stopped).toBe(1);
  const late = processorOf(mic, 'late');
  expect(await media.setProcessor('audio', late)).toBe(false);
  expect(late.stops).toBe(1);
  expect(sent.at(-1)).toBe('mic-2');
  // The hook's cleanup after the session dropped it: stopped once, nothing sent.
  await media.removeProcessor('audio', filter);
  expect(filter.stops).toBe(1);
  expect(sent.at(-1)).toBe('mic-2');
});

it("at the call's end every processor and capture stops once; a processor taken off afterwards is not sent", async () => {
  const { media, mic, sent, end } = inputs();
  const filter = processorOf(mic);
  await media.setProcessor('audio', filter);
  end();
  media.stopAll();
  await media.removeProcessor('audio', filter);
  expect(filter.stops).toBe(1);
  expect(mic.stopped).toBe(1);
  expect(sent).toEqual(['filtered']);
});

it('a camera with a background effect: the session holds the camera behind it and sends the effect', async () => {
  const sent: (string | null)[] = [];
  const media = new LocalInputs(
    { audio: null, camera: null },
    {
      send: async (slot, sending) => void (slot === 'camera' && sent.push(sending ? (sending as unknown as Track).id : null)),
      muted: () => false,
      ended: () => false,
    },
  );
  const camera = track('camera');
  const effect = track('blurred');
  let closed = 0;
  registerPipeline({ track: effect, raw: camera, setEffect: async () => undefined, stats: () => null, close: () => void (closed += 1) } as BackgroundPipeline);
  await media.setCamera(effect);
  expect(sent).toEqual(['blurred']);
  expect(media.capture('camera')).toBe(camera);
  // The effect turned off: the camera itself is sent, and is the capture.
  await media.setCamera(camera);
  expect(sent).toEqual(['blurred', 'camera']);
  expect(media.capture('camera')).toBe(camera);
  media.stopAll();
  expect(camera.stopped).toBe(1);
  // Taken off by whoever replaced it (useBackgroundChoice's release), not by the bookkeeping.
  expect(closed).toBe(0);
});
