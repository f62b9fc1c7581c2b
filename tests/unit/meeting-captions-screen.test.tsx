/** @jest-environment jsdom */
// Issue 49 point 4: the "Captions" dialog as a person uses it, on a real Captions store driven by
// the test's stand-in recogniser — the plain "unavailable" (a disabled control with its reason),
// starting and stopping, the viewer's own on/off, and the transcript only for the host.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import CaptionsDialog from '@/components/meeting/features/captions/CaptionsDialog';
import TileCaption from '@/components/meeting/features/captions/TileCaption';
import { Captions } from '@/lib/meeting/client/captions/captions';
import type { EngineAvailability } from '@/lib/meeting/client/captions/engine';
import { StandInEngine } from '@/lib/meeting/client/captions/stand-in-engine';
import en from '@/messages/en.json';
import { fanOut } from '../support/feature-context';

const c = en.Captions;

beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

async function page(availability: EngineAvailability, isHost = false) {
  const engine = new StandInEngine(availability);
  const sent: unknown[] = [];
  const captions = new Captions(
    fanOut({
      selfId: 'me',
      peers: () => [{ id: 'bo', name: 'Bo' }],
      send: (_to, message) => (sent.push(message), true),
      microphone: () => null,
      muted: () => false,
      language: 'en-US',
      engine,
    }),
  );
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      <CaptionsDialog captions={captions} isHost={isHost} selfName="Ada" onClose={() => undefined} />
      <figure data-testid="bo-tile">
        <TileCaption captions={captions} participantId="bo" />
      </figure>
    </NextIntlClientProvider>,
  );
  await act(async () => undefined);
  return { captions, engine, sent, dialog: screen.getByRole('dialog', { name: c.title }) };
}

describe('the "Captions" dialog', () => {
  it('says plainly when recognition on this device is unavailable: the control is disabled and says why', async () => {
    const { dialog, engine } = await page('unavailable');
    const start = within(dialog).getByRole('button', { name: c.start });
    expect(start).toBeDisabled();
    const reason = c.unavailable.replace('{language}', 'English');
    expect(start).toHaveAccessibleDescription(reason);
    expect(within(dialog).getByRole('status')).toHaveTextContent(reason);
    expect(engine.starts).toBe(0);
  });

  it('starts and stops captioning our microphone; the language cannot change while it runs', async () => {
    const { dialog, engine, sent } = await page('available');
    await act(async () => void fireEvent.click(within(dialog).getByRole('button', { name: c.start })));
    const stop = within(dialog).getByRole('button', { name: c.stop });
    expect(stop).toHaveAttribute('aria-pressed', 'true');
    expect(within(dialog).getByRole('status')).toHaveTextContent(c.on);
    expect(within(dialog).getByLabelText(c.language)).toBeDisabled();
    act(() => void engine.say('Hello Bo'));
    expect(sent).toContainEqual({ t: 'caption-line', n: 0, final: true, lang: 'en-US', text: 'Hello Bo' });
    fireEvent.click(stop);
    expect(sent.at(-1)).toEqual({ t: 'caption-off' });
    expect(within(dialog).getByRole('status')).toHaveTextContent(c.ready);
  });

  it('shows a peer’s caption under their tile until this viewer turns captions off', async () => {
    const { captions, dialog } = await page('available');
    act(() => captions.receive('bo', { t: 'caption-line', n: 0, final: false, lang: 'de-DE', text: 'Guten Tag' }));
    const caption = within(screen.getByTestId('bo-tile')).getByTestId('caption');
    expect(caption).toHaveTextContent('Guten Tag');
    expect(caption).toHaveAttribute('lang', 'de-DE');
    fireEvent.click(within(dialog).getByLabelText(c.show));
    expect(within(screen.getByTestId('bo-tile')).queryByTestId('caption')).toBeNull();
  });

  it('offers the transcript to the host only, once there is a line', async () => {
    expect(within((await page('available')).dialog).queryByRole('button', { name: c.saveText })).toBeNull();
    document.body.innerHTML = '';
    const { captions, dialog } = await page('available', true);
    expect(within(dialog).getByRole('button', { name: c.saveVtt })).toBeDisabled();
    act(() => captions.receive('bo', { t: 'caption-line', n: 0, final: true, lang: 'en', text: 'Hi' }));
    expect(within(dialog).getByRole('button', { name: c.saveVtt })).toBeEnabled();
    expect(dialog).toHaveTextContent('1 line so far.');
  });
});
