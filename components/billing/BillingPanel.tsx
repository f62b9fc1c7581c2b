'use client';

import { useState } from 'react';
import { usePathRouter } from '@/lib/navigation/router';
import { ChangePlan, type PlanState } from './ChangePlan';
import { Subscribe } from './Subscribe';

/**
 * The interactive half of the billing screen: subscribe, or change a running plan. What just
 * happened stays on screen while the server part refreshes around it.
 */
export function BillingPanel({
  subscribed,
  plan,
  unitAmountCents,
  currency,
}: {
  subscribed: boolean;
  plan: PlanState | null;
  unitAmountCents: number;
  currency: string;
}) {
  const router = usePathRouter();
  const [notice, setNotice] = useState<string | null>(null);
  const done = (message: string) => {
    setNotice(message);
    router.refresh();
  };
  return (
    <div className="flex flex-col gap-4">
      {notice && (
        <p role="status" className="rounded-md bg-green-50 px-4 py-3 text-green-800">
          {notice}
        </p>
      )}
      {subscribed && plan ? (
        <ChangePlan plan={plan} onDone={done} onStart={() => setNotice(null)} />
      ) : (
        <Subscribe unitAmountCents={unitAmountCents} currency={currency} onDone={done} />
      )}
    </div>
  );
}
