// Debian's Firefox ESR for the meeting tests, driven by puppeteer-core over WebDriver BiDi
// (Playwright drives only its own patched Firefox, which is never downloaded here). Firefox is
// the browser that has RTCRtpScriptTransform and not createEncodedStreams: the app's worker
// script-transform path (frame-backends.ts, 'script') in the browser it exists for.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Prefs for a call between pages on one machine, with no prompt: a fake camera and microphone,
 * host candidates as plain addresses (Chromium cannot resolve Firefox's mDNS names), loopback
 * candidates (a host with only `lo` gathers none otherwise), and media that plays without a click.
 */
export const firefoxPrefs: Record<string, unknown> = {
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
  'media.peerconnection.ice.obfuscate_host_addresses': false,
  'media.peerconnection.ice.loopback': true,
  'media.autoplay.default': 0,
  'media.autoplay.blocking_policy': 0,
};

/** Launches headless Firefox ESR; fails, never skips, when it is not installed. */
export async function launchFirefox(): Promise<Browser> {
  if (!existsSync(firefoxPath)) {
    throw new Error(
      `The Firefox meeting test needs Firefox ESR at ${firefoxPath} (set FIREFOX_PATH to use another): ` +
        'apt-get install -y firefox-esr (.ci/run installs it).',
    );
  }
  return puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true, extraPrefsFirefox: firefoxPrefs });
}

/** Opens the lobby in Firefox and joins; resolves once the call screen shows. */
export async function joinMeetingInFirefox(browser: Browser, url: string, name: string): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(url);
  await page.locator('input[autocomplete="name"]').fill(name);
  await page.locator('form button[type="submit"]').click();
  await page.waitForSelector('nav[aria-label="Call controls"]');
  return page;
}
