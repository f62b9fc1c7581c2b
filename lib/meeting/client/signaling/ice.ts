// The ICE servers (STUN/TURN) for a meeting, when the join did not bring them.
import type { IceAnswer } from '@/lib/meeting/protocol';
import { meetingApiPath } from '@/lib/meeting-address';

/** The connections' ICE settings from the server's answer. */
export function iceConfig(ice: IceAnswer): RTCConfiguration {
  return { iceServers: ice.iceServers, iceTransportPolicy: ice.iceTransportPolicy };
}

/** Asks the server; null when it cannot say (host candidates still work on a LAN and on loopback). */
export async function fetchIceConfig(meetingId: string, token: string): Promise<RTCConfiguration | null> {
  try {
    const response = await fetch(meetingApiPath(meetingId, 'ice'), {
      headers: { authorization: `Bearer ${token}` },
      cache: 'no-store',
    });
    if (!response.ok) return null;
    return iceConfig((await response.json()) as IceAnswer);
  } catch {
    return null;
  }
}
