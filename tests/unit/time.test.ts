import { isCalendarDate, todayIn } from '@/lib/calendar/view-path';
import { formatOffset, isValidTimezone, listTimezones, normalizeTimezone, offsetMinutes } from '@/lib/time/timezones';
import { countryFromHeaders, regionForCountry } from '@/lib/location/region';

describe('SPEC point 4: time zones', () => {
  it('maps UTC, and an unset zone, to Europe/London', () => {
    expect(normalizeTimezone('UTC')).toBe('Europe/London');
    expect(normalizeTimezone('Etc/UTC')).toBe('Europe/London');
    expect(normalizeTimezone(null)).toBe('Europe/London');
    expect(normalizeTimezone('America/New_York')).toBe('America/New_York');
  });

  it('knows the offset on each side of a DST change', () => {
    expect(offsetMinutes('Europe/Berlin', new Date('2026-01-15T12:00:00Z'))).toBe(60);
    expect(offsetMinutes('Europe/Berlin', new Date('2026-07-15T12:00:00Z'))).toBe(120);
    expect(offsetMinutes('America/New_York', new Date('2026-07-15T12:00:00Z'))).toBe(-240);
    expect(offsetMinutes('Asia/Kolkata', new Date('2026-07-15T12:00:00Z'))).toBe(330);
  });

  it('formats offsets for the picker', () => {
    expect(formatOffset(330)).toBe('UTC+05:30');
    expect(formatOffset(-240)).toBe('UTC-04:00');
    expect(formatOffset(0)).toBe('UTC+00:00');
  });

  it('lists IANA zones sorted by offset, without the bare UTC', () => {
    const zones = listTimezones(new Date('2026-01-15T12:00:00Z'));
    expect(zones.length).toBeGreaterThan(300);
    expect(zones.find((z) => z.id === 'UTC')).toBeUndefined();
    expect(zones.find((z) => z.id === 'Europe/Berlin')).toEqual({
      id: 'Europe/Berlin',
      offset: 60,
      label: '(UTC+01:00) Europe/Berlin',
    });
    const offsets = zones.map((z) => z.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it('validates zone names', () => {
    expect(isValidTimezone('Europe/Bratislava')).toBe(true);
    expect(isValidTimezone('Mars/Olympus')).toBe(false);
  });
});

describe('SPEC point 2: calendar dates are YYYY-MM-DD', () => {
  it.each([
    ['2026-11-22', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
    ['today', false],
  ])('%s → %s', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });

  it('today depends on the time zone', () => {
    const instant = new Date('2026-11-22T23:30:00Z');
    expect(todayIn('Europe/London', instant)).toBe('2026-11-22');
    expect(todayIn('Europe/Berlin', instant)).toBe('2026-11-23');
    expect(todayIn('America/Los_Angeles', instant)).toBe('2026-11-22');
  });
});

describe('SPEC point 1: server regions', () => {
  it.each([
    ['US', 'na'],
    ['CA', 'ca'],
    ['DE', 'eu'],
    ['sk', 'eu'],
    ['JP', 'ot'],
    [null, 'ot'],
  ])('%s → %s', (country, region) => {
    expect(regionForCountry(country)).toBe(region);
  });

  it('reads the country from CDN headers, ignoring unknown values', () => {
    expect(countryFromHeaders(new Headers({ 'cf-ipcountry': 'de' }))).toBe('DE');
    expect(countryFromHeaders(new Headers({ 'cf-ipcountry': 'XX' }))).toBeNull();
    expect(countryFromHeaders(new Headers({ 'x-vercel-ip-country': 'US' }))).toBe('US');
    expect(countryFromHeaders(new Headers({ 'cf-ipcountry': '<script>' }))).toBeNull();
    expect(countryFromHeaders(new Headers())).toBeNull();
  });
});
