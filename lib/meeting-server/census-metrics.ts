import 'server-only';
import { Gauge } from 'prom-client';
import { describeError, log } from '@/lib/log';
import { metric, PREFIX } from '@/lib/metrics/registry';
import { sharedReading } from '@/lib/metrics/shared-reading';
import { getHub } from './get-hub';

// The live meetings and participants on /metrics, read from the signaling hub at scrape time.
// Here rather than in lib/metrics/ (which the hub's own modules count into): registered by
// importing this module, which app/metrics/route.ts does beside lib/metrics.

metric(
  `${PREFIX}meetings_live`,
  (registers) =>
    new Gauge({
      name: `${PREFIX}meetings_live`,
      help: 'Meetings with at least one live participant, read from the signaling hub at scrape time (with REDIS_URL: all instances together)',
      registers,
      async collect() {
        const census = await hubCensus();
        if (census) this.set(census.meetings);
        else this.set(NaN); // unknown, not zero
      },
    }),
);

metric(
  `${PREFIX}meeting_participants_live`,
  (registers) =>
    new Gauge({
      name: `${PREFIX}meeting_participants_live`,
      help: 'Live participants by state (admitted, waiting, joining), read from the signaling hub at scrape time (with REDIS_URL: all instances together)',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const census = await hubCensus();
        for (const state of ['admitted', 'waiting', 'joining'] as const) this.set({ state }, census ? census.participants[state] : NaN);
      },
    }),
);

// Both gauges are filled from one reading of the hub per scrape.
const hubCensus = sharedReading(() => readHub().catch(() => null));

async function readHub() {
  try {
    return await (await getHub()).census();
  } catch (error) {
    log.warn('metrics: the signaling hub could not be read', describeError(error));
    throw error;
  }
}
