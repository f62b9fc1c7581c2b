// Helpers for meeting tests: one browser context per participant (its own cookies, its own
// fake camera and microphone), joining through the real lobby, and reading what media flows
// from the page's RTCPeerConnections (getStats, as docs/e2ee-crypto.md advises for headless Chromium).
import { expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { logIn } from './session';

export interface Participant {
  context: BrowserContext;
  page: Page;
  name: string;
}

type PeerStats = Record<
  string,
  { framesDecoded: number; screenFramesDecoded: number; audioSamplesReceived: number; connection: string; candidateType: string | null }
>;

export async function newParticipantContext(browser: Browser, baseURL: string, contextOptions: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ ...contextOptions, baseURL, permissions: ['camera', 'microphone'] });
  await context.grantPermissions(['camera', 'microphone', 'clipboard-read', 'clipboard-write'], { origin: baseURL });
  return context;
}

/** Opens the lobby and joins; resolves once the call screen shows. */
export async function joinMeeting(
  browser: Browser,
  baseURL: string,
  meetingId: string,
  options: {
    name: string;
    password?: string;
    host?: 'demo' | 'trial';
    expectInCall?: boolean;
    /** "#k=…": the room secret in the link (docs/e2ee-crypto.md); without it the key comes by handoff. */
    fragment?: string;
    /** "?media=sfu" and the like, before the fragment. */
    search?: string;
    /** Runs on the new context before the page opens (routes, request listeners). */
    prepare?: (context: BrowserContext) => Promise<void>;
    /** For the context: a proxy (the browser's own network), for instance. */
    contextOptions?: BrowserContextOptions;
  },
): Promise<Participant> {
  const context = await newParticipantContext(browser, baseURL, options.contextOptions);
  if (options.host) await logIn(context, baseURL, options.host);
  await options.prepare?.(context);
  const page = await context.newPage();
  await page.goto(`/now/${meetingId}${options.search ?? ''}${options.fragment ?? ''}`);
  await enterLobby(page, options);
  if (options.expectInCall !== false) await expectInCall(page);
  return { context, page, name: options.name };
}

export async function enterLobby(page: Page, options: { name: string; password?: string }) {
  const nameField = page.getByLabel('Your name', { exact: true });
  await expect(page.getByRole('button', { name: /^(Join now|Ask to join)$/ })).toBeVisible();
  if (await nameField.isVisible()) await nameField.fill(options.name);
  else await expect(nameField).toHaveCount(0);
  if (options.password !== undefined) await page.getByLabel('Meeting password', { exact: true }).fill(options.password);
  await page.getByRole('button', { name: /^(Join now|Ask to join)$/ }).click();
}

export async function expectInCall(page: Page) {
  await expect(page.getByRole('navigation', { name: 'Call controls' })).toBeVisible({ timeout: 15_000 });
}

export async function peerStats(page: Page): Promise<PeerStats> {
  return page.evaluate(async () => ((await window.enclaveProbe?.stats()) ?? {}) as never);
}

/**
 * Waits until this page receives video and audio from `peers` others, then checks that the
 * counters keep rising (media flows, not a single decoded frame).
 */
export async function expectMediaFromPeers(page: Page, peers: number, timeout = 30_000) {
  let first: PeerStats = {};
  await expect
    .poll(
      async () => {
        first = await peerStats(page);
        return Object.values(first).filter((s) => s.framesDecoded > 0 && s.audioSamplesReceived > 0).length;
      },
      { timeout, intervals: [500] },
    )
    .toBe(peers);
  await expect
    .poll(
      async () => {
        const later = await peerStats(page);
        return Object.entries(first).every(
          ([id, before]) => (later[id]?.framesDecoded ?? 0) > before.framesDecoded && (later[id]?.audioSamplesReceived ?? 0) > before.audioSamplesReceived,
        );
      },
      { timeout: 15_000, intervals: [500] },
    )
    .toBe(true);
}

export function participantCount(page: Page, count: number) {
  return expect(page.getByRole('banner').getByText(count === 1 ? '1 participant' : `${count} participants`, { exact: true })).toBeVisible({
    timeout: 15_000,
  });
}
