// Who is asking, for per-client rate limits (issue 16, item 1). The address of the TCP peer is
// the truth (server/server.mjs writes it into PEER_HEADER, overwriting whatever a client sent);
// X-Forwarded-For is believed only when that peer is a configured reverse proxy (TRUSTED_PROXIES),
// and then read from the right: the first hop that is not a trusted proxy is the client.
import { BlockList, isIP } from 'node:net';
import { log } from '@/lib/log';

/** Set by the app's own HTTP server from the socket; a client's copy never survives. */
export const PEER_HEADER = 'x-enclave-peer';
/**
 * X-Forwarded-Host and -Proto as the request carried them, copied by the app's own HTTP server
 * before Next.js fills in its own from the Host header (which would make any Host look forwarded).
 */
export const FORWARDED_HOST_HEADER = 'x-enclave-forwarded-host';
export const FORWARDED_PROTO_HEADER = 'x-enclave-forwarded-proto';

export interface TrustedProxies {
  /** `*`: every hop is the platform's own (Vercel and similar write X-Forwarded-For themselves). */
  all: boolean;
  list: BlockList;
}

/** "::ffff:10.0.0.1" (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function normalize(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

/**
 * A forwarded hop as proxies write it: "198.51.100.7", "198.51.100.7:40001", "2001:db8::1",
 * "[2001:db8::1]" or "[2001:db8::1]:443" is its address (issue 44, item 3: some gateways add the
 * client's port, and a hop the walk cannot read made every visitor the proxy). An IPv6 address
 * with a port is read only in brackets: "2001:db8::1:443" is itself an address.
 */
function readHop(hop: string): string {
  const trimmed = hop.trim();
  const withPort = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(trimmed) ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(trimmed);
  return normalize(withPort ? withPort[1]! : trimmed);
}

let unreadableHopLogged = false;

/**
 * Said once per process, not per request: a trusted proxy wrote a hop this cannot read, so its
 * clients share the proxy's address (and its rate-limit buckets) until the proxy is set to write
 * plain addresses (docs/self-hosting/reverse-proxy.md). The hop itself is not logged: it is an address.
 */
function noteUnreadableHop(proxy: string) {
  if (unreadableHopLogged) return;
  unreadableHopLogged = true;
  log.warn('a trusted proxy sent an X-Forwarded-For hop that is not an address: its clients count as the proxy', {
    proxy,
    read: 'an IPv4 or IPv6 address, 1.2.3.4:port, [IPv6] or [IPv6]:port',
  });
}

/**
 * TRUSTED_PROXIES: comma-separated addresses and CIDR ranges ("10.0.0.0/8, ::1"), or "*".
 * Throws on an entry it cannot read (a host name, a prefix out of range), naming it: the server
 * refuses to start rather than answer every rate-limited call with an error (issue 32, item 2).
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  let all = false;
  for (const entry of (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    if (entry === '*') {
      all = true;
      continue;
    }
    const refuse = (why: string) => new Error(`TRUSTED_PROXIES: "${entry}" ${why}`);
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(normalize(address));
    if (!family || extra !== undefined) throw refuse('is not an IP address or CIDR range (host names are not resolved)');
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) {
      list.addAddress(normalize(address), type);
      continue;
    }
    const bits = family === 6 ? 128 : 32;
    if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) throw refuse(`has a prefix length outside 0–${bits}`);
    list.addSubnet(normalize(address), Number(prefix), type);
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
  const forwarded = headers.get('x-forwarded-for')?.trim();
  const hops = forwarded ? forwarded.split(',').map(readHop) : [];
  if (!peer) {
    const first = hops.find((hop) => isIP(hop) !== 0);
    return trusted.all && first ? first : 'unknown';
  }
  let client = normalize(peer);
  // Walk back from the peer through the proxies it vouches for. A hop that is not an address
  // ("unknown", an obfuscated id) ends the walk: what lies left of it was written by someone no
  // trusted proxy vouches for, so the client is the last trusted proxy itself (issue 32, item 3:
  // skipping it let the client choose its own address).
  for (let i = hops.length - 1; i >= 0 && isTrusted(client, trusted); i -= 1) {
    if (isIP(hops[i]!) === 0) {
      noteUnreadableHop(client);
      break;
    }
    client = hops[i]!;
  }
  return client;
}

let configured: TrustedProxies | undefined;

/** TRUSTED_PROXIES as configured (checked at start by lib/startup-checks.ts). */
export function configuredTrustedProxies(): TrustedProxies {
  return (configured ??= parseTrustedProxies(process.env.TRUSTED_PROXIES));
}

/** Whether the request's TCP peer is a configured reverse proxy (whose forwarded headers count). */
export function isTrustedPeer(headers: Headers, trusted: TrustedProxies = configuredTrustedProxies()): boolean {
  const peer = headers.get(PEER_HEADER);
  if (!peer) return false;
  return isTrusted(normalize(peer), trusted);
}
