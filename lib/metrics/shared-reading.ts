/**
 * One reading shared by the gauges that a scrape collects together (prom-client collects them
 * all at once): the first asks, the others wait for the same answer; the next scrape asks again.
 */
export function sharedReading<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= read().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
