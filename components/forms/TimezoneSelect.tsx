'use client';

import { useMemo } from 'react';

/** Every IANA time zone but the bare "UTC" (shown as Europe/London, SPEC point 4). */
export function TimezoneSelect({ id, value, onChange }: { id: string; value: string; onChange: (timezone: string) => void }) {
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC'), []);
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className="rounded-md border border-slate-300 bg-white px-3 py-2">
      {zones.map((zone) => (
        <option key={zone} value={zone}>
          {zone.replaceAll('_', ' ')}
        </option>
      ))}
    </select>
  );
}
