import 'server-only';
// Every family /metrics shows, registered by importing its module (each one concern).
import './http';
import './meeting'; // the hub's live gauges: lib/meeting-server/census-metrics.ts, imported by the route
import './mail';
import './reminders';
import './database';
import { metricsRegistry } from './registry';

/** The registry's text for a scrape: the counters as they stand, the gauges read now. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const registry = metricsRegistry();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
