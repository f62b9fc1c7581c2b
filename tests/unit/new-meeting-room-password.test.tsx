/** @jest-environment jsdom */
// The new-meeting modal on a room that already has a password (issue 33): a generated or typed
// password replaces the room's only when the person chooses "change for everyone"; by default the
// room keeps its password and nothing is sent.
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import en from '@/messages/en.json';

// jsdom has no TextEncoder; the room schemas the modal imports build one when they load, so the
// modal is imported after it is given one.
Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? NodeTextEncoder, TextDecoder: globalThis.TextDecoder ?? NodeTextDecoder });
let ChooseRoom: typeof import('@/components/modals/new-meeting/ChooseRoom').ChooseRoom;
beforeAll(async () => {
  ({ ChooseRoom } = await import('@/components/modals/new-meeting/ChooseRoom'));
});

const apiPost = jest.fn(async (path: string, body: unknown) => ({ status: 'ok' as const, path, body }));
jest.mock('@/lib/api/browser', () => ({ apiPost: (path: string, body: unknown) => apiPost(path, body) }));
jest.mock('@/lib/i18n/links', () => ({ useRouter: () => ({ push: () => undefined }) }));
jest.mock('@/lib/meeting/client/keys/room-password-store', () => ({
  passwordChange: async (password: string | null | undefined) =>
    password
      ? { fields: { passwordProof: `proof:${password}`, passwordSalt: 'salt' }, settle: (): void => undefined }
      : { fields: {}, settle: (): void => undefined },
}));

const room = {
  id: 'room-1',
  name: 'Board room',
  color: 19,
  createdAt: '2026-11-01T00:00:00.000Z',
  isDefault: true,
  adminName: 'Ada',
  adminEmail: 'ada@example.test',
  hasPassword: true,
  mediaRoute: 'auto' as const,
  meetingId: 'meeting-1',
  link: 'http://localhost/now/meeting-1',
};

function renderChooseRoom() {
  const onReady = jest.fn();
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      <ChooseRoom rooms={[room]} onReady={onReady} close={() => undefined} />
    </NextIntlClientProvider>,
  );
  return onReady;
}

const m = en.NewMeeting;
const legend = m.roomPassword.legend.replace('{room}', 'Board room');

beforeEach(() => apiPost.mockClear());

test('a generated password on a room with one: the room keeps its own unless told otherwise', async () => {
  const onReady = renderChooseRoom();
  fireEvent.click(screen.getByLabelText(m.securityOption.generated));
  expect(screen.getByRole('group', { name: legend })).toBeTruthy();
  expect(screen.getByLabelText<HTMLInputElement>(m.roomPassword.keep).checked).toBe(true);
  expect(screen.getByLabelText<HTMLInputElement>(m.password).disabled).toBe(true);
  fireEvent.click(screen.getByRole('button', { name: m.next }));
  await waitFor(() => expect(onReady).toHaveBeenCalledWith({ room: { ...room, hasPassword: true }, password: null }));
  expect(apiPost).not.toHaveBeenCalled();
});

test('"change for everyone" sends the new password and shows it', async () => {
  const onReady = renderChooseRoom();
  fireEvent.click(screen.getByLabelText(m.securityOption.generated));
  fireEvent.click(screen.getByLabelText(m.roomPassword.change));
  const field = screen.getByLabelText<HTMLInputElement>(m.password);
  expect(field.disabled).toBe(false);
  expect(field.value).toMatch(/^\S{16}$/);
  fireEvent.click(screen.getByRole('button', { name: m.next }));
  await waitFor(() => expect(onReady).toHaveBeenCalledWith({ room: { ...room, hasPassword: true }, password: field.value }));
  expect(apiPost).toHaveBeenCalledWith('/api/room/update', { id: 'room-1', passwordProof: `proof:${field.value}`, passwordSalt: 'salt' });
});

test('no password: the question is not asked', () => {
  renderChooseRoom();
  fireEvent.click(screen.getByLabelText(m.securityOption.none));
  expect(screen.queryByRole('group', { name: legend })).toBeNull();
});
