import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { avatars, users, type User } from '@/lib/db/schema';

/** 2 MiB: plenty for a profile picture, small enough to keep in the database. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

/**
 * The image type read from the file's first bytes — the declared type is not trusted. Only
 * raster formats: an SVG could carry script.
 */
export function sniffImageType(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === 'WEBP') return 'image/webp';
  return null;
}

/** Replaces the user's avatar; answers its new id for GET /api/avatar/{avatar}. */
export async function saveAvatar(user: User, bytes: Buffer): Promise<string> {
  if (bytes.length === 0) throw new ApiError('missing_data', { field: 'avatar' });
  if (bytes.length > MAX_AVATAR_BYTES) throw new ApiError('incorrect_data', { field: 'avatar', status: 413 });
  const contentType = sniffImageType(bytes);
  if (!contentType) throw new ApiError('incorrect_data', { field: 'avatar', status: 415 });
  const id = randomBytes(16).toString('base64url');
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(avatars).where(eq(avatars.userId, user.id));
    await tx.insert(avatars).values({ id, userId: user.id, contentType, data: bytes });
    await tx.update(users).set({ avatar: id, updatedAt: new Date() }).where(eq(users.id, user.id));
  });
  return id;
}

export async function loadAvatar(id: string) {
  const db = await getDb();
  const [row] = await db
    .select({ contentType: avatars.contentType, data: avatars.data })
    .from(avatars)
    .where(and(eq(avatars.id, id)));
  return row;
}
