/** @jest-environment jsdom */
// The room dialog offers "Calls in this room" (peer to peer or through the SFU) only on a server
// with an SFU (issue 48): without SFU_URLS every call is peer to peer, and a choice of routes that
// do not exist only confuses. The page learns it from sfuConfigured() (app/[locale]/(shell)/admin/page.tsx).
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import en from '@/messages/en.json';

Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? NodeTextEncoder, TextDecoder: globalThis.TextDecoder ?? NodeTextDecoder });
let RoomDialog: typeof import('@/components/rooms/RoomDialog').RoomDialog;
beforeAll(async () => {
  // jsdom has <dialog> but not its modal methods.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  ({ RoomDialog } = await import('@/components/rooms/RoomDialog'));
});

const apiPost = jest.fn(async (path: string, body: unknown) => ({ status: 'ok' as const, path, body }));
jest.mock('@/lib/api/browser', () => ({ apiPost: (path: string, body: unknown) => apiPost(path, body) }));
jest.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => undefined }) }));
jest.mock('@/components/toast/ToastProvider', () => ({ useToast: () => ({ success: () => undefined, error: () => undefined }) }));
jest.mock('@/lib/meeting/client/keys/room-password-store', () => ({
  passwordChange: async () => ({ fields: {}, settle: (): void => undefined }),
}));

const R = en.Rooms;
const room = {
  id: 'room-1',
  name: 'Board room',
  color: 3,
  createdAt: '2026-11-01T00:00:00.000Z',
  isDefault: false,
  adminName: 'Ada',
  adminEmail: 'ada@example.test',
  hasPassword: false,
  mediaRoute: 'sfu' as const,
  meetingId: 'meeting-1',
  link: 'http://localhost/now/meeting-1',
};

function renderDialog(sfu: boolean, edited?: typeof room) {
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      <RoomDialog room={edited} sfu={sfu} onClose={() => undefined} />
    </NextIntlClientProvider>,
  );
}

beforeEach(() => apiPost.mockClear());

it('a server with an SFU offers the three routes', () => {
  renderDialog(true);
  const group = screen.getByRole('group', { name: R.mediaRoute });
  expect(group.querySelectorAll('input[type=radio]')).toHaveLength(3);
  expect(screen.getByLabelText(R.mediaRouteSfu)).toBeTruthy();
});

it('a server without an SFU offers no route, and an edited room keeps the one it has (name filled in)', async () => {
  renderDialog(false, room);
  expect(screen.queryByRole('group', { name: R.mediaRoute })).toBeNull();
  expect(screen.queryByText(R.mediaRouteSfu)).toBeNull();
  expect(screen.queryByText(R.mediaRouteHint)).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: en.Manage.save }));
  await waitFor(() => expect(apiPost).toHaveBeenCalled());
  expect(apiPost.mock.calls[0]).toEqual(['/api/room/update', expect.objectContaining({ id: 'room-1', mediaRoute: 'sfu' })]);
});
