// The meeting machine's test helpers (meeting-machine*.test.ts): people, a fresh state, events
// run one after another, and a deep freeze that catches a step writing into its input.
import { initialState, step, type Effect, type MachineState, type MeetingEvent } from '@/lib/meeting/client/call/machine';
import type { Participant, ServerEvent } from '@/lib/meeting/protocol';

export const person = (id: string, isHost = false): Participant => ({ id, name: id.toUpperCase(), isHost });
export const SELF = person('m', true);
export const LOCAL = { muted: false, cameraOff: false, sharing: false, hand: false, recording: false };
export const AT = 1_700_000_000_000;

/** `serverHasSfu` false: the server said it has none (MeetingInfo.sfu). */
export function fresh(self: Participant = SELF, serverHasSfu = true): MachineState {
  return initialState({ self, local: LOCAL, camera: null, password: false, serverHasSfu });
}

/** Runs events one after another; the effects of the last one are returned with the state. */
export function run(state: MachineState, ...events: MeetingEvent[]) {
  let effects: Effect[] = [];
  for (const event of events) ({ state, effects } = step(state, event));
  return { state, effects };
}

export const server = (event: ServerEvent): MeetingEvent => ({ type: 'server', event, at: AT });
export const welcome = (...ids: string[]) => server({ type: 'welcome', self: SELF, participants: [SELF, ...ids.map((id) => person(id))], locked: false });
/** In the call with these peers (ids sort after "m" unless chosen otherwise). */
export const inCall = (...ids: string[]) => run(fresh(), welcome(...ids)).state;
export const peer = (state: MachineState, id: string) => state.view.peers.find((p) => p.id === id);
export const types = (effects: Effect[]) => effects.map((e) => e.type);

/** Deeply frozen: a step that wrote into its input would throw. */
export function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}
