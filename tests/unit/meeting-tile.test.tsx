/** @jest-environment jsdom */
// A tile tells the sender whether it is on screen (hidden tiles cost no upload). The call view
// re-renders on every meeting state change and passes a new callback each time: the tile must
// keep one observer for its life and report through the newest callback.
import { act, render } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import type { TileModel } from '@/components/meeting/call/call-layout';
import { Tile } from '@/components/meeting/call/Tile';
import en from '@/messages/en.json';

class FakeObserver {
  static made: FakeObserver[] = [];
  disconnected = false;
  constructor(readonly report: (entries: { isIntersecting: boolean }[]) => void) {
    FakeObserver.made.push(this);
  }
  observe() {}
  disconnect() {
    this.disconnected = true;
  }
}

const tile: TileModel = {
  key: 'p1:camera',
  participantId: 'p1',
  name: 'Pat Peer',
  kind: 'camera',
  track: null,
  isSelf: false,
  isHost: false,
  muted: false,
  hand: false,
  quality: 'good',
  speaking: false,
};

function renderTile(onVisible: ((visible: boolean) => void) | undefined, model: TileModel = tile) {
  return (
    <NextIntlClientProvider locale="en" messages={en}>
      <Tile tile={model} pinned={false} large={false} onPin={() => undefined} onVisible={onVisible} videoRef={() => undefined} />
    </NextIntlClientProvider>
  );
}

beforeEach(() => {
  FakeObserver.made = [];
  (globalThis as unknown as { IntersectionObserver: unknown }).IntersectionObserver = FakeObserver;
});
afterEach(() => {
  delete (globalThis as unknown as { IntersectionObserver?: unknown }).IntersectionObserver;
});

describe('a tile reports whether it is on screen', () => {
  it('with one observer across re-renders, through the newest callback', () => {
    const seen: string[] = [];
    const view = render(renderTile((visible) => seen.push(`first:${visible}`)));
    expect(FakeObserver.made).toHaveLength(1);

    // New state, new callback, as the call view gives on every meeting change.
    view.rerender(renderTile((visible) => seen.push(`second:${visible}`), { ...tile, muted: true }));
    view.rerender(renderTile((visible) => seen.push(`third:${visible}`), { ...tile, hand: true }));
    expect(FakeObserver.made).toHaveLength(1);
    expect(FakeObserver.made[0]!.disconnected).toBe(false);

    act(() => FakeObserver.made[0]!.report([{ isIntersecting: false }]));
    expect(seen).toEqual(['third:false']);

    view.unmount();
    expect(FakeObserver.made[0]!.disconnected).toBe(true);
  });

  it('not at all for a tile that has nobody to tell (our own)', () => {
    render(renderTile(undefined, { ...tile, isSelf: true }));
    expect(FakeObserver.made).toHaveLength(0);
  });
});
