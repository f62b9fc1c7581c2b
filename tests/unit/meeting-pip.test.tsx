/** @jest-environment jsdom */
// Picture-in-picture is offered only where the browser can float something: a whole window
// (Document Picture-in-Picture), else a video (HTMLVideoElement.requestPictureInPicture), else
// nothing — and then the toolbar has no button for it (Firefox's case).
import { render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { CallToolbar } from '@/components/meeting/toolbar/CallToolbar';
import { pipKind } from '@/components/meeting/call/usePictureInPicture';
import { initialState } from '@/lib/meeting/client/call/machine';
import en from '@/messages/en.json';

afterEach(() => {
  delete window.documentPictureInPicture;
  delete (document as { pictureInPictureEnabled?: boolean }).pictureInPictureEnabled;
  delete (HTMLVideoElement.prototype as { requestPictureInPicture?: unknown }).requestPictureInPicture;
});

describe('pipKind', () => {
  it('neither API (jsdom, Firefox): none', () => {
    expect(pipKind()).toBeNull();
  });

  it('the video element alone (Safari): video', () => {
    Object.defineProperty(document, 'pictureInPictureEnabled', { value: true, configurable: true });
    Object.defineProperty(HTMLVideoElement.prototype, 'requestPictureInPicture', { value: () => undefined, configurable: true });
    expect(pipKind()).toBe('video');
  });

  it('Document Picture-in-Picture (Chromium): document, first', () => {
    Object.defineProperty(document, 'pictureInPictureEnabled', { value: true, configurable: true });
    window.documentPictureInPicture = { requestWindow: async () => window, window: null };
    expect(pipKind()).toBe('document');
  });
});

it('without picture-in-picture the toolbar has no button for it', () => {
  const self = { id: 'm', name: 'Me', isHost: false };
  const noop = () => undefined;
  render(
    <NextIntlClientProvider locale="en" messages={en}>
      <CallToolbar
        controls={{
          state: initialState({ self, local: { muted: false, cameraOff: false, sharing: false, hand: false, recording: false }, camera: null, password: false })
            .view,
          panel: null,
          recording: { supported: false, active: false, seconds: 0, toggle: async () => undefined },
          pip: null,
          mute: noop,
          camera: noop,
          screen: noop,
          hand: noop,
          react: noop,
          copyLink: noop,
          togglePanel: noop,
          devices: noop,
          polls: { open: noop, waiting: 0 },
          whiteboard: { open: false, toggle: noop },
          captions: { open: noop, on: false },
          breakout: noop,
          leave: noop,
        }}
      />
    </NextIntlClientProvider>,
  );
  expect(screen.queryByRole('button', { name: en.Meeting.pip.open })).toBeNull();
  expect(screen.getAllByRole('button', { name: en.Meeting.devices.open }).length).toBeGreaterThan(0);
});
