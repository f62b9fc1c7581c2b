'use client';

import type { OccurrenceView } from '@/lib/events/views/occurrence';
import { colorOf, DEFAULT_COLOR } from '@/lib/colors';
import { useEventTitle } from '@/components/time/useEventTitle';
import { useCalendarFormat } from './useCalendarFormat';

/** A meeting in a calendar view: its time and title; opens its details. */
export function OccurrenceButton({
  occurrence,
  timeZone,
  onOpen,
  className = '',
}: {
  occurrence: OccurrenceView;
  timeZone: string;
  onOpen: (occurrence: OccurrenceView) => void;
  className?: string;
}) {
  const format = useCalendarFormat(timeZone);
  const title = useEventTitle();
  return (
    <button
      type="button"
      onClick={() => onOpen(occurrence)}
      style={{ borderLeftColor: colorOf(occurrence.room?.color ?? DEFAULT_COLOR) }}
      className={`overflow-hidden rounded border-l-4 bg-sky-50 px-1.5 py-0.5 text-left text-xs leading-tight text-slate-900 hover:bg-sky-100 ${occurrence.isPast ? 'opacity-60' : ''} ${className}`}
    >
      <span className="block font-medium">{format.time(occurrence.from)}</span>
      <span className="block truncate">{title(occurrence.title)}</span>
    </button>
  );
}
