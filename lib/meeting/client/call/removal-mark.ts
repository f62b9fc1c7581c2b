// A browser the host removed from a meeting remembers it (issue 48): opening the room's link again
// says "you cannot rejoin" instead of the lobby, so the removed person is told why and never
// comes back as a tile the others see connecting. The server refuses the removed participant's
// token (lib/meeting-server/relay.ts); a guest has no account to refuse, so this is what keeps
// an honest browser out — for as long as the server remembers the ban on Redis (a day).
const KEY = 'enclave.removed.';
export const REMOVAL_REMEMBERED_MS = 24 * 3600 * 1000;

/** Notes, in this browser, that the host removed us from this meeting now. */
export function markRemoved(meetingId: string, now = Date.now()): void {
  try {
    localStorage.setItem(KEY + meetingId, String(now));
  } catch {
    // Storage refused (private mode, full): the removal screen still shows in this tab.
  }
}

/** Whether the host removed this browser from this meeting less than a day ago. */
export function wasRemoved(meetingId: string, now = Date.now()): boolean {
  try {
    const stored = localStorage.getItem(KEY + meetingId);
    const at = stored === null ? NaN : Number(stored);
    if (!Number.isFinite(at)) return false;
    if (now - at < REMOVAL_REMEMBERED_MS) return true;
    localStorage.removeItem(KEY + meetingId);
    return false;
  } catch {
    return false;
  }
}
