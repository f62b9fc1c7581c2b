'use client';

import { useSyncExternalStore } from 'react';
import type { Polls, PollView } from '@/lib/meeting/client/polls/polls';

const nothing = () => () => undefined;
const none: PollView[] = [];

/** Open polls of others we have not voted in yet: the toolbar's badge (0 until polls load). */
export function usePollBadge(polls: Polls | null): number {
  const views = useSyncExternalStore(polls?.subscribe ?? nothing, polls?.getSnapshot ?? (() => none), polls?.getSnapshot ?? (() => none));
  return views.filter((poll) => !poll.closed && !poll.mine && !poll.ours).length;
}
