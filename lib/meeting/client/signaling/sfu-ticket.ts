// The pass to the meeting's room on the SFU (issue 38): asked when the call moves to the SFU.
import type { SfuTicket } from '@/lib/meeting/protocol';
import { meetingApiPath } from '@/lib/meeting-address';

/**
 * The ticket; 'none' when this server has no SFU (404 room_not_found: it never will, the call
 * stays a mesh); 'failed' when it could not give one now (its Janus node down, a rate limit, the
 * network): worth asking again later.
 */
export type TicketAnswer = SfuTicket | 'none' | 'failed';

export async function fetchSfuTicket(meetingId: string, token: string): Promise<TicketAnswer> {
  try {
    const response = await fetch(meetingApiPath(meetingId, 'sfu'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      cache: 'no-store',
    });
    if (response.status === 404) return 'none';
    return response.ok ? ((await response.json()) as SfuTicket) : 'failed';
  } catch {
    return 'failed';
  }
}
