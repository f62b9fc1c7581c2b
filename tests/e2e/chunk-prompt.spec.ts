// Issue 48, point 1: the reload prompt ("Part of this page could not be loaded") showed on every
// page after 120 s: the watchdog counted the `nomodule` polyfill, which Chromium never fetches,
// as a chunk still loading. Pages left open past the time-out show nothing; a chunk that really
// fails, or really hangs, still shows the prompt, which pushes the page down instead of covering it.
// The e2e server marks the prompt so that an init script may shorten the 120 s (lib/chunk-watchdog.ts).
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { messages } from './support/messages';
import { logIn } from './support/session';

const { ChunkError: C } = messages('en');
const TIME_OUT_MS = 4_000;

async function shortTimeOut(context: BrowserContext) {
  await context.addInitScript((ms) => Object.assign(window, { __enclaveChunkTimeoutMs: ms }), TIME_OUT_MS);
}

/** Waits until the watchdog's time-out check has run (it marks the document), whatever it found. */
async function checked(page: Page) {
  await expect(page.locator('html[data-chunk-check="done"]')).toHaveCount(1, { timeout: TIME_OUT_MS + 15_000 });
}

test('pages left open past the time-out show no reload prompt', async ({ context, page, baseURL }) => {
  await logIn(context, baseURL!);
  await shortTimeOut(context);
  // The dashboard, the billing screen and a public page: each with the nomodule polyfill in it.
  for (const path of ['/', '/settings', '/faq']) {
    await page.goto(path);
    await expect(page.locator('script[nomodule]')).not.toHaveCount(0);
    await checked(page);
    await expect(page.locator('#chunk-error'), path).toBeHidden();
  }
});

test('a chunk that fails to load shows the prompt at once, above the page rather than over it', async ({ context, page, baseURL }) => {
  await logIn(context, baseURL!);
  // Every request for one chunk of the page fails (its preload hint's and its script's).
  let lost: string | null = null;
  await page.route('**/_next/static/chunks/**/*.js', (route) => {
    lost ??= route.request().url();
    return route.request().url() === lost ? route.abort('connectionreset') : route.continue();
  });
  await page.goto('/');
  expect(lost).not.toBeNull();
  const prompt = page.getByRole('alert').filter({ hasText: C.message });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('link', { name: C.reload })).toBeVisible();
  // Outside a call the wording says nothing of leaving one.
  await expect(page.getByText(C.messageInCall)).toBeHidden();
  // The page starts below the prompt: the heading is not under it.
  const bar = (await prompt.boundingBox())!;
  const heading = (await page.getByRole('heading', { level: 1 }).first().boundingBox())!;
  expect(heading.y).toBeGreaterThanOrEqual(bar.y + bar.height - 1);
});

test('a chunk still loading at the time-out shows the prompt', async ({ context, page }) => {
  await shortTimeOut(context);
  // One chunk never answers, as on a connection that stalled.
  let held: string | null = null;
  await page.route('**/_next/static/chunks/**/*.js', (route) => {
    held ??= route.request().url();
    return route.request().url() === held ? new Promise<void>(() => undefined) : route.continue();
  });
  await page.goto('/faq', { waitUntil: 'domcontentloaded' });
  expect(held).not.toBeNull();
  await checked(page);
  await expect(page.getByRole('alert').filter({ hasText: C.message })).toBeVisible();
});
