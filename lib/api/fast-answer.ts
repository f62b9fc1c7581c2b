import 'server-only';
import { apiPolicy } from '@/lib/security/csp';
import { baseHeaders } from '@/lib/security/base-headers.mjs';

/** An answer the server layer writes as it is, for a fast path (lib/fast-paths.ts). */
export type { FastAnswer } from '@/lib/server-seam/seam.mjs';

let headers: Record<string, string> | undefined;

/** What every API answer carries that Next.js would have added: next.config.mjs's headers, proxy.ts's API policy, its Vary. */
export function apiAnswerHeaders(): Record<string, string> {
  headers ??= {
    ...Object.fromEntries(baseHeaders(process.env.NODE_ENV === 'production').map(({ key, value }) => [key, value])),
    'Content-Security-Policy': apiPolicy,
    Vary: 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch',
  };
  return headers;
}
