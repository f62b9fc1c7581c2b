import 'server-only';
import { avg, count, desc, isNotNull } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { ratings } from '@/lib/db/schema';

export interface RatingsSummary {
  /** Rounded to two decimals; null before the first rating. */
  average: number | null;
  count: number;
  /** How many ratings gave 1…5 stars. */
  distribution: Record<1 | 2 | 3 | 4 | 5, number>;
  comments: { rating: number; comment: string; createdAt: string }[];
}

/** The ratings of POST /api/rate: their average and the newest comments. */
export async function ratingsSummary(commentLimit = 20): Promise<RatingsSummary> {
  const db = await getDb();
  const [[totals], byStars, comments] = await Promise.all([
    db.select({ average: avg(ratings.rating), count: count() }).from(ratings),
    db.select({ rating: ratings.rating, count: count() }).from(ratings).groupBy(ratings.rating),
    db
      .select({ rating: ratings.rating, comment: ratings.comment, createdAt: ratings.createdAt })
      .from(ratings)
      .where(isNotNull(ratings.comment))
      .orderBy(desc(ratings.createdAt))
      .limit(commentLimit),
  ]);
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  for (const row of byStars) distribution[row.rating as 1 | 2 | 3 | 4 | 5] = Number(row.count);
  return {
    average: totals?.average == null ? null : Math.round(Number(totals.average) * 100) / 100,
    count: Number(totals?.count ?? 0),
    distribution,
    comments: comments.map((row) => ({ rating: row.rating, comment: row.comment ?? '', createdAt: row.createdAt.toISOString() })),
  };
}
