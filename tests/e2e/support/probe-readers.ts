// What a meeting page's test probe (window.enclaveProbe, lib/meeting/client/probe.ts) says about
// its keys, its route and its call, read from a spec: one reader each, so that every spec reads
// the probe the same way and a change to the probe is made here once.
import type { Page } from '@playwright/test';
import type { PeerCryptoStats } from '@/lib/meeting/client/frames/frame-types';

/** Frames encrypted, decrypted, withheld and refused per peer, as the probe counts them (`sfu:<id>` through the SFU). */
export type CryptoStats = Record<string, PeerCryptoStats>;

/** This page's frame counters; empty before the call has its keys. */
export const cryptoStats = (page: Page): Promise<CryptoStats> => page.evaluate(() => (window.enclaveProbe?.encryptionStats() ?? {}) as never);

/** Where this page's media goes now: 'mesh' or 'sfu'. */
export const mediaRoute = (page: Page) => page.evaluate(() => window.enclaveProbe?.mediaRoute());

/** This page's own sender key generation through the SFU, and the newest it holds of each other sender. */
export const senderKeys = (page: Page) => page.evaluate(() => window.enclaveProbe!.senderKeys());

/** Offers per connection: a switch that needs no renegotiation leaves them as they were. */
export const negotiations = (page: Page) => page.evaluate(() => Object.values(window.enclaveProbe!.negotiations()));

/** The call's encryption as the page holds it: on or not, and where its key came from. */
export const encryptionState = (page: Page) => page.evaluate(() => window.enclaveProbe?.getState().encryption);

/** The texts of the chat messages this page holds, sent and received. */
export const chatTexts = (page: Page) => page.evaluate(() => window.enclaveProbe!.getState().chat.map((message) => message.text));

/** The call's messages through the SFU: sent, opened, dropped (and why), and who hears this page there; null on the mesh. */
export const sfuMessages = (page: Page) => page.evaluate(() => window.enclaveProbe!.sfuMessages());

/** The peers this page holds a connection (a link) to, sorted: none in a large call through the SFU. */
export const linkedPeers = (page: Page) => page.evaluate(() => Object.keys(window.enclaveProbe!.negotiations()).sort());
