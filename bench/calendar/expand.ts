// The pure expansion of lib/events: one month for a user with 1,000 recurring series, 30 runs
// over 12 different months (the first ones cold: rules not yet compiled, zone offsets not yet
// read). Wall time and the process's CPU time per run, as the machine may be shared.
import os from 'node:os';
import { DateTime } from 'luxon';
import { expandSeries } from '@/lib/recurrence/exceptions';
import { buildRRule } from '@/lib/recurrence/build-rule';
import type { Series } from '@/lib/recurrence/series';
import type { CustomRepeat, RepeatType } from '@/lib/event-rules/repeat';

const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Europe/London'];
const types: RepeatType[] = ['daily', 'weekly', 'monthly', 'annually', 'weekdays'];

function startOf(i: number, zone: string, maxDays: number) {
  return DateTime.now()
    .setZone(zone)
    .minus({ days: (i * 7919) % maxDays })
    .set({ hour: 8 + (i % 10), minute: 0, second: 0, millisecond: 0 })
    .toJSDate();
}

/** Every repeat type, started up to a year ago. */
const presets: Series[] = Array.from({ length: 1000 }, (_, i) => {
  const zone = zones[i % zones.length]!;
  const start = startOf(i, zone, 365);
  return { start, timezone: zone, durationMinutes: 30, rrule: buildRRule(types[i % types.length]!, start, zone) };
});

/** Custom rules (intervals, several weekdays, last weekday, last day), started up to 5 years ago; a third end after a COUNT, a third on an UNTIL. */
const customs: CustomRepeat[] = [
  { freq: 'daily', interval: 2 },
  { freq: 'weekly', interval: 1, weekdays: ['MO', 'WE', 'FR'] },
  { freq: 'weekly', interval: 2, weekdays: ['TU', 'TH'] },
  { freq: 'monthly', interval: 1, monthly: { mode: 'nth', n: -1, weekday: 'FR' } },
  { freq: 'monthly', interval: 1, monthly: { mode: 'day', day: -1 } },
  { freq: 'monthly', interval: 3, monthly: { mode: 'day', day: 31 } },
];
const custom: Series[] = Array.from({ length: 1000 }, (_, i) => {
  const zone = zones[i % zones.length]!;
  const start = startOf(i, zone, 5 * 365);
  const end: CustomRepeat['end'] =
    i % 3 === 0 ? { type: 'count', count: 2000 } : i % 3 === 1 ? { type: 'until', date: DateTime.now().plus({ years: 3 }).toISODate()! } : { type: 'never' };
  return { start, timezone: zone, durationMinutes: 30, rrule: buildRRule('custom', start, zone, { ...customs[i % customs.length]!, end }) };
});

function month(offset: number) {
  const from = DateTime.now().startOf('month').plus({ months: offset });
  return [from.toJSDate(), from.plus({ months: 1 }).toJSDate()] as const;
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(1);
};

function bench(name: string, series: Series[]) {
  const wall: number[] = [];
  const cpu: number[] = [];
  let count = 0;
  for (let i = 0; i < 30; i += 1) {
    const [from, to] = month(i % 12);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    count = 0;
    for (const s of series) count += expandSeries(s, [], from, to).length;
    const used = process.cpuUsage(c0);
    wall.push(performance.now() - t0);
    cpu.push((used.user + used.system) / 1000);
  }
  return {
    case: name,
    occurrences: count,
    'p50 ms': pct(wall, 50),
    'p95 ms': pct(wall, 95),
    'max ms': pct(wall, 100),
    'CPU p50 ms': pct(cpu, 50),
    'CPU p95 ms': pct(cpu, 95),
  };
}

console.log(
  `Node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.table([bench('expand a month, 1,000 series', presets), bench('custom rules, from up to 5 years ago', custom)]);
