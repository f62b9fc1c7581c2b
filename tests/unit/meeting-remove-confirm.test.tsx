/** @jest-environment jsdom */
// Issue 48 point 7: removing a participant sat right under "Mute" and acted at once. Now "Remove"
// only asks; a labelled, focus-trapping dialog says what it does, and only its button removes.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { HostActions } from '@/components/meeting/call/HostActions';
import { RemoveParticipantDialog } from '@/components/meeting/call/RemoveParticipantDialog';
import type { MeetingSession, RemotePeer } from '@/lib/meeting/client/call/session';
import en from '@/messages/en.json';
import de from '@/messages/de.json';

// jsdom has <dialog> but not its modal methods.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

const m = en.Meeting;
const bob = { id: 'b', name: 'Bob' } as RemotePeer;

describe('removing a participant asks first', () => {
  it('"Remove" in the host actions removes nobody: it asks the call view to confirm', () => {
    const hostAction = jest.fn(async () => 200);
    const onRemove = jest.fn();
    render(
      <NextIntlClientProvider locale="en" messages={en}>
        <HostActions session={{ hostAction } as unknown as MeetingSession} peer={bob} onRemove={onRemove} />
      </NextIntlClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: m.remove.replace('{name}', 'Bob') }));
    expect(hostAction).not.toHaveBeenCalled();
    expect(onRemove).toHaveBeenCalledWith(bob);
    // Mute still acts at once.
    fireEvent.click(screen.getByRole('button', { name: m.muteParticipant.replace('{name}', 'Bob') }));
    expect(hostAction).toHaveBeenCalledWith('mute', 'b');
  });

  it('the dialog is labelled by its question; Cancel and Escape keep the participant, its button removes', async () => {
    const onConfirm = jest.fn(async () => 200);
    const onClose = jest.fn();
    render(
      <NextIntlClientProvider locale="en" messages={en}>
        <RemoveParticipantDialog name="Bob" onConfirm={onConfirm} onClose={onClose} />
      </NextIntlClientProvider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Remove Bob?' });
    expect(dialog).toHaveTextContent(m.removeConfirm.text.replaceAll('{name}', 'Bob'));
    fireEvent.click(screen.getByRole('button', { name: m.cancel }));
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: m.removeConfirm.confirm }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(3));
  });

  it('Tab from its last button comes back to its first control: focus stays in the dialog', () => {
    render(
      <NextIntlClientProvider locale="en" messages={en}>
        <RemoveParticipantDialog name="Bob" onConfirm={async () => undefined} onClose={() => undefined} />
      </NextIntlClientProvider>,
    );
    const dialog = screen.getByRole('dialog');
    const buttons = screen.getAllByRole('button');
    const last = buttons[buttons.length - 1]!;
    last.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(buttons[0]);
  });

  it('speaks German in German', () => {
    render(
      <NextIntlClientProvider locale="de" messages={de}>
        <RemoveParticipantDialog name="Bob" onConfirm={async () => undefined} onClose={() => undefined} />
      </NextIntlClientProvider>,
    );
    expect(screen.getByRole('dialog', { name: 'Bob entfernen?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: de.Meeting.removeConfirm.confirm })).toBeInTheDocument();
  });
});
