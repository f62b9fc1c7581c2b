// The camera's layers through the SFU (issue 38): one upload in three layers, each receiver picks
// one. Beside the mesh's policy (media/encoding-policy.ts), whose rule for the size of a call it follows,
// but loaded only with the SFU's code.
import { videoTarget } from '../media/encoding-policy';

/**
 * The camera's simulcast layers through the SFU, highest first (rid h, m, l: Janus's substreams
 * 2, 1, 0). Each receiver gets the one its tile needs (sfuLayer), so a sender uploads once
 * whatever the size of the call: about 2.2 Mbit/s at 720p, against N − 1 copies on the mesh.
 */
export const SIMULCAST_LAYERS: readonly (RTCRtpEncodingParameters & { rid: string })[] = [
  { rid: 'h', maxBitrate: 1_500_000, maxFramerate: 30, scaleResolutionDownBy: 1 },
  { rid: 'm', maxBitrate: 500_000, maxFramerate: 30, scaleResolutionDownBy: 2 },
  { rid: 'l', maxBitrate: 150_000, maxFramerate: 15, scaleResolutionDownBy: 4 },
];

/** Janus's substream for a tile: the height the mesh policy would send, none for a hidden tile. */
export function sfuLayer(participants: number, visible: boolean): 0 | 1 | 2 | 'off' {
  if (!visible) return 'off';
  const { height } = videoTarget(participants);
  return height >= 720 ? 2 : height >= 360 ? 1 : 0;
}
