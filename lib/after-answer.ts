import 'server-only';
import { describeError, log } from '@/lib/log';
import { processSlot } from '@/lib/process-slot';

// Work a request starts but does not wait for, so that its answer takes the same time whatever
// the work finds (issue 16, item 6: a forgot-password answer must not say whether the address is
// known). It runs in this process after the answer; a failure is logged, never shown.
// One set per process (lib/process-slot.ts): afterAnswerSettled waits for work any route started.
const pending = processSlot<Set<Promise<void>>>('after-answer').getOrCreate(() => new Set());

export function runAfterAnswer(label: string, task: () => Promise<unknown>): void {
  const promise: Promise<void> = task()
    .then(() => undefined)
    .catch((error) => log.error(`${label} failed`, describeError(error)))
    .finally(() => pending.delete(promise));
  pending.add(promise);
}

/** Waits until the work started so far has finished (tests; a graceful stop). */
export async function afterAnswerSettled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
