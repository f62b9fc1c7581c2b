import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { PEER_HEADER } from '@/lib/security/client-address';

/** Headers a reverse proxy adds: a request that came with one came through a proxy. */
export const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Who may read /metrics. With METRICS_TOKEN: exactly the requests that carry
 * `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time. Without it: a scraper on
 * this host only — the TCP peer (set by server/server.mjs) is a loopback address and the request
 * came with no forwarding header (a proxy on the same host would make every visitor look local).
 * `forwarded` is what the server layer saw (lib/metrics/request-start.ts), before Next.js adds an
 * X-Forwarded-For of its own to every request; undefined without server/server.mjs (`next start`,
 * a serverless platform), where nobody can be proved local and the token is required.
 */
export function mayReadMetrics(headers: Headers, token: string | undefined, forwarded: boolean | undefined): boolean {
  if (token) return sameSecret(bearer(headers.get('authorization')), token);
  return forwarded === false && isLoopback(headers.get(PEER_HEADER));
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
