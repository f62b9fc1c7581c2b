import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '@/lib/db/client';
import { tokens } from '@/lib/db/schema';

export type TokenKind = (typeof tokens.$inferInsert)['kind'];

/** How long each kind of one-time link lives. */
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  activation: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
  email_change: 24 * 60 * 60 * 1000,
};

const digest = (raw: string) => createHash('sha256').update(raw).digest('hex');

/**
 * A new one-time link for a user: 256 bits from the CSPRNG, of which only a SHA-256 is stored.
 * Issuing one voids the user's older links of the same kind.
 */
export async function issueToken(db: Database | Transaction, userId: string, kind: TokenKind, now = new Date()) {
  const raw = randomBytes(32).toString('base64url');
  await db
    .update(tokens)
    .set({ usedAt: now })
    .where(and(eq(tokens.userId, userId), eq(tokens.kind, kind), isNull(tokens.usedAt)));
  await db.insert(tokens).values({
    userId,
    kind,
    tokenHash: digest(raw),
    expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[kind]),
  });
  return raw;
}

/** The user a valid, unused, unexpired link belongs to, without using it up. */
export async function peekToken(db: Database | Transaction, raw: string, kind: TokenKind, now = new Date()) {
  const [row] = await db
    .select({ userId: tokens.userId })
    .from(tokens)
    .where(and(eq(tokens.tokenHash, digest(raw)), eq(tokens.kind, kind), isNull(tokens.usedAt), gt(tokens.expiresAt, now)));
  return row?.userId ?? null;
}

/** Uses a link up: answers its user once, and null for every later or invalid attempt. */
export async function consumeToken(db: Database | Transaction, raw: string, kind: TokenKind, now = new Date()) {
  const [row] = await db
    .update(tokens)
    .set({ usedAt: now })
    .where(and(eq(tokens.tokenHash, digest(raw)), eq(tokens.kind, kind), isNull(tokens.usedAt), gt(tokens.expiresAt, now)))
    .returning({ userId: tokens.userId });
  return row?.userId ?? null;
}
