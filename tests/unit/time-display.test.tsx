/** @jest-environment jsdom */
// One way to tell time (docs/decisions.md): the grid's hour labels and the meetings' times share
// the language's clock; the chat shows the account's zone, not the browser's; "(No Title)" is
// shown in the interface's language; the zone is named when it is not the browser's.
import { render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { AppContextProvider } from '@/components/AppContext';
import { TimeGrid } from '@/components/calendar/TimeGrid';
import { EventList } from '@/components/calendar/EventList';
import { ChatPanel } from '@/components/meeting/call/SidePanel';
import { ZoneNote } from '@/components/time/ZoneNote';
import type { ShellUser } from '@/lib/auth/shell-user';
import type { OccurrenceView } from '@/lib/events/views/occurrence';
import de from '@/messages/de.json';
import en from '@/messages/en.json';

let browser = 'UTC';
// The chat panel needs only the message limit of the meeting's session (which brings WebCrypto).
jest.mock('@/lib/meeting/client/call/session', () => ({ CHAT_MAX_LENGTH: 2000 }));
jest.mock('@/lib/time/clock', () => ({ ...jest.requireActual('@/lib/time/clock'), browserZone: () => browser }));

const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');
const user = (timezone: string | null): ShellUser => ({
  firstName: 'Ada',
  lastName: 'L',
  email: 'ada@example.test',
  enableMCard: false,
  isAdmin: false,
  needsBilling: false,
  trial: null,
  timezone,
  hasRoom: true,
});

type Locale = 'en' | 'de';

function wrap(children: React.ReactNode, { locale = 'en' as Locale, account = null as ShellUser | null } = {}) {
  return (
    <NextIntlClientProvider locale={locale} messages={locale === 'de' ? de : en} timeZone="Europe/London">
      <AppContextProvider value={{ brand: 'Enclave', user: account }}>{children}</AppContextProvider>
    </NextIntlClientProvider>
  );
}

// Monday 2 March 2026, 09:00 in London (GMT).
const nine = Date.UTC(2026, 2, 2, 9, 0) / 1000;
const meeting = (title: string): OccurrenceView => ({
  id: 'e1',
  eventId: 'e1',
  repeat: 'e1',
  repeatType: 'none',
  occurrence: nine,
  title,
  description: null,
  from: nine,
  to: nine + 1800,
  duration: '0:30',
  timezone: 'Europe/London',
  room: { id: 'r1', name: 'Main room', color: 1 },
  link: null,
  isException: false,
  isPast: false,
});

function grid(locale: Locale) {
  render(
    wrap(
      <TimeGrid
        days={['2026-03-02']}
        today="2026-03-02"
        timeZone="Europe/London"
        hours={{ from: 7, to: 12 }}
        occurrences={[meeting('Planning')]}
        onOpen={() => undefined}
      />,
      { locale },
    ),
  );
  const labels = [...document.querySelectorAll('[aria-hidden="true"] span')].map((span) => plain(span.textContent));
  const label = labels.find((text) => /^0?9:00/.test(text));
  const time = plain(screen.getByRole('button', { name: /Planning/ }).querySelector('span')?.textContent);
  return { label, time };
}

describe('the calendar grid', () => {
  it('writes hour labels and meeting times with one clock: 12-hour in English', () => {
    expect(grid('en')).toEqual({ label: '9:00 AM', time: '9:00 AM' });
  });

  it('and 24-hour in German', () => {
    expect(grid('de')).toEqual({ label: '09:00', time: '09:00' });
  });
});

describe('"(No Title)"', () => {
  it('is shown in the interface’s language; a title of its own is left alone', () => {
    render(
      wrap(
        <EventList
          days={['2026-03-02']}
          timeZone="Europe/London"
          occurrences={[meeting('(No Title)'), { ...meeting('Retro'), id: 'e2' }]}
          onOpen={() => undefined}
        />,
        { locale: 'de' },
      ),
    );
    // The list is drawn twice, as cards for a phone and as a table (CSS shows one): both are localized.
    expect(screen.getAllByRole('button', { name: '(Ohne Titel)' })).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: 'Retro' })).toHaveLength(2);
    expect(screen.queryByText('(No Title)')).toBeNull();
  });
});

describe('the chat', () => {
  beforeAll(() => {
    // jsdom lays nothing out and has no scrolling.
    Element.prototype.scrollTo = () => undefined;
  });
  const message = { id: 'm1', from: 'p2', name: 'Bob', text: 'Hello', at: Date.UTC(2026, 6, 1, 9, 0) };
  const chatTime = (account: ShellUser | null, locale: Locale = 'de') => {
    render(wrap(<ChatPanel messages={[message]} selfId="p1" onSend={() => undefined} onSendFile={() => undefined} />, { locale, account }));
    return plain(document.querySelector('time')?.textContent);
  };

  it('shows a logged-in person the account’s zone, not the browser’s', () => {
    browser = 'UTC';
    expect(chatTime(user('Asia/Tokyo'))).toBe('18:00');
    expect(screen.getByTestId('zone-note')).toHaveTextContent('Zeiten in Asia/Tokyo');
  });

  it('shows a guest the browser’s zone, with no note', () => {
    browser = 'America/New_York';
    expect(chatTime(null)).toBe('05:00');
    expect(screen.queryByTestId('zone-note')).toBeNull();
  });

  it('uses the language’s clock', () => {
    browser = 'UTC';
    expect(chatTime(user('Asia/Tokyo'), 'en')).toBe('6:00 PM');
  });
});

describe('the zone note', () => {
  it('names the account’s zone when the browser’s clock differs (Europe/London beside a browser in UTC)', () => {
    browser = 'UTC';
    render(wrap(<ZoneNote />, { account: user('Europe/London') }));
    expect(screen.getByTestId('zone-note')).toHaveTextContent('Times in Europe/London');
  });

  it('is absent when the browser is in the same zone', () => {
    browser = 'Europe/London';
    render(wrap(<ZoneNote />, { account: user('Europe/London') }));
    expect(screen.queryByTestId('zone-note')).toBeNull();
  });

  it('is absent when the zones keep the same clock all year', () => {
    browser = 'Europe/Paris';
    render(wrap(<ZoneNote zone="Europe/Berlin" />, { account: user('Europe/Berlin') }));
    expect(screen.queryByTestId('zone-note')).toBeNull();
  });
});
