/** @jest-environment jsdom */
// Noise suppression waits for the join's connections (components/meeting/features/noise/useJoinSettled.ts):
// loaded at once it took the join's CPU. The latch: not before the welcome, not while a peer
// present still connects, at once when everyone is connected, nobody is there or our media goes
// through the SFU, after
// JOIN_SETTLE_MAX_MS whatever happens, and never back to false when someone joins later.
import { act, renderHook } from '@testing-library/react';
import { JOIN_SETTLE_MAX_MS, useJoinSettled } from '@/components/meeting/features/noise/useJoinSettled';
import type { MediaRoute } from '@/lib/meeting/client/call/route-pin';
import type { Phase, RemotePeer } from '@/lib/meeting/client/call/meeting-state';

const peer = (connection: RTCPeerConnectionState) => ({ connection }) as RemotePeer;
type Props = { phase: Phase; peers: RemotePeer[]; mediaRoute?: MediaRoute };

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function settledOver(initial: Props) {
  return renderHook(({ mediaRoute = 'mesh', ...state }: Props) => useJoinSettled({ ...state, mediaRoute }), { initialProps: initial });
}

it('waits for the welcome, then for every peer present to connect', () => {
  const hook = settledOver({ phase: 'connecting', peers: [] });
  expect(hook.result.current).toBe(false);
  hook.rerender({ phase: 'in-call', peers: [peer('new'), peer('connected')] });
  expect(hook.result.current).toBe(false);
  hook.rerender({ phase: 'in-call', peers: [peer('connected'), peer('failed')] });
  expect(hook.result.current).toBe(true);
});

it('is settled at once for the first person in the call', () => {
  expect(settledOver({ phase: 'in-call', peers: [] }).result.current).toBe(true);
});

it('stops waiting after JOIN_SETTLE_MAX_MS', () => {
  const hook = settledOver({ phase: 'in-call', peers: [peer('connecting')] });
  act(() => jest.advanceTimersByTime(JOIN_SETTLE_MAX_MS - 1));
  expect(hook.result.current).toBe(false);
  act(() => jest.advanceTimersByTime(1));
  expect(hook.result.current).toBe(true);
});

it('stays settled when someone joins later and is still connecting', () => {
  const hook = settledOver({ phase: 'in-call', peers: [peer('connected')] });
  act(() => undefined);
  hook.rerender({ phase: 'in-call', peers: [peer('connected'), peer('new')] });
  expect(hook.result.current).toBe(true);
});

it('through the SFU, is settled once our media goes through it, links or not', () => {
  // A call of 30 keeps no link (route-pin.ts LINKS_UP_TO): its peers never report "connected".
  const hook = settledOver({ phase: 'in-call', peers: [peer('new'), peer('new')], mediaRoute: 'mesh' });
  expect(hook.result.current).toBe(false);
  hook.rerender({ phase: 'in-call', peers: [peer('new'), peer('new')], mediaRoute: 'sfu' });
  expect(hook.result.current).toBe(true);
});

it('through the SFU, still waits for the welcome', () => {
  expect(settledOver({ phase: 'connecting', peers: [], mediaRoute: 'sfu' }).result.current).toBe(false);
});
