'use client';

import { useRouter } from 'next/navigation';
import { ChangePlan, type PlanState } from './ChangePlan';
import { Subscribe } from './Subscribe';

/** The interactive half of the billing screen: subscribe, or change a running plan. */
export function BillingPanel({ subscribed, plan, unitAmountCents, currency }: { subscribed: boolean; plan: PlanState | null; unitAmountCents: number; currency: string }) {
  const router = useRouter();
  const refresh = () => router.refresh();
  return subscribed && plan ? <ChangePlan plan={plan} onDone={refresh} /> : <Subscribe unitAmountCents={unitAmountCents} currency={currency} onDone={refresh} />;
}
