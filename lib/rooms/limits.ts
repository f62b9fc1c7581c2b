import { MAX_PARTICIPANTS, TRIAL_PARTICIPANTS } from '@/lib/meeting/protocol';

// How many rooms an account may have and how many people its meetings seat. Billing on (SPEC
// points 1, 6 and 9): an individual plan has 1 room, an executive plan up to 30 (the user's
// numberOfRooms); 2 participants during the trial, 30 otherwise. Billing off (issue 35): the
// admin's configuration, or an operator's grant (`npm run admin -- set-plan`) when it is larger.

/** The configuration's limits of a server without billing; null when billing is on. */
export interface PrivateLimits {
  /** Infinity with ON_PREMISE=true: no room limit (SPEC point 4). */
  roomsPerUser: number;
  participantsPerMeeting: number;
}

export const DEFAULT_PRIVATE_LIMITS: PrivateLimits = { roomsPerUser: 10, participantsPerMeeting: 30 };

/** How many rooms the user may have: Infinity for no limit (`shownRoomLimit` makes it null for screens and JSON). */
export function roomLimit(user: { numberOfRooms: number }, privateLimits: PrivateLimits | null): number {
  const granted = Math.max(0, user.numberOfRooms);
  return privateLimits ? Math.max(privateLimits.roomsPerUser, granted) : granted;
}

/** How many people may be in a meeting of the user's rooms. */
export function participantLimit(user: { isTrial: boolean }, privateLimits: PrivateLimits | null): number {
  const plan = user.isTrial ? TRIAL_PARTICIPANTS : MAX_PARTICIPANTS;
  if (!privateLimits) return plan;
  // A trial means nothing here; a plan the operator granted (no longer on trial) keeps SPEC's 30.
  return Math.max(privateLimits.participantsPerMeeting, user.isTrial ? 0 : plan);
}

/** A room limit as screens and answers show it: null for "no limit". */
export const shownRoomLimit = (limit: number): number | null => (Number.isFinite(limit) ? limit : null);
