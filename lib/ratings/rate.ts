import 'server-only';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { ratings } from '@/lib/db/schema';
import { consumeAttempt, limits } from '@/lib/security/rate-limit';
import { RATING_COMMENT_MAX } from './limits';

/** POST /api/rate (SPEC point 7): a rating from 1 to 5 stars and an optional comment. */
export const rateSchema = z.object({
  rating: z
    .number({ error: (issue) => (issue.input === undefined ? 'missing_data' : 'incorrect_data') })
    .int('incorrect_data')
    .min(1, 'incorrect_data')
    .max(5, 'incorrect_data'),
  comment: z
    .string({ error: 'incorrect_data' })
    .trim()
    .max(RATING_COMMENT_MAX, 'incorrect_data')
    .nullish()
    .transform((comment) => comment || null),
});

/** Stores one rating; guests' ratings carry no user. `client` is the rater's address, for the limit. */
export async function saveRating(input: z.output<typeof rateSchema>, userId: string | null, client: string): Promise<void> {
  await consumeAttempt(limits.rate, client);
  const db = await getDb();
  await db.insert(ratings).values({ rating: input.rating, comment: input.comment, userId });
}

/** The user's newest rating, which /rate shows back to them; null before the first. */
export async function lastRating(userId: string): Promise<{ rating: number; createdAt: Date } | null> {
  const db = await getDb();
  const [row] = await db
    .select({ rating: ratings.rating, createdAt: ratings.createdAt })
    .from(ratings)
    .where(eq(ratings.userId, userId))
    .orderBy(desc(ratings.createdAt))
    .limit(1);
  return row ?? null;
}
