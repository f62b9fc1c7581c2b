import 'server-only';
import { Counter, Histogram } from 'prom-client';
import { ApiError } from '@/lib/errors';
import { metric, PREFIX } from './registry';

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
