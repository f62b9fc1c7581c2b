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
  card_login: 15 * 60 * 1000,
};

/**
 * A new reset link voids the older ones; activation links all stay valid until one is used, so
 * a person who clicks the first of two activation mails is not turned away.
 */
const VOIDS_OLDER: Record<TokenKind, boolean> = { activation: false, reset: true, email_change: true, card_login: true };

const digest = (raw: string) => createHash('sha256').update(raw).digest('hex');

/** Marks every unused link of a kind as used (a new reset link, or a completed activation). */
export async function voidTokens(db: Database | Transaction, userId: string, kind: TokenKind, now = new Date()) {
  await db
    .update(tokens)
    .set({ usedAt: now })
    .where(and(eq(tokens.userId, userId), eq(tokens.kind, kind), isNull(tokens.usedAt)));
}

/**
 * A new one-time link for a user: 256 bits from the CSPRNG, of which only a SHA-256 is stored.
 * `ttlMs` overrides the kind's lifetime (a meeting card handed out by an admin lives longer);
 * `payload` is what the link stands for (the pending address of an e-mail change).
 */
export async function issueToken(
  db: Database | Transaction,
  userId: string,
  kind: TokenKind,
  now = new Date(),
  ttlMs = TOKEN_TTL_MS[kind],
  payload?: Record<string, string>,
) {
  const raw = randomBytes(32).toString('base64url');
  if (VOIDS_OLDER[kind]) await voidTokens(db, userId, kind, now);
  await db.insert(tokens).values({
    userId,
    kind,
    tokenHash: digest(raw),
    payload,
    expiresAt: new Date(now.getTime() + ttlMs),
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

/** Uses a link up: answers its user and payload once, and null for every later or invalid attempt. */
export async function consumeTokenRecord(db: Database | Transaction, raw: string, kind: TokenKind, now = new Date()) {
  const [row] = await db
    .update(tokens)
    .set({ usedAt: now })
    .where(and(eq(tokens.tokenHash, digest(raw)), eq(tokens.kind, kind), isNull(tokens.usedAt), gt(tokens.expiresAt, now)))
    .returning({ userId: tokens.userId, payload: tokens.payload });
  return row ?? null;
}

/** Uses a link up: answers its user once, and null for every later or invalid attempt. */
export async function consumeToken(db: Database | Transaction, raw: string, kind: TokenKind, now = new Date()) {
  return (await consumeTokenRecord(db, raw, kind, now))?.userId ?? null;
}
