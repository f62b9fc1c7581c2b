import 'server-only';
import { Counter, Histogram } from 'prom-client';
import { metric, PREFIX } from './registry';

const requests = metric(
  `${PREFIX}http_requests_total`,
  (registers) =>
    new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by route template, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
);

const duration = metric(
  `${PREFIX}http_request_duration_seconds`,
  (registers) =>
    new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from taking an HTTP request to its answer (for an event stream: until it opened), by route template and method',
      labelNames: ['route', 'method'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
);

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Any other method a client invents is one label, not one series each. */
export function methodLabel(method: string | undefined): string {
  const upper = (method ?? '').toUpperCase();
  return METHODS.has(upper) ? upper : 'other';
}

/**
 * The label of a request no route handler named: build assets, and everything else that is not
 * an API call — pages, redirects, icons — as one "page" (the app router does not tell a page's
 * template to the server layer). An /api/ path no handler claimed (a 400 or 414 from the server
 * layer) is "/api/unrouted".
 */
export function fallbackRoute(url: string | undefined): string {
  const path = url ?? '/';
  if (path.startsWith('/_next/')) return 'static';
  if (path.startsWith('/api/')) return '/api/unrouted';
  return 'page';
}

export function countHttpRequest(route: string, method: string | undefined, status: number, seconds: number): void {
  const label = methodLabel(method);
  requests.inc({ route, method: label, status: String(status) });
  duration.observe({ route, method: label }, seconds);
}
