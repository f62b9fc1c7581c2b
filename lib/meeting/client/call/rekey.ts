// docs/e2ee-crypto.md "Kick": after the server refused the removed participant, everyone else
// moves to a fresh secret and epoch, sent to each alone (messenger.ts send: through the SFU under
// the pair's direct key, which a new root does not change, or over the link, DTLS to the
// fingerprint each one signed), so the removed participant's keys open nothing sent from now on.
// (Through the SFU, the sender keys rotate too: sfu/sender-key-ring.ts.)
import type { KeyExchange } from '../keys/key-exchange';
import type { Messenger } from './messenger';

export async function rekeyAfterRemoval(keyExchange: KeyExchange, messenger: Pick<Messenger, 'send'>, peers: readonly string[], removed: string) {
  const next = await keyExchange.nextEpoch();
  if (!next) return;
  const keys = keyExchange.keys;
  // Never a message to everyone: the removed participant may still hold our sender key.
  for (const id of peers) if (id !== removed && keys?.isVerified(id)) messenger.send(id, { t: 'rekey', ...next });
}
