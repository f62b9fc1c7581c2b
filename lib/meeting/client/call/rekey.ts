// docs/e2ee-crypto.md "Kick": after the server refused the removed participant, everyone else
// moves to a fresh secret and epoch, sent over the data channels (DTLS to the fingerprint each
// one signed), so the removed participant's keys open nothing sent from now on. (Through the SFU,
// the sender keys rotate too: sfu/sender-key-ring.ts.)
import type { KeyExchange } from '../keys/key-exchange';
import type { PeerLink } from '../links/peer';

export async function rekeyAfterRemoval(keyExchange: KeyExchange, links: ReadonlyMap<string, PeerLink>, removed: string) {
  const next = await keyExchange.nextEpoch();
  if (!next) return;
  const keys = keyExchange.keys;
  for (const [id, link] of links) if (id !== removed && keys?.isVerified(id)) link.send({ t: 'rekey', ...next });
}
