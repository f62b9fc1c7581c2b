/** @jest-environment jsdom */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { CardLinkRequest } from '@/components/auth/CardLogin';
import { ResendActivation } from '@/components/auth/ResendActivation';
import { localeOptionLabel, locales } from '@/lib/i18n/locales';
import en from '@/messages/en.json';

// Issue 33, point 10: the account pages' missing resend link, the unexplained meeting card, and
// emoji flags that Windows and Linux without an emoji font cannot draw.
const withMessages = (ui: React.ReactNode) =>
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      {ui}
    </NextIntlClientProvider>,
  );

afterEach(() => jest.restoreAllMocks());

describe('"Check your inbox": send the activation mail again', () => {
  it('posts the registered address to /invitation once, says so, and rests the button', async () => {
    const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>(() =>
      Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve({ status: 'ok', errorCode: 'email_sent' }) } as Response),
    );
    global.fetch = fetchMock as unknown as typeof fetch;
    withMessages(<ResendActivation email="new@example.com" />);
    expect(screen.getByText(en.Register.resendPrompt, { exact: false })).toBeInTheDocument();
    const button = screen.getByRole('button', { name: en.Register.resend });
    await act(async () => fireEvent.click(button));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/invitation');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'new@example.com' });
    expect(screen.getByRole('status')).toHaveTextContent(en.Register.resent);
    expect(button).toBeDisabled();
  });

  it("shows the server's refusal (too many attempts) and lets the person try later", async () => {
    global.fetch = jest.fn(() =>
      Promise.resolve({ ok: false, status: 429, json: () => Promise.resolve({ status: 'error', errorCode: 'too_many_attempts' }) } as Response),
    ) as unknown as typeof fetch;
    withMessages(<ResendActivation email="new@example.com" />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: en.Register.resend })));
    expect(screen.getByRole('alert')).toHaveTextContent(en.Errors.too_many_attempts);
    expect(screen.getByRole('button', { name: en.Register.resend })).toBeEnabled();
  });
});

describe('the meeting-card login option', () => {
  it('explains itself in one line while still closed', () => {
    withMessages(<CardLinkRequest />);
    const summary = screen.getByText(en.Login.cardTitle).closest('summary')!;
    expect(summary).toHaveTextContent(en.Login.cardExplain);
    expect(summary.closest('details')).not.toHaveAttribute('open');
  });
});

describe('the language selectors', () => {
  // Regional indicator symbols (U+1F1E6–U+1F1FF) are what emoji flags are made of.
  const flag = /[\u{1F1E6}-\u{1F1FF}]/u;

  it('name each language in its own script with its code, and no emoji', () => {
    expect(localeOptionLabel('de')).toBe('Deutsch (de)');
    expect(localeOptionLabel('zh-tw')).toBe('繁體中文 (zh-tw)');
    for (const code of locales) expect(localeOptionLabel(code)).not.toMatch(flag);
  });

  it('no component or library file draws an emoji flag', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(tsx?|json)$/.test(name)) files.push(full);
      }
    };
    for (const dir of ['components', 'lib', 'app', 'messages']) walk(path.join(process.cwd(), dir));
    expect(files.filter((file) => flag.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});
