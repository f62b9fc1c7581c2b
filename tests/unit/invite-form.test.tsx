/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { InviteForm } from '@/components/registration/InviteForm';
import en from '@/messages/en.json';

// Issue 35: "Invite someone" posts one address and says what happened, in words.
const withMessages = (ui: React.ReactNode) =>
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      {ui}
    </NextIntlClientProvider>,
  );
const answering = (status: number, body: Record<string, unknown>) => {
  const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>(() =>
    Promise.resolve({ ok: status < 400, status, json: () => Promise.resolve(body) } as Response),
  );
  global.fetch = fetchMock as unknown as typeof fetch;
  return fetchMock;
};

afterEach(() => jest.restoreAllMocks());

describe('Invite someone', () => {
  it('is a labelled region whose field is labelled, and says where the invitation went', async () => {
    const fetchMock = answering(200, { status: 'ok' });
    withMessages(<InviteForm />);
    const region = screen.getByRole('region', { name: en.InviteSomeone.title });
    const field = screen.getByLabelText(en.InviteSomeone.email);
    expect(region).toContainElement(field);
    fireEvent.change(field, { target: { value: ' friend@example.org ' } });
    await act(async () => fireEvent.submit(field.closest('form')!));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/invitations');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'friend@example.org' });
    expect(screen.getByRole('status')).toHaveTextContent('Invitation sent to friend@example.org.');
    expect(field).toHaveValue('');
  });

  it('shows the refusal beside the field', async () => {
    answering(403, { status: 'error', errorCode: 'invitation_not_allowed' });
    withMessages(<InviteForm />);
    const field = screen.getByLabelText(en.InviteSomeone.email);
    fireEvent.change(field, { target: { value: 'friend@example.org' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: en.InviteSomeone.send })));
    expect(screen.getByRole('alert')).toHaveTextContent(en.Errors.invitation_not_allowed);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
