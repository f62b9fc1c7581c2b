/** Label–value pairs in two aligned columns (the billing object, the account summary). */
export function Facts({ rows, className = '' }: { rows: [string, string][]; className?: string }) {
  return (
    <dl className={`grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm ${className}`}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
