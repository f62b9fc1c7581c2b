import Link from 'next/link';

export interface Plan {
  key: string;
  name: string;
  price: string;
  /** "per room per month", "for 14 days", or nothing (enterprise). */
  period: string | null;
  features: string[];
  cta: { label: string; href: string };
  /** A ribbon such as "Most popular". */
  highlight: string | null;
}

export function PlanCard({ plan }: { plan: Plan }) {
  return (
    <li
      aria-labelledby={`plan-${plan.key}`}
      className={`relative flex flex-col rounded-xl border bg-white p-6 ${plan.highlight ? 'border-brand shadow-lg' : 'border-slate-200'}`}
    >
      {plan.highlight && <p className="absolute -top-3 left-6 rounded-full bg-brand px-3 py-0.5 text-xs font-semibold text-white">{plan.highlight}</p>}
      <h3 id={`plan-${plan.key}`} className="text-lg font-semibold text-slate-900">
        {plan.name}
      </h3>
      <p className="mt-4">
        <span className="text-3xl font-bold text-slate-900">{plan.price}</span>
        {plan.period && <span className="ml-1 block text-sm text-slate-600">{plan.period}</span>}
      </p>
      <ul className="mt-6 flex flex-1 flex-col gap-2 text-sm text-slate-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 h-4 w-4 shrink-0 text-brand" fill="currentColor">
              <path d="M7.6 13.2 4.4 10l-1.1 1.1 4.3 4.3 9-9-1.1-1.1z" />
            </svg>
            {feature}
          </li>
        ))}
      </ul>
      <Link href={plan.cta.href} className={`mt-6 ${plan.highlight ? 'button-primary' : 'button-secondary'}`}>
        {plan.cta.label}
      </Link>
    </li>
  );
}
