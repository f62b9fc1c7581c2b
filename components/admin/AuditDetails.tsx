import type { AuditLine } from '@/lib/admin/audit-details';

/** An audit entry's details as a list of "field: before → after" (issue 33, point 11). */
export function AuditDetails({ lines, changedTo }: { lines: AuditLine[]; changedTo: string }) {
  if (lines.length === 0) return null;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
      {lines.map((line) => (
        <div key={line.key} className="contents">
          <dt className="font-medium text-slate-600">{line.label}</dt>
          <dd className="break-all">
            {line.kind === 'change' ? (
              <>
                <span className="text-slate-500">{line.before}</span>
                <span aria-hidden="true"> → </span>
                <span className="sr-only"> {changedTo} </span>
                <span className="font-medium">{line.after}</span>
              </>
            ) : (
              line.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
