// The count every page makes of a poll's ballots: one ballot per participant (poll-book.ts keeps
// only each voter's latest), so the same ballots give the same tally on every page.
import type { Poll } from './poll-book';

export interface Tally {
  /** Participants who voted. */
  voters: number;
  /** Per option: how many voters chose it. */
  counts: number[];
  /** Per option: the share of voters who chose it, 0–100, rounded (with multiple choice they add up to more than 100). */
  percents: number[];
}

export function tally(poll: Pick<Poll, 'options' | 'ballots'>): Tally {
  const counts = poll.options.map(() => 0);
  for (const { choices } of poll.ballots.values()) for (const index of choices) if (index < counts.length) counts[index]! += 1;
  const voters = poll.ballots.size;
  return { voters, counts, percents: counts.map((count) => (voters ? Math.round((count / voters) * 100) : 0)) };
}
