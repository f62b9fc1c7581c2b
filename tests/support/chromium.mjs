// The one place that says how Chromium is started, for the tests (playwright.config.ts, the
// meeting specs) and the benchmarks (bench/) alike: Debian's Chromium and the flags every run
// uses: off the closed network, fake camera and microphone, and loopback WebRTC in headless mode
// (docs/e2ee-crypto.md "Testing in headless Chromium": without the last two a host with only `lo` gathers no
// ICE candidate, and mDNS hides the addresses peers need).
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const headlessShell = '/usr/bin/chromium-headless-shell';

/**
 * The page tests' browser: Debian's chromium-headless-shell where it is installed (.ci/run installs
 * it), the same Blink in Chromium's old headless mode, which Playwright itself runs for headless
 * Chromium. The whole pages project took 7 % less time and 9 % less CPU in it (docs/decisions.md,
 * "The test suite's time on two cores"). The meeting tests keep the whole browser: in the shell a
 * call's recording, its floating window and some of its media checks fail.
 */
export const pagesChromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : chromiumPath);

/**
 * The browser's own interface, which no test or benchmark looks at. From Chromium 156.0.8078.108
 * every new context starts a "top chrome" WebUI renderer for the omnibox popup that loads some
 * hundred modules: 1–2 s of CPU on a two-core machine, landing on whatever runs next (a meeting's
 * join went from ~0.5 s to 1.1–2.2 s). Names this build does not know are ignored.
 */
const browserUiFeatures = [
  'PreloadTopChromeWebUI',
  'PrewarmWebUIContents',
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
  'WebUIReloadButton',
];

/** Off the closed network: nothing that calls Google (and waits on it). Benchmarks use these too. */
export const offlineArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${browserUiFeatures.join(',')}`,
];

export const chromiumArgs = [
  ...offlineArgs.filter((arg) => !arg.startsWith('--disable-features=')),
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--auto-select-desktop-capture-source=Entire screen',
  '--allow-loopback-in-peer-connection',
  // One switch: Chromium reads only the last of several.
  `--disable-features=${[...browserUiFeatures, 'WebRtcHideLocalIpsWithMdns'].join(',')}`,
  // A helper's E2E_PORT may be one Chromium refuses as unsafe (6000 is X11's): allow that one.
  ...(process.env.E2E_PORT ? [`--explicitly-allowed-ports=${process.env.E2E_PORT}`] : []),
];

/**
 * Launches that Chromium through Playwright with `chromiumArgs` (or `args`, e.g. offlineArgs);
 * other options (executablePath, env, …) go to Playwright's launch as they are.
 * @param {import('@playwright/test').LaunchOptions} [options]
 */
export async function launchChromium({ args = chromiumArgs, ...options } = {}) {
  // Imported here, not at the top: playwright.config.ts reads the flags before Playwright runs.
  const { chromium } = await import('@playwright/test');
  return chromium.launch({ executablePath: chromiumPath, args, ...options });
}
