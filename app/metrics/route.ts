import { apiRoute, errorResponse } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { config } from '@/lib/environment';
import { mayReadMetrics } from '@/lib/metrics/access';
import { renderMetrics } from '@/lib/metrics';
// The hub's live gauges sit with the meeting's server side (it counts into lib/metrics).
import '@/lib/meeting-server/census-metrics';
import { currentRequest } from '@/lib/request-context';

// Read at each scrape, in this process: never prerendered, never on the edge.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /metrics – Prometheus's text format (docs/self-hosting/metrics-and-logs.md). Only with
// `Authorization: Bearer <METRICS_TOKEN>`, or from this host when no token is set.
export const GET = apiRoute({ auth: 'none' }, async ({ request, locale }) => {
  if (!mayReadMetrics(request.headers, config.metricsToken, currentRequest()?.forwarded)) {
    const refusal = await errorResponse(new ApiError('authentication_error', { status: 401 }), locale);
    refusal.headers.set('WWW-Authenticate', 'Bearer realm="metrics"');
    return refusal;
  }
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
});
