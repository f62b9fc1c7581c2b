import 'server-only';
import { createHash, randomInt } from 'node:crypto';
import { and, count, eq, isNull, like } from 'drizzle-orm';
import { getDb, type Database, type Transaction } from '@/lib/db/client';
import { recoveryCodes } from '@/lib/db/schema';
import { formatRecoveryCode, normalizeRecoveryCode, RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH } from './two-factor-format';
import { verifyPassword } from './password';

/**
 * Two-factor recovery codes (issue 48, point 6): RECOVERY_CODE_COUNT per account, each of
 * RECOVERY_CODE_LENGTH characters from a 32-letter alphabet (60 random bits), good for one login.
 * Only SHA-256 hashes are stored: the codes are random enough that a slow hash adds nothing, and
 * a fast one lets a code be found by its hash in one query and used once under a condition.
 */
export const RECOVERY_CODE_COUNT = 10;

const sha256 = (normalized: string) => createHash('sha256').update(normalized).digest('hex');

/** A fresh code from the CSPRNG, as stored (normalized, no dashes). */
function freshCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i++) code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
  return code;
}

/**
 * Replaces every code of the account with RECOVERY_CODE_COUNT new ones, in the caller's
 * transaction; answers them in clear, the only time they exist so, grouped as they are shown
 * (abcd-efgh-jkmn).
 */
export async function replaceRecoveryCodes(tx: Database | Transaction, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, freshCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: sha256(code) })));
  return codes.map(formatRecoveryCode);
}

/** Removes every code of the account (2FA turned off). */
export async function dropRecoveryCodes(tx: Database | Transaction, userId: string): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** How many unused codes the account has left. */
export async function recoveryCodesLeft(db: Database | Transaction, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/**
 * Uses one code of the account, if `input` is one of its unused codes: marks it used (under a
 * condition, so two simultaneous uses of one code count once) and answers the codes left; null
 * when it is no code of the account. A six-digit code from before issue 48 is checked against
 * the password hash it was kept under (drizzle/0015_recovery_codes.sql).
 */
export async function spendRecoveryCode(userId: string, input: string): Promise<{ left: number } | null> {
  const db = await getDb();
  const normalized = normalizeRecoveryCode(input);
  if (normalized.length === RECOVERY_CODE_LENGTH) {
    const [used] = await db
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, sha256(normalized)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used ? { left: await recoveryCodesLeft(db, userId) } : null;
  }
  if (!/^\d{6}$/.test(normalized)) return null;
  const legacy = await db
    .select()
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt), like(recoveryCodes.codeHash, '$%')));
  for (const row of legacy) {
    if (!(await verifyPassword(row.codeHash, normalized))) continue;
    const [used] = await db
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(recoveryCodes.id, row.id), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used ? { left: await recoveryCodesLeft(db, userId) } : null;
  }
  return null;
}
