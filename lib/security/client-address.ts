// Who is asking, for per-client rate limits (issue 16, item 1). The address of the TCP peer is
// the truth (scripts/server.mjs writes it into PEER_HEADER, overwriting whatever a client sent);
// X-Forwarded-For is believed only when that peer is a configured reverse proxy (TRUSTED_PROXIES),
// and then read from the right: the first hop that is not a trusted proxy is the client.
import { BlockList, isIP } from 'node:net';

/** Set by the app's own HTTP server from the socket; a client's copy never survives. */
export const PEER_HEADER = 'x-enclave-peer';

export interface TrustedProxies {
  /** `*`: every hop is the platform's own (Vercel and similar write X-Forwarded-For themselves). */
  all: boolean;
  list: BlockList;
}

/** "::ffff:10.0.0.1" (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function normalize(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

/** TRUSTED_PROXIES: comma-separated addresses and CIDR ranges ("10.0.0.0/8, ::1"), or "*". */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  let all = false;
  for (const entry of (value ?? '').split(',').map((part) => part.trim()).filter(Boolean)) {
    if (entry === '*') {
      all = true;
      continue;
    }
    const [address = '', prefix] = entry.split('/');
    const family = isIP(normalize(address));
    if (!family) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(normalize(address), type);
    else list.addSubnet(normalize(address), Number(prefix), type);
  }
  return { all, list };
}

function isTrusted(address: string, trusted: TrustedProxies): boolean {
  if (trusted.all) return true;
  const family = isIP(address);
  return family !== 0 && trusted.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address for this request. Without the peer header (a development server, a
 * serverless platform) only a `*` configuration makes X-Forwarded-For count; otherwise "unknown".
 */
export function clientAddress(headers: Headers, trusted: TrustedProxies): string {
  const peer = headers.get(PEER_HEADER);
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map(normalize).filter((hop) => isIP(hop) !== 0);
  if (!peer) return trusted.all && hops.length ? hops[0]! : 'unknown';
  let client = normalize(peer);
  // Walk back from the peer through the proxies it vouches for.
  for (let i = hops.length - 1; i >= 0 && isTrusted(client, trusted); i -= 1) client = hops[i]!;
  return client;
}
