import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { PEER_HEADER } from '@/lib/security/client-address';

/** Headers a reverse proxy adds: a request that carries one came through a proxy, not from this host. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Who may read /metrics. With METRICS_TOKEN: exactly the requests that carry
 * `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. Without it: a scraper on
 * this host only — the TCP peer (set by scripts/server.mjs) is a loopback address and no proxy
 * forwarded the request (a proxy on the same host would make every visitor look local). Without
 * the peer header (`next start`, a serverless platform) nobody: the token is then required.
 */
export function mayReadMetrics(headers: Headers, token: string | undefined): boolean {
  if (token) return sameSecret(bearer(headers.get('authorization')), token);
  if (FORWARDING_HEADERS.some((name) => headers.has(name))) return false;
  return isLoopback(headers.get(PEER_HEADER));
}

function bearer(header: string | null): string {
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? '';
}

/** Equal strings, in a time that depends on neither (both hashed to 32 bytes first). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected)) && given.length > 0;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1, and an IPv4 loopback peer on a dual-stack socket (::ffff:127.0.0.1). */
export function isLoopback(address: string | null): boolean {
  const plain = (address ?? '').trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const family = isIP(plain);
  return family !== 0 && loopback.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}
