// Firefox and Chromium in one encrypted call (docs/e2ee-crypto.md "Browser APIs"): Firefox encrypts frames in
// a worker through the standard RTCRtpScriptTransform, Chromium in a worker fed by
// createEncodedStreams(); each decodes the other's video and every receiver's decrypt counter
// rises. Firefox is Debian's ESR, driven by puppeteer-core (support/firefox.ts); Chromium is
// Playwright's. A machine without Firefox fails this test: it is never skipped.
import { expect, test, type Page } from '@playwright/test';
import type { Browser as FirefoxBrowser, Page as FirefoxPage } from 'puppeteer-core';
import { fragment, joinMeeting, type Participant } from './support/meeting';
import type { CryptoStats } from './support/probe-readers';
import { joinMeetingInFirefox, launchFirefox } from './support/firefox';
import { messages } from './support/messages';
import { seededAccount } from './support/session';

const en = messages('en');
test.describe.configure({ timeout: 150_000 });

type MediaStats = Record<string, { framesDecoded: number; audioSamplesReceived: number; connection: string }>;
type Encryption = { status: string; source: string | null; epoch: number };

/** One participant, whichever browser drives it: what the page's window.enclaveProbe says. */
interface Side {
  name: string;
  framePath(): Promise<string | undefined>;
  encryption(): Promise<Encryption | undefined>;
  media(): Promise<MediaStats>;
  crypto(): Promise<CryptoStats>;
  indicator(): Promise<{ status: string | null; text: string } | null>;
}

const readIndicator = () => {
  const button = document.querySelector('[data-testid="encryption-indicator"]');
  return button ? { status: button.getAttribute('data-status'), text: button.textContent?.trim() ?? '' } : null;
};

function chromiumSide(name: string, page: Page): Side {
  return {
    name,
    framePath: () => page.evaluate(() => window.enclaveProbe?.framePath),
    encryption: () => page.evaluate(() => window.enclaveProbe?.getState().encryption),
    media: () => page.evaluate(async () => ((await window.enclaveProbe?.stats()) ?? {}) as never),
    crypto: () => page.evaluate(async () => ((await window.enclaveProbe?.encryptionStats()) ?? {}) as never),
    indicator: () => page.evaluate(readIndicator),
  };
}

function firefoxSide(name: string, page: FirefoxPage): Side {
  return {
    name,
    framePath: () => page.evaluate(() => window.enclaveProbe?.framePath),
    encryption: () => page.evaluate(() => window.enclaveProbe?.getState().encryption),
    media: () => page.evaluate(async () => ((await window.enclaveProbe?.stats()) ?? {}) as never),
    crypto: () => page.evaluate(async () => ((await window.enclaveProbe?.encryptionStats()) ?? {}) as never),
    indicator: () => page.evaluate(readIndicator),
  };
}

let firefox: FirefoxBrowser | null = null;
let chromium: Participant | null = null;
test.afterEach(async () => {
  await chromium?.context.close().catch(() => undefined);
  await firefox?.close().catch(() => undefined);
  [chromium, firefox] = [null, null];
});

test('Firefox (RTCRtpScriptTransform in a worker) and Chromium (createEncodedStreams) decode and decrypt each other', async ({ browser, baseURL }) => {
  const meetingId = seededAccount('demo').meetingId;
  const started = Date.now();
  const timings: Record<string, number> = {};
  const mark = (step: string) => (timings[step] = Date.now() - started);
  firefox = await launchFirefox();
  mark('firefoxLaunched');
  // Firefox holds the link's key and hands it to Chromium, which joins without one.
  const fox = firefoxSide('Firefox', await joinMeetingInFirefox(firefox, `${baseURL}/now/${meetingId}${fragment()}`, 'Fiona'));
  mark('firefoxInCall');
  chromium = await joinMeeting(browser, baseURL!, meetingId, { name: 'Chris' });
  const chrome = chromiumSide('Chromium', chromium.page);
  mark('chromiumInCall');

  // Each browser took the path it has: Firefox has no createEncodedStreams.
  expect(await fox.framePath()).toBe('script');
  expect(await chrome.framePath()).toBe('streams');

  // Both decode the other's video, and keep decoding.
  const report: Record<string, unknown> = {};
  for (const side of [fox, chrome]) {
    await expect
      .poll(async () => Object.values(await side.media()).filter((s) => s.framesDecoded > 0).length, {
        message: `${side.name} decodes video from its peer`,
        timeout: 30_000,
        intervals: [500],
      })
      .toBe(1);
    const first = Object.values(await side.media())[0]!;
    await expect
      .poll(async () => Object.values(await side.media())[0]!.framesDecoded, { message: `${side.name} keeps decoding`, timeout: 15_000 })
      .toBeGreaterThan(first.framesDecoded + 20);
    mark(`${side.name}Decoding`);
  }

  // Every receiver decrypts, and its count rises over a few seconds. Firefox's counters are the
  // worker's own (frame-backends.ts asks e2ee-worker.ts): frames went through RTCRtpScriptTransform.
  const before = { fox: await fox.crypto(), chrome: await chrome.crypto() };
  const rising = async (side: Side, earlier: CryptoStats) =>
    Object.entries(await side.crypto()).filter(([id, s]) => s.received.decrypted > (earlier[id]?.received.decrypted ?? 0) + 50).length;
  await expect.poll(() => rising(fox, before.fox), { message: 'Firefox decrypts (worker)', timeout: 20_000, intervals: [500] }).toBe(1);
  await expect.poll(() => rising(chrome, before.chrome), { message: 'Chromium decrypts (page)', timeout: 20_000, intervals: [500] }).toBe(1);
  mark('decryptRising');

  for (const side of [fox, chrome]) {
    const crypto = Object.values(await side.crypto());
    expect(crypto).toHaveLength(1);
    const [{ sent, received }] = crypto as [CryptoStats[string]];
    expect(sent.encrypted).toBeGreaterThan(0);
    expect(received.decrypted).toBeGreaterThan(0);
    // Frames that arrive before their key are dropped as 'unknown-key'; none may fail to open.
    expect(received.failed.auth).toBe(0);
    expect(received.failed.malformed).toBe(0);
    // The indicator says so, in words, on both.
    expect(await side.indicator()).toEqual({ status: 'on', text: en.Meeting.e2ee.status.on });
    const media = Object.values(await side.media())[0]!;
    report[side.name] = { framesDecoded: media.framesDecoded, audioSamplesReceived: media.audioSamplesReceived, sent, received };
  }
  expect(await fox.encryption()).toEqual({ status: 'on', source: 'link', epoch: 0, password: false });
  expect(await chrome.encryption()).toEqual({ status: 'on', source: 'handoff', epoch: 0, password: false });
  report.timingsMs = timings;
  test.info().annotations.push({ type: 'firefox-chromium call', description: JSON.stringify(report) });
  console.log(`firefox-chromium call: ${JSON.stringify(report)}`);
});
