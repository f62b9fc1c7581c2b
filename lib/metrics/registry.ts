import 'server-only';
import { collectDefaultMetrics, Registry, type Metric } from 'prom-client';
import { processSlot } from '@/lib/process-slot';

/**
 * The one Prometheus registry of the process (a process slot, lib/process-slot.ts): each metric
 * is looked up there by name before it is made, so that every copy of a module counts into the
 * same series.
 */
const registrySlot = processSlot<Registry>('metrics.registry');

export const PREFIX = 'enclave_';

export function metricsRegistry(): Registry {
  return registrySlot.getOrCreate(() => {
    const registry = new Registry();
    // The process's CPU, memory, event-loop lag, handles and GC under prom-client's own names
    // (process_*, nodejs_*), which Node.js dashboards and alerts expect (issue 48, point 5).
    // Only the app's own metrics carry PREFIX.
    collectDefaultMetrics({ register: registry });
    return registry;
  });
}

/** The metric `name` of the registry, made by `make` (given the registry) the first time. */
export function metric<T extends Metric>(name: string, make: (registers: Registry[]) => T): T {
  const registry = metricsRegistry();
  return (registry.getSingleMetric(name) as T | undefined) ?? make([registry]);
}
