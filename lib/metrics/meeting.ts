import 'server-only';
import { Counter, Gauge, Histogram } from 'prom-client';
import { ApiError } from '@/lib/errors';
import { log, describeError } from '@/lib/log';
import { getHub } from '@/lib/meeting/server/get-hub';
import { metric, PREFIX } from './registry';
import { sharedReading } from './shared-reading';

const joins = metric(
  `${PREFIX}meeting_joins_total`,
  (registers) =>
    new Counter({
      name: `${PREFIX}meeting_joins_total`,
      help: 'POST /api/meeting/{id}/join by outcome: admitted, waiting (for the host), or refused (reason: the error code)',
      labelNames: ['outcome', 'reason'] as const,
      registers,
    }),
);

const joinTime = metric(
  `${PREFIX}meeting_join_duration_seconds`,
  (registers) =>
    new Histogram({
      name: `${PREFIX}meeting_join_duration_seconds`,
      help: 'Server-side time of a successful join: rate limit, room and password check, seat reservation, token',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
);

const relayed = metric(
  `${PREFIX}signal_messages_relayed_total`,
  (registers) =>
    new Counter({
      name: `${PREFIX}signal_messages_relayed_total`,
      help: 'WebRTC signaling messages (offers, answers, ICE candidates) relayed from one participant to another',
      registers,
    }),
);

const refused = metric(
  `${PREFIX}signal_messages_refused_total`,
  (registers) =>
    new Counter({
      name: `${PREFIX}signal_messages_refused_total`,
      help: 'Signaling messages refused, by reason: token, not_in_meeting, not_admitted, unknown_target, flood',
      labelNames: ['reason'] as const,
      registers,
    }),
);

export type RefusalReason = 'token' | 'not_in_meeting' | 'not_admitted' | 'unknown_target' | 'flood';

export function countJoin(outcome: 'admitted' | 'waiting', seconds: number): void {
  joins.inc({ outcome, reason: '' });
  joinTime.observe(seconds);
}

export function countRefusedJoin(error: unknown): void {
  // The error codes are a closed set (lib/errors.ts); anything else is one label.
  joins.inc({ outcome: 'refused', reason: error instanceof ApiError ? error.code : 'error' });
}

export function countRelayed(messages: number): void {
  relayed.inc(messages);
}

/** Counts the refusal and gives back the error to throw. */
export function refuseSignal(reason: RefusalReason, error: ApiError): ApiError {
  refused.inc({ reason });
  return error;
}

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
