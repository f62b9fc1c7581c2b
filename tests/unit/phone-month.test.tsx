/** @jest-environment jsdom */
// The phone's month grid (components/calendar/PhoneViews.tsx): one Tab stop for the 42 days, the
// arrow keys move the chosen day and the focus, as in a date picker (issue 33).
import { fireEvent, render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { monthGridStep, PhoneMonth } from '@/components/calendar/PhoneViews';
import en from '@/messages/en.json';

jest.mock('@/lib/i18n/links', () => ({
  Link: ({ href, children, ...rest }: { href: string; children: React.ReactNode }) => (
    <a href={href} {...rest}>
      {children}
    </a>
  ),
}));

// The six weeks the month view of November 2026 shows (Monday 26 October to Sunday 6 December).
const days = Array.from({ length: 42 }, (_, index) => new Date(Date.UTC(2026, 9, 26 + index)).toISOString().slice(0, 10));

function renderMonth(date = '2026-11-11') {
  render(
    <NextIntlClientProvider locale="en" messages={en} timeZone="UTC">
      <PhoneMonth days={days} month="2026-11" date={date} today="2026-11-27" timeZone="UTC" occurrences={[]} onOpen={() => undefined} />
    </NextIntlClientProvider>,
  );
}

const dayButtons = () => screen.getAllByRole('button').filter((button) => button.hasAttribute('aria-pressed'));
const heading = () => screen.getByRole('heading', { level: 2 }).textContent ?? '';
const chosen = () => dayButtons().find((button) => button.getAttribute('aria-pressed') === 'true')!;

test('the grid is one Tab stop: only the chosen day is tabbable', () => {
  renderMonth();
  expect(dayButtons()).toHaveLength(42);
  expect(dayButtons().filter((button) => button.tabIndex === 0)).toEqual([chosen()]);
  expect(chosen().getAttribute('aria-label')).toContain('11');
});

test('arrow keys, Home and End move the chosen day and the focus', () => {
  renderMonth();
  const press = (key: string) => fireEvent.keyDown(document.activeElement ?? chosen(), { key });
  chosen().focus();
  press('ArrowRight');
  expect(chosen()).toBe(document.activeElement);
  expect(heading()).toContain('November 12');
  press('ArrowDown');
  expect(heading()).toContain('November 19');
  press('ArrowUp');
  press('ArrowLeft');
  expect(heading()).toContain('November 11');
  press('End');
  expect(heading()).toContain('November 15');
  press('Home');
  expect(heading()).toContain('November 9');
  expect(dayButtons().filter((button) => button.tabIndex === 0)).toEqual([document.activeElement]);
});

test('the step stays inside the 42 days', () => {
  expect(monthGridStep('ArrowLeft', 0, 42)).toBe(0);
  expect(monthGridStep('ArrowUp', 3, 42)).toBe(0);
  expect(monthGridStep('ArrowDown', 40, 42)).toBe(41);
  expect(monthGridStep('End', 8, 42)).toBe(13);
  expect(monthGridStep('Home', 13, 42)).toBe(7);
  expect(monthGridStep('Enter', 5, 42)).toBeNull();
});
