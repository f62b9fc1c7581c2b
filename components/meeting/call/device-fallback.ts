// What happens when a camera, microphone or speaker goes mid-call; loaded the first time one
// does (useCallDevices), not with the call.
import { currentSpeaker, listAllDevices, openInput, setSpeaker } from '@/lib/meeting/client/media/devices';
import type { MeetingSession } from '@/lib/meeting/client/call/session';

export type InputSlot = 'audio' | 'camera';

/** The slot's device ended: the default device takes over on every link; without one the camera turns off. */
export async function fallBack(options: {
  session: MeetingSession;
  slot: InputSlot;
  track: MediaStreamTrack;
  /** The capture now used for the slot (the microphone may be sent through a filter). */
  current: (slot: InputSlot) => MediaStreamTrack | null;
  swapIn: (slot: InputSlot, track: MediaStreamTrack) => Promise<void>;
  notify: (switched: boolean) => void;
}) {
  const { session, slot, track } = options;
  try {
    const { track: next } = await openInput(slot === 'audio' ? 'audioinput' : 'videoinput');
    if (options.current(slot) !== track) return next.stop();
    await options.swapIn(slot, next);
    options.notify(true);
  } catch {
    if (slot === 'camera') await session.setCamera(null);
    options.notify(false);
  }
}

/** The chosen speaker is no longer listed: the default output plays, and the person is told. */
export async function checkSpeaker(notify: () => void) {
  const speaker = currentSpeaker();
  if (!speaker || speaker === 'default') return;
  const { audioOutputs } = await listAllDevices();
  if (audioOutputs.length && !audioOutputs.some((device) => device.deviceId === speaker)) {
    // Not remembered: plugged in again, it is still the one chosen next time.
    setSpeaker('', false);
    notify();
  }
}
