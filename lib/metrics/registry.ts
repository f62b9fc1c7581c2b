import 'server-only';
import { collectDefaultMetrics, Registry, type Metric } from 'prom-client';

/**
 * The one Prometheus registry of the process. Next.js may load a module once per route bundle,
 * and server/server.mjs's fast paths and instrumentation run outside those bundles: the registry
 * lives on globalThis under a registered symbol, and each metric is looked up there by name
 * before it is made, so that every copy of a module counts into the same series.
 */
const REGISTRY = Symbol.for('enclave.metrics.registry');

export const PREFIX = 'enclave_';

export function metricsRegistry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  if (!holder[REGISTRY]) {
    const registry = new Registry();
    // The process's CPU, memory, event-loop lag, handles and GC under prom-client's own names
    // (process_*, nodejs_*), which Node.js dashboards and alerts expect (issue 48, point 5).
    // Only the app's own metrics carry PREFIX.
    collectDefaultMetrics({ register: registry });
    holder[REGISTRY] = registry;
  }
  return holder[REGISTRY];
}

/** The metric `name` of the registry, made by `make` (given the registry) the first time. */
export function metric<T extends Metric>(name: string, make: (registers: Registry[]) => T): T {
  const registry = metricsRegistry();
  return (registry.getSingleMetric(name) as T | undefined) ?? make([registry]);
}
