/** @jest-environment jsdom */
// Issue 33: below md the call controls keep one row and the rest goes into a "More" menu that
// follows the menu button pattern: every control keeps its label and is reachable by keyboard.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CallToolbar } from '@/components/meeting/toolbar/CallToolbar';
import { InvitePanel } from '@/components/meeting/call/InvitePanel';
import { emojiSrc } from '@/components/meeting/ReactionEmoji';
import { REACTIONS } from '@/lib/meeting/client/call/peer-messages';
import { initialState, step, type SessionState } from '@/lib/meeting/client/call/machine';
import en from '@/messages/en.json';

const me = { id: 'm', name: 'Me', isHost: true };
function callState(): SessionState {
  let machine = initialState({
    self: me,
    local: { muted: false, cameraOff: false, sharing: false, hand: false, recording: false },
    camera: null,
    password: false,
  });
  machine = step(machine, { type: 'server', event: { type: 'welcome', self: me, participants: [me], locked: false }, at: 0 }).state;
  return machine.view;
}

function renderToolbar(
  handlers: Partial<Record<'onScreen' | 'onHand' | 'onReact' | 'onPanel' | 'onDevices' | 'onPip' | 'onPolls' | 'onWhiteboard' | 'onCaptions', jest.Mock>> = {},
  pollsWaiting = 0,
) {
  const noop = () => undefined;
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      <CallToolbar
        controls={{
          state: callState(),
          panel: null,
          recording: { supported: true, active: false, seconds: 0, toggle: async () => undefined },
          pip: { open: false, toggle: handlers.onPip ?? noop },
          mute: noop,
          camera: noop,
          screen: handlers.onScreen ?? noop,
          hand: handlers.onHand ?? noop,
          react: handlers.onReact ?? noop,
          copyLink: noop,
          togglePanel: handlers.onPanel ?? noop,
          devices: handlers.onDevices ?? noop,
          polls: { open: handlers.onPolls ?? noop, waiting: pollsWaiting },
          whiteboard: { open: false, toggle: handlers.onWhiteboard ?? noop },
          captions: { open: handlers.onCaptions ?? noop, on: false },
          breakout: noop,
          leave: noop,
        }}
      />
    </NextIntlClientProvider>,
  );
}

const m = en.Meeting;
/** The narrow screens' menu (below md) comes first; the second (md to lg) holds only what the bar has no room for there. */
const moreButton = (index = 0) => screen.getAllByRole('button', { name: m.moreOptions })[index]!;

describe('the call controls\' "More" menu', () => {
  it('opens from the keyboard on the first item, moves with the arrows and closes with Escape back on its button', () => {
    renderToolbar();
    const more = moreButton();
    expect(more).toHaveAttribute('aria-haspopup', 'menu');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    act(() => more.focus());
    fireEvent.keyDown(more, { key: 'ArrowDown' });
    const menu = screen.getByRole('menu', { name: m.moreOptions });
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(more).toHaveAttribute('aria-controls', menu.id);
    expect(document.activeElement).toBe(screen.getByRole('menuitemcheckbox', { name: m.shareScreen }));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(screen.getByRole('menuitemcheckbox', { name: m.raiseHand }));
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    // Wraps round to the last item: the last reaction.
    expect(document.activeElement).toHaveAccessibleName(/^React with /);
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(more);
  });

  it('holds every secondary control, labelled as in the bar, and runs the one chosen', () => {
    const onHand = jest.fn();
    const onReact = jest.fn();
    const onPanel = jest.fn();
    renderToolbar({ onHand, onReact, onPanel });
    fireEvent.click(moreButton());
    const names = [...screen.getByRole('menu').querySelectorAll('[role^="menuitem"]')].map((item) => item.getAttribute('aria-label') ?? item.textContent);
    // The host (me) also has breakout rooms there (components/meeting/features/breakout/BreakoutDialog.tsx).
    expect(names.slice(0, 11)).toEqual([
      m.shareScreen,
      m.raiseHand,
      m.startRecording,
      m.copyLink,
      m.people,
      m.pip.open,
      en.Polls.title,
      en.Whiteboard.title,
      en.Captions.title,
      m.devices.open,
      en.Breakout.title,
    ]);
    expect(names.slice(11).every((name) => name!.startsWith('React with '))).toBe(true);
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: m.raiseHand }));
    expect(onHand).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(moreButton());
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: m.people }));
    expect(onPanel).toHaveBeenCalledWith('people');
    fireEvent.click(moreButton());
    fireEvent.click(screen.getAllByRole('menuitem', { name: /^React with / })[0]!);
    expect(onReact).toHaveBeenCalledTimes(1);
  });

  it('between md and lg, a menu of its own holds picture-in-picture, polls, the whiteboard, captions and the device settings', () => {
    const onDevices = jest.fn();
    const onPip = jest.fn();
    const onWhiteboard = jest.fn();
    const onCaptions = jest.fn();
    renderToolbar({ onDevices, onPip, onWhiteboard, onCaptions });
    fireEvent.click(moreButton(1));
    const names = [...screen.getByRole('menu').querySelectorAll('[role^="menuitem"]')].map((item) => item.textContent);
    expect(names).toEqual([m.pip.open, en.Polls.title, en.Whiteboard.title, en.Captions.title, m.devices.open, en.Breakout.title]);
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: en.Whiteboard.title }));
    expect(onWhiteboard).toHaveBeenCalledTimes(1);
    fireEvent.click(moreButton(1));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: en.Captions.title }));
    expect(onCaptions).toHaveBeenCalledTimes(1);
    fireEvent.click(moreButton(1));
    fireEvent.click(screen.getByRole('menuitem', { name: m.devices.open }));
    expect(onDevices).toHaveBeenCalledTimes(1);
    fireEvent.click(moreButton(1));
    fireEvent.click(screen.getByRole('menuitemcheckbox', { name: m.pip.open }));
    expect(onPip).toHaveBeenCalledTimes(1);
  });

  it('"Polls" (issue 49) opens from the menu and its button, and the menus count the polls waiting for an answer', () => {
    const onPolls = jest.fn();
    renderToolbar({ onPolls }, 2);
    // The phone's menu counts the waiting polls on its button; the md–lg menu too.
    expect(moreButton(0).textContent).toContain('2');
    expect(moreButton(1).textContent).toContain('2');
    fireEvent.click(moreButton());
    fireEvent.click(screen.getByRole('menuitem', { name: en.Polls.title }));
    expect(onPolls).toHaveBeenCalledTimes(1);
    // From lg, a button of its own in the bar.
    fireEvent.click(screen.getAllByRole('button', { name: en.Polls.title }).at(-1)!);
    expect(onPolls).toHaveBeenCalledTimes(2);
  });

  it('Leave keeps its name when only its icon shows', () => {
    renderToolbar();
    expect(screen.getByRole('button', { name: m.leave })).toBeInTheDocument();
  });
});

