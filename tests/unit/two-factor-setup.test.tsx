/** @jest-environment jsdom */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { TwoFactorSetup } from '@/components/modals/TwoFactorSetup';
import { formatRecoveryCode, groupSecret } from '@/lib/auth/two-factor-format';
import en from '@/messages/en.json';

// Issue 33, point 7: the set-up offered only a QR code, and the recovery code looked exactly like
// an app code.
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

function answer(body: unknown) {
  return Promise.resolve({ ok: true, status: 200, json: () => Promise.resolve(body) } as Response);
}

function renderSetup(step: 1 | 2 | 3, onStep = jest.fn()) {
  return render(
    <NextIntlClientProvider locale="en" messages={en}>
      <TwoFactorSetup step={step} onStep={onStep} />
    </NextIntlClientProvider>,
  );
}

afterEach(() => jest.restoreAllMocks());

describe('formats', () => {
  it('groups the secret in fours and the recovery code with a dash', () => {
    expect(groupSecret('jbswy3dpehpk3pxp')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDEF')).toBe('ABCD EF');
    expect(formatRecoveryCode('012345')).toBe('012-345');
  });
});

describe('2FA set-up, step 1', () => {
  it('offers the key to type, grouped for reading, with a Copy button that copies it whole', async () => {
    const fetchMock = jest.fn(() => answer({ status: 'ok', qr: 'data:image/png;base64,iVBORw0KGgo=', secret: SECRET }));
    global.fetch = fetchMock as unknown as typeof fetch;
    const writeText = jest.fn(() => Promise.resolve());
    Object.assign(navigator, { clipboard: { writeText } });
    renderSetup(1);

    expect(await screen.findByRole('img', { name: en.AccountModal.qrAlt })).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toMatch(/^\/2fa\/g2f\/setup\?format=json/);
    fireEvent.click(screen.getByText(en.AccountModal.manualKeyToggle));
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: en.AccountModal.copyKey })));
    expect(writeText).toHaveBeenCalledWith(SECRET);
    expect(screen.getByRole('status')).toHaveTextContent(en.AccountModal.keyCopied);
  });
});

describe('2FA set-up, step 3', () => {
  // Issue 48, point 6: every code of the list, not only the first.
  it('shows every recovery code once, dashed and labelled in a box of its own', async () => {
    const codes = ['abcd2fgh3jkm', 'n4pq5rst6vwx', 'yz7890abcdef'];
    global.fetch = jest.fn((url: string) =>
      answer(url.includes('finish') ? { status: 'ok', recoveryCode: codes } : { status: 'ok' }),
    ) as unknown as typeof fetch;
    const onStep = jest.fn();
    const { rerender } = renderSetup(2, onStep);
    fireEvent.change(screen.getByLabelText(en.Login.code), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: en.Login.codeSubmit }));
    await waitFor(() => expect(onStep).toHaveBeenCalledWith(3));
    rerender(
      <NextIntlClientProvider locale="en" messages={en}>
        <TwoFactorSetup step={3} onStep={onStep} />
      </NextIntlClientProvider>,
    );
    const box = screen.getByRole('region', { name: en.AccountModal.recoveryLabel });
    const shown = screen.getAllByTestId('recovery-code');
    expect(shown.map((item) => item.textContent)).toEqual(['abcd-2fgh-3jkm', 'n4pq-5rst-6vwx', 'yz78-90ab-cdef']);
    for (const item of shown) expect(box).toContainElement(item);
    expect(en.AccountModal.recoveryLabel).toBe('Recovery codes — keep them somewhere safe');
  });
});
