// How the meeting session tells React that its state changed (useSyncExternalStore's subscribe).
// What the person did shows at once; what the network and the connections did, in a task of its
// own, once for every change made in the current one: told at once, React
// rendered the whole call in a microtask before the change's effects began — a holder drew the
// newcomer's tile before it started sealing the key and making the offer, and a newcomer rendered
// between the holder's offer and its own answer (issue 17: N=2 first frame p50/p95 329/441 →
// 301/388 ms, its connection made 23 ms sooner; bench/RESULTS.md).

import type { MeetingEvent } from './meeting-state';

/** What the person does: shown at once (publish(true)), not a task later like everything else. */
export const OWN_ACTIONS: ReadonlySet<MeetingEvent['type']> = new Set<MeetingEvent['type']>([
  'leave',
  'set-muted',
  'camera',
  'screen',
  'hand',
  'recording',
  'send-chat',
  'react',
  'chat-open',
  'dismiss-notice',
  'host-action',
  'lock',
]);

export class StatePublisher {
  private readonly listeners = new Set<() => void>();
  private pending = false;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * The state changed: listeners hear it in the next task, once however many changes come before.
   * `now`: at once — what the person just did (a checkbox React controls would flick back for a task).
   */
  publish(now = false) {
    if (now) {
      for (const listener of this.listeners) listener();
      return;
    }
    if (this.pending) return;
    this.pending = true;
    nextTask(() => {
      this.pending = false;
      for (const listener of this.listeners) listener();
    });
  }
}

let channel: MessageChannel | null = null;
const queue: (() => void)[] = [];

/** Runs `run` in a task of its own: a message, which unlike a timer is neither clamped nor throttled in a background tab. */
function nextTask(run: () => void) {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => queue.shift()?.();
    // In Node (tests) an open port would keep the process alive.
    (channel.port1 as { unref?: () => void }).unref?.();
  }
  queue.push(run);
  channel.port2.postMessage(null);
}
