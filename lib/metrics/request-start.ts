import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseRequestId, currentRequest, REQUEST_ID_HEADER } from '@/lib/request-context';
import { putOnSeam, REQUEST_START } from '@/lib/server-seam/seam.mjs';
import { FORWARDING_HEADERS } from './access';
import { countHttpRequest, fallbackRoute } from './http';

/**
 * Called by server/server.mjs as each request comes in, inside the request's state: gives the
 * request its id (in the x-request-id header that Next.js passes on, in the state every log line
 * reads, and in the answer's X-Request-Id), and counts the request when its answer is done,
 * unless a route handler counted it under its template already (lib/metrics/api-request.ts).
 */
export function startRequest(request: IncomingMessage, response: ServerResponse): void {
  const headers = new Headers();
  for (const name of ['x-enclave-peer', REQUEST_ID_HEADER]) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  const id = chooseRequestId(headers);
  request.headers[REQUEST_ID_HEADER] = id;
  response.setHeader('X-Request-Id', id);
  const state = currentRequest();
  if (!state) return;
  state.requestId = id;
  state.forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
  const startedAt = (state.startedAt = performance.now());
  response.once('close', () => {
    if (state.counted) return;
    countHttpRequest(state.route ?? fallbackRoute(request.url), request.method, response.statusCode, (performance.now() - startedAt) / 1000);
  });
}

/** Called by instrumentation (lib/server-start.ts) when the server starts. */
export function registerRequestStart(): void {
  putOnSeam(REQUEST_START, startRequest);
}
