// The meeting machine's effects (machine.ts), carried out for the session (session.ts): on the
// links, the key exchange, the messenger, the SFU route and the signaling stream. Each effect is
// plain data; here is the only place that knows which part of the call runs it.
import type { KeyExchange } from '../keys/key-exchange';
import type { SignalingClient } from '../signaling/signaling';
import type { Effect, MeetingEvent } from './machine';
import type { Mesh } from './mesh';
import type { Messaging } from './messaging';
import { rekeyAfterRemoval } from './rekey';
import type { SfuRoute } from './sfu-route';

/** The parts of a call an effect acts on. */
export interface CallParts {
  signaling: Pick<SignalingClient, 'send'>;
  mesh: Mesh;
  messaging: Messaging;
  keyExchange: KeyExchange;
  sfu: SfuRoute;
  /** Everyone in the call now, verified or not. */
  peers(): string[];
  dispatch(event: MeetingEvent): Promise<void>;
  shutdown(): void;
}

export async function runEffect(effect: Effect, call: CallParts): Promise<void> {
  const { mesh, messaging, keyExchange } = call;
  switch (effect.type) {
    case 'announce-leave':
      void call.signaling.send({ type: 'leave' });
      return;
    case 'shutdown':
      return call.shutdown();
    case 'open-link':
      mesh.open(effect.peerId, effect.initiator);
      return;
    case 'close-link':
      mesh.close(effect.peerId);
      messaging.features.peerGone(effect.peerId);
      return;
    case 'broadcast':
      messaging.messenger.broadcast(effect.message);
      return;
    case 'send-peer':
      messaging.messenger.send(effect.peerId, effect.message);
      return;
    case 'apply-encodings':
      return mesh.applyEncodings();
    case 'microphone':
      if (mesh.tracks.audio) mesh.tracks.audio.enabled = effect.enabled;
      return;
    case 'restart-ice':
      for (const link of mesh.links.values()) link.restartIce();
      return;
    case 'expire-reaction':
      setTimeout(() => void call.dispatch({ type: 'reaction-expired', id: effect.id }), effect.afterMs);
      return;
    case 'keys-enter':
      return keyExchange.enter(effect.others);
    case 'keys-receive':
      return keyExchange.receive(effect.from, effect.envelope);
    case 'keys-release':
      // Not awaited: what they sent before we knew them is checked while the next event runs.
      void keyExchange.release(effect.peerId);
      return;
    case 'keys-forget':
      call.sfu.side?.peerLeft(effect.peerId);
      return keyExchange.forget(effect.peerId);
    case 'keys-let-in':
      return keyExchange.letIn(effect.peerId, effect.confirmed);
    case 'keys-accept-rekey':
      void keyExchange.acceptRekey(effect.epoch, effect.secret);
      return;
    case 'rekey':
      // To everyone in the call, not only those we have a link to: a large call through the SFU has none.
      return rekeyAfterRemoval(keyExchange, messaging.messenger, call.peers(), effect.removed);
    case 'route':
      // Not awaited: events go on while media moves; the outcome comes back to the machine.
      return call.sfu.run(effect.effect, (input) => void call.dispatch({ type: 'route', input }));
  }
}
