import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema';
import { writeAudit, type Actor } from '@/lib/audit/audit-log';
import { lockTarget, type UserRef } from './target';

export const plans = ['individual', 'executive', 'enterprise'] as const;
export type Plan = (typeof plans)[number];

/** SPEC points 1 and 9: individual 1 room, executive up to 30 (2 and more), enterprise negotiable. */
export const ROOM_RANGE: Record<Plan, { min: number; max: number }> = {
  individual: { min: 1, max: 1 },
  executive: { min: 2, max: 30 },
  enterprise: { min: 1, max: 10_000 },
};

export const planSchema = z.object({
  accountType: z.enum(plans, { error: 'incorrect_data' }),
  numberOfRooms: z.number({ error: 'incorrect_data' }).int('incorrect_data').optional(),
});

export function isPlan(value: string): value is Plan {
  return (plans as readonly string[]).includes(value);
}

/** The rooms a plan gets when none are named: the current number if the plan allows it, else its minimum. */
export function defaultRooms(plan: Plan, current: number): number {
  const { min, max } = ROOM_RANGE[plan];
  return current >= min && current <= max ? current : min;
}

/**
 * A plan granted by the operator outside Stripe (e.g. enterprise invoiced by hand): sets the
 * account type and rooms and ends the trial. Rooms outside the plan's range answer incorrect_data.
 */
export async function setPlan(
  ref: UserRef,
  plan: Plan,
  rooms: number | undefined,
  actor: Actor,
): Promise<{ email: string; accountType: Plan; numberOfRooms: number }> {
  if (!isPlan(plan)) throw new ApiError('incorrect_data', { field: 'accountType' });
  const db = await getDb();
  return db.transaction(async (tx) => {
    const user = await lockTarget(tx, ref);
    const numberOfRooms = rooms ?? defaultRooms(plan, user.numberOfRooms);
    const { min, max } = ROOM_RANGE[plan];
    if (!Number.isInteger(numberOfRooms) || numberOfRooms < min || numberOfRooms > max) {
      throw new ApiError('incorrect_data', { field: 'numberOfRooms' });
    }
    await tx.update(users).set({ accountType: plan, numberOfRooms, isTrial: false, updatedAt: new Date() }).where(eq(users.id, user.id));
    await writeAudit(
      tx,
      actor,
      'set_plan',
      { userId: user.id, label: user.email },
      { from: { accountType: user.accountType, numberOfRooms: user.numberOfRooms, isTrial: user.isTrial }, to: { accountType: plan, numberOfRooms } },
    );
    return { email: user.email, accountType: plan, numberOfRooms };
  });
}
