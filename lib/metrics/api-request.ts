import 'server-only';
import type { NextRequest } from 'next/server';
import { chooseRequestId, requestStorage, type RequestState } from '@/lib/request-context';
import { countHttpRequest } from './http';
import { routeTemplate } from './route-template';

type Params = Record<string, string | string[] | undefined>;

/**
 * Runs one API handler in its request's state, counts it under its route template and status,
 * and names its request id in the answer (X-Request-Id). Behind server/server.mjs the state is
 * the server's (its request id, its start time); under `next start` or in tests it is made here.
 */
export async function observeApiRequest(request: NextRequest, params: Promise<unknown> | undefined, answer: () => Promise<Response>): Promise<Response> {
  const storage = requestStorage();
  const outer = storage.getStore();
  const state: RequestState = outer ?? {};
  state.requestId ??= chooseRequestId(request.headers);
  const startedAt = state.startedAt ?? performance.now();
  const response = outer ? await answer() : await storage.run(state, answer);
  const route = routeTemplate(request.nextUrl.pathname, ((await params?.catch(() => undefined)) ?? {}) as Params);
  state.route = route;
  state.counted = true;
  countHttpRequest(route, request.method, response.status, (performance.now() - startedAt) / 1000);
  try {
    response.headers.set('X-Request-Id', state.requestId);
  } catch {
    // An answer with immutable headers (a fetched Response) goes out without it.
  }
  return response;
}
