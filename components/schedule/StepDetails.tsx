'use client';

import { useId, useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { DEFAULT_TITLE, DURATION_MAX_MINUTES, durationMinutes, durations } from '@/lib/event-rules/limits';
import { formatDuration } from '@/lib/event-rules/duration';
import { formatClock, parseClock, roundUpToFive } from '@/lib/time/zoned';
import { formatMinutesOfDay, zoneName } from '@/lib/time/clock';
import { useEventTitle } from '@/components/time/useEventTitle';
import { Field } from '@/components/forms/Field';
import { SelectField } from '@/components/forms/SelectField';
import { TextAreaField } from '@/components/forms/TextAreaField';
import { useErrorText } from '@/components/forms/useErrorText';
import type { StepProps } from './types';
import { useDurationText } from './useDurationText';
import { LazyDialog, lazyComponent } from '@/components/dialog/lazy';

// The zone picker (every IANA zone with its offset) loads when opened.
const TimezonePickerDialog = lazyComponent(() => import('./TimezonePickerDialog').then((m) => m.TimezonePickerDialog));

/** The duration select's value for "another length", typed in minutes. */
const CUSTOM = 'custom';

/** Typed minutes as h:mm, or '' (which the step's check refuses) unless a whole number from 1 to the maximum. */
function durationFromMinutes(text: string): string {
  const minutes = /^\d{1,4}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  return minutes >= 1 && minutes <= DURATION_MAX_MINUTES ? formatDuration(minutes) : '';
}

/** Step 0: name, description, day, start (rounded up to 5 minutes), duration and time zone. */
export function StepDetails({ draft, errors, onChange }: StepProps) {
  const t = useTranslations('Schedule');
  const errorText = useErrorText();
  const locale = useLocale();
  const title = useEventTitle();
  const [picking, setPicking] = useState(false);
  const zoneId = useId();
  // What is being typed into the time field; applied rounded up to 5 minutes once complete (SPEC point 5).
  const [typing, setTyping] = useState<string | null>(null);
  const durationText = useDurationText();
  const preset = (durations as readonly string[]).includes(draft.duration);
  // The minutes typed for a custom length; shown from the draft when it already has one.
  const [customMinutes, setCustomMinutes] = useState<string | null>(preset ? null : draft.duration ? String(durationMinutes(draft.duration)) : '');
  const custom = customMinutes !== null;

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <Field
          label={t('name')}
          placeholder={title(DEFAULT_TITLE)}
          hint={t('nameHint')}
          maxLength={200}
          value={draft.title}
          error={errors.title}
          onChange={(e) => onChange({ title: e.target.value })}
        />
      </div>
      <Field label={t('date')} type="date" required value={draft.date} onChange={(e) => e.target.value && onChange({ date: e.target.value })} />
      <Field
        label={t('startTime')}
        type="time"
        step={300}
        required
        value={typing ?? formatClock(draft.time)}
        // The browser draws the field in its own language; the hint is the interface's clock.
        hint={t('startTimeHint', { time: formatMinutesOfDay(draft.time, locale) })}
        error={errors.time}
        onChange={(e) => {
          setTyping(e.target.value);
          const minutes = parseClock(e.target.value);
          if (minutes !== null) onChange({ time: Math.min(roundUpToFive(minutes), 23 * 60 + 55) });
        }}
        onBlur={() => setTyping(null)}
      />
      <SelectField
        label={t('duration')}
        value={custom ? CUSTOM : draft.duration}
        onChange={(e) => {
          if (e.target.value === CUSTOM) {
            setCustomMinutes(String(durationMinutes(draft.duration) || ''));
            return;
          }
          setCustomMinutes(null);
          onChange({ duration: e.target.value });
        }}
      >
        {durations.map((duration) => (
          <option key={duration} value={duration}>
            {durationText(duration)}
          </option>
        ))}
        <option value={CUSTOM}>{t('durationCustom')}</option>
      </SelectField>
      {custom && (
        <Field
          label={t('durationMinutes')}
          type="number"
          inputMode="numeric"
          min={1}
          max={DURATION_MAX_MINUTES}
          step={1}
          required
          value={customMinutes}
          hint={draft.duration ? durationText(draft.duration) : undefined}
          error={errors.duration ? t('durationInvalid', { max: DURATION_MAX_MINUTES }) : undefined}
          onChange={(e) => {
            setCustomMinutes(e.target.value);
            onChange({ duration: durationFromMinutes(e.target.value) });
          }}
        />
      )}
      <div className="flex flex-col gap-1">
        <span id={zoneId} className="text-sm font-medium text-slate-700">
          {t('timezone')}
        </span>
        <button type="button" aria-describedby={zoneId} className="button-secondary justify-between" onClick={() => setPicking(true)}>
          {zoneName(draft.timezone)}
          <span aria-hidden="true">▾</span>
        </button>
      </div>
      <TextAreaField
        label={t('description')}
        className="sm:col-span-2"
        maxLength={5000}
        value={draft.description}
        onChange={(e) => onChange({ description: e.target.value })}
      />
      {errors.timezone && (
        <p role="alert" className="text-sm text-red-700">
          {errorText(errors.timezone)}
        </p>
      )}
      {picking && (
        <LazyDialog>
          <TimezonePickerDialog
            value={draft.timezone}
            onChoose={(timezone) => {
              onChange({ timezone });
              setPicking(false);
            }}
            onClose={() => setPicking(false)}
          />
        </LazyDialog>
      )}
    </div>
  );
}
