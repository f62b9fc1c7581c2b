/** @jest-environment jsdom */
// The schedule wizard's last step says what guests will need (issue 48): a room with a password
// keeps it even when "No password" is picked, as the invitation mail says; a new password is
// named as one. The duration step offers 45 and 90 minutes and a custom length, checked.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { useState } from 'react';
import { AppContextProvider } from '@/components/AppContext';
import { StepReview } from '@/components/schedule/StepReview';
import { StepDetails } from '@/components/schedule/StepDetails';
import type { WizardData } from '@/components/schedule/types';
import { newDraft, stepErrors, draftOf, type Draft } from '@/lib/schedule/draft';
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import en from '@/messages/en.json';

// jsdom has no TextEncoder; the event schemas build one when they load (see new-meeting-room-password.test.tsx).
Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? NodeTextEncoder, TextDecoder: globalThis.TextDecoder ?? NodeTextDecoder });
let eventFields: typeof import('@/lib/events/schemas').eventFields;
beforeAll(async () => {
  ({ eventFields } = await import('@/lib/events/schemas'));
});

const s = en.Schedule;
const rooms = (hasPassword: boolean): WizardData['rooms'] => [{ id: 'r1', name: 'Board room', meetingId: 'm1', isDefault: true, hasPassword }];
const data = (hasPassword: boolean): WizardData => ({ timezone: 'UTC', ownEmail: 'ada@example.test', rooms: rooms(hasPassword), contacts: [], groups: [] });
const now = Date.UTC(2026, 2, 2, 8, 0);
const draft = (patch: Partial<Draft> = {}): Draft => ({ ...newDraft({ now, timezone: 'UTC', roomId: 'r1' }), ...patch });

function wrap(children: React.ReactNode) {
  return (
    <NextIntlClientProvider locale="en" messages={en} timeZone="UTC">
      <AppContextProvider value={{ brand: 'Enclave', user: null }}>{children}</AppContextProvider>
    </NextIntlClientProvider>
  );
}

function passwordRow(d: Draft, hasPassword: boolean) {
  render(wrap(<StepReview draft={d} data={data(hasPassword)} />));
  const term = screen.getByText(s.security, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

describe('the review names the password guests will need', () => {
  it('a room with a password, "No password" picked: the room keeps its password', () => {
    expect(passwordRow(draft({ passwordMode: 'none' }), true)).toBe(s.reviewPassword.room);
  });
  it('a room with a password kept for a custom meeting', () => {
    expect(passwordRow(draft({ passwordMode: 'custom', roomPassword: 'keep' }), true)).toBe(s.reviewPassword.room);
  });
  it('a new password for the room', () => {
    expect(passwordRow(draft({ passwordMode: 'custom', password: 'Secret-123', roomPassword: 'change' }), true)).toBe(s.reviewPassword.new);
  });
  it('a room without one and no password', () => {
    expect(passwordRow(draft({ passwordMode: 'none' }), false)).toBe(s.reviewPassword.none);
  });
});

describe('durations: 45 and 90 minutes and a custom length', () => {
  function Details({ initial }: { initial: Draft }) {
    const [d, setD] = useState(initial);
    const errors = stepErrors(0, d, { now, ownEmail: 'ada@example.test', roomHasPassword: false });
    return (
      <>
        <StepDetails draft={d} errors={errors} onChange={(patch) => setD((old) => ({ ...old, ...patch }))} />
        <output data-testid="duration">{d.duration}</output>
      </>
    );
  }

  it('offers 45 and 90 minutes', () => {
    render(wrap(<Details initial={draft()} />));
    const select = screen.getByLabelText(s.duration);
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual(['10 minutes', '15 minutes', '30 minutes', '45 minutes', '1 hour', '90 minutes', '2 hours', s.durationCustom]);
    fireEvent.change(select, { target: { value: '1:30' } });
    expect(screen.getByTestId('duration').textContent).toBe('1:30');
  });

  it('a custom length in minutes, refused when not from 1 to 720', () => {
    render(wrap(<Details initial={draft()} />));
    fireEvent.change(screen.getByLabelText(s.duration), { target: { value: 'custom' } });
    const minutes = screen.getByLabelText(s.durationMinutes);
    fireEvent.change(minutes, { target: { value: '135' } });
    expect(screen.getByTestId('duration').textContent).toBe('2:15');
    expect(screen.getByText('2 h 15 min')).toBeTruthy();
    for (const bad of ['0', '-5', '721', '1.5', '']) {
      fireEvent.change(minutes, { target: { value: bad } });
      expect(screen.getByRole('alert').textContent).toBe(s.durationInvalid.replace('{max}', '720'));
    }
  });

  it('the server takes the same lengths and refuses others', () => {
    for (const ok of ['0:10', '0:45', '1:30', '2:15', '12:00', '0:01']) expect(eventFields.duration.safeParse(ok).success).toBe(true);
    for (const bad of ['0:00', '12:01', '0:60', '1:5', '90', '', '-1:00', 45]) expect(eventFields.duration.safeParse(bad).success).toBe(false);
  });

  it('an edited meeting keeps its custom length', () => {
    const event = {
      id: 'e',
      title: 'Weekly sync',
      description: null,
      from: now / 1000 + 3600,
      duration: '1:40',
      timezone: 'UTC',
      roomId: 'r1',
      passwordMode: 'none' as const,
      hasPassword: false,
      attendees: [],
      groups: [],
      showAttendees: false,
      repeatType: 'none',
      repeatCustom: null,
      notifications: [],
    };
    expect(draftOf(event).duration).toBe('1:40');
  });
});
