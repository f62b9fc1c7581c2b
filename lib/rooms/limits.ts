// SPEC points 1, 6 and 9: an individual plan has 1 room, an executive plan up to 30 (the user's
// numberOfRooms); on-premise installs have no room limit (SPEC point 4).

/** How many rooms the user may have, or null for no limit. */
export function roomLimit(user: { numberOfRooms: number }, onPremise: boolean): number | null {
  return onPremise ? null : Math.max(0, user.numberOfRooms);
}

/** DESIGN.md "Meetings": 2 participants during the trial, 30 otherwise. */
export function participantLimit(user: { isTrial: boolean }): number {
  return user.isTrial ? 2 : 30;
}
