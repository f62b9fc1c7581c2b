/** @jest-environment jsdom */
// A new e-mail waits for the link mailed to it (lib/account/email-change.ts): the account dialog
// says where the link went and that the old address stays until then.
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import { fireEvent, render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import en from '@/messages/en.json';

Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? NodeTextEncoder, TextDecoder: globalThis.TextDecoder ?? NodeTextDecoder });
let AccountModal: typeof import('@/components/modals/AccountModal').AccountModal;
beforeAll(async () => {
  // jsdom has <dialog> but not its modal methods.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  ({ AccountModal } = await import('@/components/modals/AccountModal'));
});

const profile = {
  email: 'old@example.test',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: null,
  avatar: null,
  user2FA: { has2FA: false },
  enable2fa: false,
  enableMCard: false,
  account: {
    type: null,
    billingOn: false,
    isTrial: false,
    trialEndsAt: null,
    billingAmountCents: 0,
    currency: null,
    roomsAvailable: null,
    rooms: null,
    attendeesSaved: 0,
    nextBillingDate: null,
    owner: { name: 'Ada Lovelace', email: 'old@example.test' },
  },
};
const apiPost = jest.fn(async (path: string, body: Record<string, string>) => ({ status: 'ok', errorCode: 'success', emailPending: body.email, path }));
jest.mock('@/lib/api/browser', () => ({
  apiGet: async () => profile,
  apiPost: (path: string, body: Record<string, string>) => apiPost(path, body),
}));
jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => undefined, push: () => undefined }) }));
jest.mock('@/components/toast/ToastProvider', () => ({ useToast: () => ({ success: () => undefined, error: () => undefined }) }));

it('tells where the confirmation link went and that the old address stays until then', async () => {
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      <AccountModal close={() => undefined} />
    </NextIntlClientProvider>,
  );
  const email = await screen.findByLabelText(en.Forms.email);
  expect(screen.queryByText(/confirmation link/)).toBeNull();
  fireEvent.change(email, { target: { value: 'new@example.test' } });
  fireEvent.change(screen.getByLabelText(en.AccountModal.oldPassword), { target: { value: 'Current-Pass-1' } });
  fireEvent.click(screen.getByRole('button', { name: en.AccountModal.save }));
  const notice = await screen.findByText(/confirmation link/);
  expect(notice).toHaveAttribute('role', 'status');
  expect(notice).toHaveTextContent(
    'We sent a confirmation link to new@example.test. Your account keeps the address old@example.test until you open that link.',
  );
  expect(apiPost).toHaveBeenCalledWith('/api/me', expect.objectContaining({ email: 'new@example.test', oldPassword: 'Current-Pass-1' }));
});
