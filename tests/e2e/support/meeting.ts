// Helpers for meeting tests: one browser context per participant (its own cookies, its own
// fake camera and microphone), joining through the real lobby, and reading what media flows
// from the page's RTCPeerConnections (getStats, as docs/e2ee-crypto.md advises for headless Chromium).
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { localized, messages } from './messages';
import { logIn } from './session';

export interface Participant {
  context: BrowserContext;
  page: Page;
  name: string;
}

/**
 * The participants a spec's tests open, closed after each test however it ended, so that no
 * call (its cameras, its CPU) outlives its test. Call once at the top of the spec and push each
 * participant into the array it returns; it is emptied after each test.
 */
export function closedAfterEach(): Participant[] {
  const open: Participant[] = [];
  test.afterEach(async ({}, testInfo) => {
    // A failed test says what each page complained of (a Janus refusal, a failed subscription):
    // the rare failure on a loaded CI run, which a rerun does not repeat, leaves only this output.
    if (testInfo.status !== testInfo.expectedStatus)
      for (const { context, name } of open) {
        const lines = complaints.get(context) ?? [];
        if (lines.length > 0) console.log(`${name}'s page warned:\n  ${lines.join('\n  ')}`);
      }
    await Promise.all(open.map((participant) => participant.context.close().catch(() => undefined)));
    open.length = 0;
  });
  return open;
}

/** A new room secret: 32 random bytes in base64url, as a link's "#k=" carries it (lib/meeting/e2ee/keys.ts). */
export const newSecret = () => randomBytes(32).toString('base64url');

/** The link's "#k=…" fragment for a room secret; a new secret unless given one (a room of its own). */
export const fragment = (secret = newSecret()) => `#k=${secret}`;

type PeerStats = Record<
  string,
  { framesDecoded: number; screenFramesDecoded: number; audioSamplesReceived: number; connection: string; candidateType: string | null }
>;

/** The last warnings and errors each participant's pages logged, printed when a test fails (closedAfterEach). */
const complaints = new WeakMap<BrowserContext, string[]>();
const KEPT_COMPLAINTS = 20;

export async function newParticipantContext(browser: Browser, baseURL: string, contextOptions: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ ...contextOptions, baseURL, permissions: ['camera', 'microphone'] });
  await context.grantPermissions(['camera', 'microphone', 'clipboard-read', 'clipboard-write'], { origin: baseURL });
  const lines: string[] = [];
  complaints.set(context, lines);
  context.on('console', (message) => {
    if (message.type() !== 'warning' && message.type() !== 'error') return;
    lines.push(`${new Date().toISOString().slice(11, 23)} ${message.type()}: ${message.text().slice(0, 300)}`);
    if (lines.length > KEPT_COMPLAINTS) lines.shift();
  });
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
    /** The interface language (the lobby is read in it); English by default. */
    locale?: string;
    /** The page's size from the start (a layout test's first width). */
    viewport?: { width: number; height: number };
    /**
     * Joins with the camera off, as the lobby's switch does: for a test of what the call's
     * messages carry (polls, the board, captions, files), where a 720p encoder and its decoders
     * would only share the two cores with what the test looks at.
     */
    camera?: false;
  },
): Promise<Participant> {
  const context = await newParticipantContext(browser, baseURL, options.contextOptions);
  if (options.host) await logIn(context, baseURL, options.host);
  await options.prepare?.(context);
  const page = await context.newPage();
  if (options.viewport) await page.setViewportSize(options.viewport);
  const locale = options.locale ?? 'en';
  await page.goto(`${localized(locale, `/now/${meetingId}`)}${options.search ?? ''}${options.fragment ?? ''}`);
  await enterLobby(page, { ...options, locale });
  if (options.expectInCall !== false) await expectInCall(page, locale);
  return { context, page, name: options.name };
}