describe("the bar's words and pictures (issue 48)", () => {
  const words = m.toolbarLabel;

  it('every round button in the bar has its short word under it, hidden from screen readers, and keeps its name', () => {
    renderToolbar();
    const nav = screen.getByRole('navigation', { name: m.controls });
    const pairs: [string, string][] = [
      [m.muteMicrophone, words.microphone],
      [m.turnCameraOff, words.camera],
      [m.shareScreen, words.screen],
      [m.raiseHand, words.hand],
      [m.react, words.react],
      [m.startRecording, words.record],
      [m.copyLink, words.link],
      [m.chat, words.chat],
      [m.people, words.people],
      [m.pip.open, words.pip],
      [m.devices.open, words.devices],
      [en.Polls.title, en.Polls.short],
      [en.Whiteboard.title, en.Whiteboard.short],
      [m.leave, words.leave],
    ];
    for (const [name, word] of pairs) {
      const button = [...nav.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === name);
      expect(button).toBeTruthy();
      const label = button!.nextElementSibling;
      expect(label?.textContent).toBe(word);
      expect(label).toHaveAttribute('aria-hidden', 'true');
      // From md up (768 px); below it the "More" menu names everything.
      expect(label).toHaveClass('hidden', 'md:block');
    }
    expect(nav.querySelectorAll('button[title]').length).toBeGreaterThanOrEqual(11);
  });

  it("reactions are drawn from this server's own pictures, not a font that may lack them", () => {
    renderToolbar();
    fireEvent.click(screen.getByRole('button', { name: m.react }));
    const buttons = screen.getAllByRole('button', { name: /^React with / });
    expect(buttons.length).toBe(REACTIONS.length);
    buttons.forEach((button, i) => {
      const picture = button.querySelector('img');
      expect(picture).toBeTruthy();
      expect(picture!.getAttribute('src')).toBe(emojiSrc(REACTIONS[i]!));
      expect(button.textContent).toBe('');
    });
    for (const emoji of REACTIONS) {
      const file = path.join(process.cwd(), 'public', emojiSrc(emoji));
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
    expect(emojiSrc('❤️')).toBe('/emoji/2764.svg');
    expect(readFileSync(path.join(process.cwd(), 'public/emoji/LICENSE'), 'utf8')).toContain('CC-BY 4.0');
  });
});

describe('alone in the call (issue 48)', () => {
  it('the invitation panel says how to bring others in and copies the meeting link', () => {
    const onCopyLink = jest.fn();
    const onClose = jest.fn();
    render(
      <NextIntlClientProvider locale="en" messages={en}>
        <InvitePanel onCopyLink={onCopyLink} onClose={onClose} />
      </NextIntlClientProvider>,
    );
    const region = screen.getByRole('region', { name: m.invite.title });
    expect(region).toHaveTextContent(m.invite.body);
    fireEvent.click(screen.getByRole('button', { name: m.copyLink }));
    expect(onCopyLink).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: m.invite.close }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
