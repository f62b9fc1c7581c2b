// What a meeting session starts from (session.ts): the join's answer, the local tracks, the keys.
import type { Bytes } from '@/lib/meeting/e2ee/bytes';
import type { JoinAnswer } from '@/lib/meeting/protocol';
import type { PreparedKeys } from '../keys/meeting-crypto';
import type { FramePath } from '../frames/frame-backends';
import type { Slot } from '../links/slots';
import type { OpenedStream } from '../signaling/signaling';
import type { MediaState } from './peer-messages';
import type { RoutePin } from './route-pin';
import type { ScheduleSettings } from '../sfu/key-schedule';
import type { CallFeature, FeatureDefinition } from './features';

export interface SessionOptions {
  meetingId: string;
  join: JoinAnswer;
  tracks: Record<Slot, MediaStreamTrack | null>;
  local: MediaState;
  /** The room secret from the link's #k, if it had one. */
  secret: Bytes | null;
  /** How frames reach the encryption worker (frame-backends.ts): encoded streams or script transforms. */
  framePath: FramePath;
  /** The room makes newcomers wait to be let in: then the key goes only to those the host lets in. */
  askToJoin: boolean;
  /** From the room password, when the room has one (room-password.ts); never leaves this page. */
  passwordKey?: Bytes | null;
  /** Keys and frame worker the lobby made ahead (MeetingCrypto.prepare); made here otherwise. */
  prepared?: Promise<PreparedKeys>;
  /** POST /join carried the handoff key of `prepared` (MeetingCrypto.keyRequest). */
  keyRequestPosted?: boolean;
  /** The event stream POST /join opened (signaling.ts postJoin); without it the session opens one. */
  stream?: OpenedStream | null;
  /** `?media=sfu|mesh` pins the media route (call/sfu-route.ts); otherwise the number in the call decides. */
  mediaRoute?: RoutePin;
  /** `?linksUpTo=N`: through the SFU, links to every peer up to N in the call (route-pin.ts). */
  linksUpTo?: number;
  /** MeetingInfo.sfu: without one the call stays a mesh and never asks for a ticket. */
  serverHasSfu?: boolean;
  /** `?keyEvery=S` shortens the sender keys' rotation through the SFU (sfu/key-schedule.ts scheduleOf). */
  keySchedule?: Partial<ScheduleSettings>;
  /** The data-channel features made with the call (features.ts), so their messages find them from the start. */
  features?: readonly FeatureDefinition<CallFeature>[];
}