export async function enterLobby(page: Page, options: { name: string; password?: string; locale?: string; camera?: false }) {
  const m = messages(options.locale ?? 'en').Meeting;
  const join = page.getByRole('button', { name: new RegExp(`^(${m.joinNow}|${m.askToJoin})$`) });
  const nameField = page.getByLabel(m.yourName, { exact: true });
  // A page load beside a running call: a fourth participant's lobby took 10.5 s on a loaded run.
  await expect(join).toBeVisible({ timeout: 30_000 });
  if (await nameField.isVisible()) await nameField.fill(options.name);
  else await expect(nameField).toHaveCount(0);
  if (options.password !== undefined) await page.getByLabel(m.meetingPassword, { exact: true }).fill(options.password);
  if (options.camera === false) {
    await page.getByRole('button', { name: m.turnCameraOff, exact: true }).click();
    await expect(page.getByRole('button', { name: m.turnCameraOn, exact: true })).toBeVisible();
  }
  await join.click();
}

export async function expectInCall(page: Page, locale = 'en') {
  await expect(page.getByRole('navigation', { name: messages(locale).Meeting.controls })).toBeVisible({ timeout: 15_000 });
}

/** This page's participant id in the call. */
export const selfId = (page: Page) => page.evaluate(() => window.enclaveProbe!.getState().self.id);

/** Waits until the page has verified the keys of exactly `others` peers (a feature's messages can flow). */
export async function keysVerified(page: Page, others = 1) {
  await expect
    .poll(() => page.evaluate(() => window.enclaveProbe?.getState().peers.map((peer) => peer.keys)), { timeout: 30_000 })
    .toEqual(Array(others).fill('verified'));
}

/** Every request body the context sends, as text: what a feature carries must be in none of them. */
export function recordBodies(context: BrowserContext) {
  const bodies: string[] = [];
  context.on('request', (request) => {
    const body = request.postDataBuffer();
    if (body) bodies.push(body.toString('latin1'));
  });
  return bodies;
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

/**
 * Reads `read` until `count` stands still for every id in `ids` for `forMs`, and returns the last
 * read: frames from someone apart have stopped. A starved page decodes what it had buffered late
 * (a CI run, 2026-12-01, saw 8 more frames after two reads a second apart had agreed).
 */
export async function untilCountsStandStill<Snapshot>(
  read: () => Promise<Snapshot>,
  count: (snapshot: Snapshot, id: string) => number,
  ids: string[],
  { forMs = 3_000, timeout = 20_000, interval = 1_000 } = {},
): Promise<Snapshot> {
  let last = await read();
  if (ids.length === 0) return last;
  let unchangedSince = Date.now();
  await expect
    .poll(
      async () => {
        const now = await read();
        if (!ids.every((id) => count(now, id) === count(last, id))) unchangedSince = Date.now();
        last = now;
        return Date.now() - unchangedSince >= forMs;
      },
      { timeout, intervals: [interval] },
    )
    .toBe(true);
  return last;
}

/**
 * Waits until `count` remote tiles play video: what the person sees, where the stats above count
 * what a connection decodes (a tile left on a connection that no longer carries the peer's media
 * stays dark while the other one decodes every frame).
 */
export async function expectRemoteTilesPlaying(page: Page, count: number, timeout = 20_000) {
  const playing = () =>
    page.evaluate(async () => {
      const state = window.enclaveProbe!.getState();
      const local = new Set([state.localCamera?.id, state.localScreen?.id]);
      const videos = [...document.querySelectorAll('video')].filter((video) => {
        const track = (video.srcObject as MediaStream | null)?.getVideoTracks()[0];
        return track && !local.has(track.id);
      });
      const before = videos.map((video) => video.getVideoPlaybackQuality().totalVideoFrames);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return videos.filter((video, at) => video.getVideoPlaybackQuality().totalVideoFrames > before[at]!).length;
    });
  await expect.poll(playing, { timeout }).toBe(count);
}

export function participantCount(page: Page, count: number) {
  return expect(page.getByRole('banner').getByText(count === 1 ? '1 participant' : `${count} participants`, { exact: true })).toBeVisible({
    timeout: 15_000,
  });
}

/** A chat message from the page's open chat panel, as a person types and sends it. */
export async function sayInChat(page: Page, text: string) {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}
