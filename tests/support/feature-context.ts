// A feature's context in the unit tests (call/features.ts): `broadcast` and `sendToAll` as one
// `send` per peer, so a test sees each peer's copy as the links would carry it. The call's own
// (call/messaging.ts) seals one copy through the SFU for those who hear us there.
import type { FeatureContext } from '@/lib/meeting/client/call/features';

export function featureContext(ctx: Omit<FeatureContext, 'broadcast' | 'sendToAll'>): FeatureContext {
  const sendToAll = (peerIds: readonly string[], message: { t: string }) => {
    for (const id of peerIds) ctx.send(id, message);
  };
  return {
    ...ctx,
    sendToAll,
    broadcast: (message) =>
      sendToAll(
        ctx.peers().map(({ id }) => id),
        message,
      ),
  };
}

/** A feature's own hooks (polls, whiteboard, captions) with `sendToAll` as one `send` to each of `peers()`. */
export function fanOut<H extends { peers(): { id: string }[]; send(peerId: string, message: never): boolean; sendToAll(message: never): void }>(
  hooks: Omit<H, 'sendToAll'>,
): H {
  const own = hooks as unknown as H;
  return { ...hooks, sendToAll: (message: never) => own.peers().forEach(({ id }) => own.send(id, message)) } as unknown as H;
}
