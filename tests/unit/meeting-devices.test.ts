/** @jest-environment jsdom */
// The devices a person chose (lib/meeting/client/media/devices.ts): remembered on this device, a
// remembered one that is gone falls back to the default, and the speaker choice reaches every
// audio element that follows it. getUserMedia is the browser's: here a stand-in that knows one
// camera and refuses any other id as Chromium does (OverconstrainedError).
import { currentSpeaker, openInput, rememberDevice, rememberedDevice, routeAudio, setSpeaker, subscribeSpeaker } from '@/lib/meeting/client/media/devices';

const calls: MediaStreamConstraints[] = [];
function fakeTrack(label: string) {
  return { label, kind: 'video', contentHint: '', stop: jest.fn() } as unknown as MediaStreamTrack;
}
beforeEach(() => {
  localStorage.clear();
  calls.length = 0;
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: async (constraints: MediaStreamConstraints) => {
        calls.push(constraints);
        const video = constraints.video as MediaTrackConstraints | undefined;
        const id = (video?.deviceId as { exact?: string } | undefined)?.exact;
        if (id && id !== 'cam-1') throw Object.assign(new Error('gone'), { name: 'OverconstrainedError' });
        return { getVideoTracks: () => [fakeTrack(id ?? 'default camera')], getAudioTracks: () => [] };
      },
    },
  });
});

describe('remembered devices', () => {
  it('keeps each kind apart, and reads nothing as the default', () => {
    expect(rememberedDevice('videoinput')).toBe('');
    rememberDevice('videoinput', 'cam-1');
    rememberDevice('audioinput', 'mic-2');
    expect([rememberedDevice('videoinput'), rememberedDevice('audioinput'), rememberedDevice('audiooutput')]).toEqual(['cam-1', 'mic-2', '']);
  });

  it('survives a damaged entry', () => {
    localStorage.setItem('enclave.devices', '{not json');
    expect(rememberedDevice('videoinput')).toBe('');
    rememberDevice('videoinput', 'cam-1');
    expect(rememberedDevice('videoinput')).toBe('cam-1');
  });
});

describe('openInput', () => {
  it('opens the chosen camera when it is there', async () => {
    const { track, fellBack } = await openInput('videoinput', 'cam-1');
    expect([track.label, fellBack]).toEqual(['cam-1', false]);
  });

  it('falls back to the default when the chosen one is gone', async () => {
    const { track, fellBack } = await openInput('videoinput', 'unplugged');
    expect([track.label, fellBack]).toEqual(['default camera', true]);
    expect(calls).toHaveLength(2);
  });

  it('does not hide a refusal: a denied camera stays an error', async () => {
    navigator.mediaDevices.getUserMedia = async () => {
      throw Object.assign(new Error('no'), { name: 'NotAllowedError' });
    };
    await expect(openInput('videoinput', 'cam-1')).rejects.toMatchObject({ name: 'NotAllowedError' });
  });
});

describe('the speaker', () => {
  it('tells its followers, is remembered unless told not to, and routes an element once', async () => {
    const heard = jest.fn();
    const stop = subscribeSpeaker(heard);
    setSpeaker('out-1');
    expect([currentSpeaker(), rememberedDevice('audiooutput'), heard.mock.calls.length]).toEqual(['out-1', 'out-1', 1]);
    setSpeaker('', false);
    expect([currentSpeaker(), rememberedDevice('audiooutput')]).toEqual(['', 'out-1']);
    stop();

    const element = {
      sinkId: '',
      setSinkId: jest.fn(async function (this: { sinkId: string }, id: string) {
        this.sinkId = id;
      }),
    };
    await routeAudio(element as unknown as HTMLMediaElement, 'out-1');
    await routeAudio(element as unknown as HTMLMediaElement, 'out-1');
    expect(element.setSinkId).toHaveBeenCalledTimes(1);
    expect(element.sinkId).toBe('out-1');
  });

  it('an output that refuses leaves the element on the default', async () => {
    const setSinkId = jest.fn(async (id: string) => {
      if (id) throw new Error('gone');
    });
    await routeAudio({ sinkId: 'x', setSinkId } as unknown as HTMLMediaElement, 'out-2');
    expect(setSinkId.mock.calls).toEqual([['out-2'], ['']]);
  });
});
