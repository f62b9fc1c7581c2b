// The pass to the meeting's room on the SFU (issue 38): asked when the call moves to the SFU.
import type { SfuTicket } from '@/lib/meeting/protocol';

/** The ticket, or null when this server has no SFU (or will not let us in): the call stays a mesh. */
export async function fetchSfuTicket(meetingId: string, token: string): Promise<SfuTicket | null> {
  try {
    const response = await fetch(`/api/meeting/${encodeURIComponent(meetingId)}/sfu`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      cache: 'no-store',
    });
    return response.ok ? ((await response.json()) as SfuTicket) : null;
  } catch {
    return null;
  }
}
