import 'server-only';
import { createHmac } from 'node:crypto';
import { config } from '@/lib/environment';
import type { IceAnswer } from '@/lib/meeting/protocol';

export const TURN_CREDENTIAL_SECONDS = 12 * 3600;

/**
 * ICE servers for one participant. TURN credentials follow coturn's `use-auth-secret` scheme
 * (the TURN REST API): username "<expiry>:<participant>", password base64(HMAC-SHA1(secret,
 * username)), so coturn checks them without a database. No server is configured by default:
 * no third-party STUN sees who meets whom.
 */
export function iceServersFor(participantId: string, now = Date.now()): IceAnswer {
  const urls = config.turnUrls;
  if (urls.length === 0) return { iceServers: [], iceTransportPolicy: 'all' };
  const stun = urls.filter((url) => url.startsWith('stun:'));
  const turn = urls.filter((url) => url.startsWith('turn:') || url.startsWith('turns:'));
  const iceServers: IceAnswer['iceServers'] = [];
  if (stun.length) iceServers.push({ urls: stun });
  if (turn.length && config.turnSecret) {
    const username = `${Math.floor(now / 1000) + TURN_CREDENTIAL_SECONDS}:${participantId}`;
    const credential = createHmac('sha1', config.turnSecret).update(username).digest('base64');
    iceServers.push({ urls: turn, username, credential });
  } else if (turn.length) {
    iceServers.push({ urls: turn });
  }
  return { iceServers, iceTransportPolicy: config.iceTransportPolicy };
}
