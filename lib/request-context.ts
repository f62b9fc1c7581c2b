import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { RequestState as DatabaseState } from '@/lib/db/unavailable-request';
import { fromSeam, putOnSeam, REQUEST_STATE } from '@/lib/server-seam/seam.mjs';
import { configuredTrustedProxies, isTrustedPeer, type TrustedProxies } from '@/lib/security/client-address';

/**
 * What one request carries along its asynchronous path. server/server.mjs starts each request
 * in an AsyncLocalStorage of its own, put on the seam under REQUEST_STATE; the same storage is used
 * here, so that the request id set where the request comes in (lib/metrics/request-start.ts) is
 * seen by every log line (lib/log.ts), by apiRoute and by the fast paths. Without
 * server/server.mjs (`next start`, tests), apiRoute opens the state itself.
 */
export interface RequestState extends DatabaseState {
  requestId?: string;
  /** The route template ("/api/meeting/[id]/signal") once a handler has said which. */
  route?: string;
  /** performance.now() when the server took the request. */
  startedAt?: number;
  /** The request came with a proxy's forwarding header (seen before Next.js adds X-Forwarded-For). */
  forwarded?: boolean;
  /** The request's metrics are taken (apiRoute); the server layer must not count it again. */
  counted?: boolean;
}

export const REQUEST_ID_HEADER = 'x-request-id';

/** The storage server/server.mjs made, or one of our own when it does not run. */
export function requestStorage(): AsyncLocalStorage<RequestState> {
  return fromSeam(REQUEST_STATE) ?? putOnSeam(REQUEST_STATE, new AsyncLocalStorage<RequestState>());
}

export function currentRequest(): RequestState | undefined {
  return requestStorage().getStore();
}

/** An id a proxy may pass on: short, and nothing a log reader could mistake for structure. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the one a trusted reverse proxy sent (TRUSTED_PROXIES), so that its access
 * log and ours name a request alike; otherwise a fresh one (a client's own is never believed).
 */
export function chooseRequestId(headers: Headers, trusted: TrustedProxies = configuredTrustedProxies()): string {
  const given = headers.get(REQUEST_ID_HEADER);
  if (given && ACCEPTABLE_ID.test(given) && isTrustedPeer(headers, trusted)) return given;
  return randomUUID();
}
