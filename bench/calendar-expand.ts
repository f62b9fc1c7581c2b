import { DateTime } from 'luxon';
import { expandSeries } from '@/lib/events/occurrences';
import { buildRRule, type RepeatType, type Series } from '@/lib/events/recurrence';

const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Europe/London'];
const types: RepeatType[] = ['daily', 'weekly', 'monthly', 'annually', 'weekdays'];
const series: Series[] = Array.from({ length: 1000 }, (_, i) => {
  const zone = zones[i % zones.length]!;
  const start = DateTime.now().setZone(zone).minus({ days: i % 365 }).set({ hour: 8 + (i % 10), minute: 0, second: 0, millisecond: 0 }).toJSDate();
  return { start, timezone: zone, durationMinutes: 30, rrule: buildRRule(types[i % types.length]!, start, zone) };
});

function month(offset: number) {
  const from = DateTime.now().startOf('month').plus({ months: offset });
  return [from.toJSDate(), from.plus({ months: 1 }).toJSDate()] as const;
}

const runs: number[] = [];
let count = 0;
for (let i = 0; i < 30; i += 1) {
  const [from, to] = month(i % 12);
  const t0 = performance.now();
  count = 0;
  for (const s of series) count += expandSeries(s, [], from, to).length;
  runs.push(performance.now() - t0);
}
runs.sort((a, b) => a - b);
const pct = (p: number) => runs[Math.min(runs.length - 1, Math.floor((p / 100) * runs.length))]!.toFixed(1);
console.table([{ case: 'expand a month, 1,000 series', occurrences: count, 'p50 ms': pct(50), 'p95 ms': pct(95), 'max ms': runs.at(-1)!.toFixed(1) }]);
