import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import type { Locale } from '@/lib/i18n/locales';

/** Saves a logged-in user's interface language (SPEC point 1). */
export async function saveUserLanguage(userId: string, lang: Locale): Promise<void> {
  const db = await getDb();
  await db.update(users).set({ lang, updatedAt: new Date() }).where(eq(users.id, userId));
}
