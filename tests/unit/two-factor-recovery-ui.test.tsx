/** @jest-environment jsdom */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { TwoFactorStep } from '@/components/auth/TwoFactorStep';
import { FirstAdminClaim } from '@/components/admin/FirstAdminClaim';
import en from '@/messages/en.json';

// Issue 48, points 5 and 6: a login with a recovery code (longer than six digits, letters) and
// the warning after it; the first-admin page claiming with the token of the link's fragment.

function answer(body: unknown) {
  return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(body) } as Response);
}

const withMessages = (children: React.ReactNode) => (
  <NextIntlClientProvider locale="en" messages={en}>
    {children}
  </NextIntlClientProvider>
);

afterEach(() => jest.restoreAllMocks());

describe('the login\u2019s second factor', () => {
  it('takes a recovery code as shown, then warns how many are left before going on', async () => {
    const fetchMock = jest.fn(() => answer({ status: 'ok', twoFactorRequired: false, recoveryCodesLeft: 2 }));
    global.fetch = fetchMock as unknown as typeof fetch;
    const onSuccess = jest.fn();
    render(withMessages(<TwoFactorStep onSuccess={onSuccess} onBack={jest.fn()} />));

    fireEvent.click(screen.getByRole('button', { name: en.Login.useRecoveryCode }));
    const field = screen.getByLabelText(en.Login.recoveryCode);
    // Not a recovery code: said so, nothing sent.
    fireEvent.change(field, { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: en.Login.codeSubmit }));
    expect(screen.getByRole('alert')).toHaveTextContent(en.Login.recoveryCodeShape);
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(field, { target: { value: 'ABCD-2FGH-3JKM' } });
    fireEvent.click(screen.getByRole('button', { name: en.Login.codeSubmit }));
    expect(await screen.findByRole('heading', { name: en.Login.recoveryUsedTitle })).toBeInTheDocument();
    expect(JSON.parse(String((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body))).toEqual({ code: 'ABCD-2FGH-3JKM' });
    expect(screen.getByRole('alert')).toHaveTextContent('2 recovery codes left.');
    expect(onSuccess).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: en.Login.continue }));
    expect(onSuccess).toHaveBeenCalled();
  });

  it('goes straight on after an app code', async () => {
    global.fetch = jest.fn(() => answer({ status: 'ok', twoFactorRequired: false })) as unknown as typeof fetch;
    const onSuccess = jest.fn();
    render(withMessages(<TwoFactorStep onSuccess={onSuccess} onBack={jest.fn()} />));
    fireEvent.change(screen.getByLabelText(en.Login.code), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: en.Login.codeSubmit }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
  });
});

describe('the first-admin page', () => {
  it('takes the token from the fragment, out of the address bar, and claims with it', async () => {
    window.history.replaceState(null, '', '/first-admin#the-token-of-the-log');
    const fetchMock = jest.fn(() => answer({ status: 'ok' }));
    global.fetch = fetchMock as unknown as typeof fetch;
    render(withMessages(<FirstAdminClaim loggedIn alreadyAdmin={false} />));
    fireEvent.click(await screen.findByRole('button', { name: en.FirstAdmin.claim }));
    expect(await screen.findByRole('status')).toHaveTextContent(en.FirstAdmin.done);
    expect(window.location.hash).toBe('');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect([url, JSON.parse(String(init.body))]).toEqual(['/api/first-admin', { token: 'the-token-of-the-log' }]);
  });

  it('says so when the link is refused', async () => {
    window.history.replaceState(null, '', '/first-admin#a-spent-token');
    global.fetch = jest.fn(() => answer({ status: 'error', errorCode: 'incorrect_data', field: 'token' })) as unknown as typeof fetch;
    render(withMessages(<FirstAdminClaim loggedIn alreadyAdmin={false} />));
    fireEvent.click(await screen.findByRole('button', { name: en.FirstAdmin.claim }));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.FirstAdmin.refused);
  });
});
