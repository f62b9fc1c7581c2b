import type { useFormatter } from 'next-intl';

/** "640 kB", "49.6 MB": the language's own number and unit words (Intl units, no message keys). */
export function formatFileSize(format: ReturnType<typeof useFormatter>, bytes: number): string {
  const [value, unit] = bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'megabyte'] : [bytes / 1024, 'kilobyte'];
  return format.number(value, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 });
}
