// Issue 47 point 4: the installed service worker pins the publisher's key it first saw and holds
// back a build that key did not sign (public/sw-trust.js, docs/security.md "The installed app
// trusts the first key it saw"). One build stands for several: the test's server publishes the
// release folder's build.json, read at each request (TEST_SERVE_RELEASE_MANIFEST,
// lib/release/signature.ts), and the test rewrites that folder between "releases". The first
// release leaves one real chunk out, so that chunk is the code a later release adds.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manifestHash, signManifest } from '../../lib/security/build-manifest.mjs';
import { seriousViolations } from './support/axe';
import { extraPort, startInstance, tempDataDir, type Instance } from './support/instances';
import { messages } from './support/messages';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

const en = messages('en');
const de = messages('de');
const publisher = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const der = (key: KeyObject) => key.export({ type: 'spki', format: 'der' }).toString('base64');

let instance: Instance;
let data: { dir: string; remove: () => void };
let releaseDir: string;
let fullManifest: string;

/** The server now publishes `manifest`, signed by `signer` and naming `key` as its publisher's (or no key at all). */
function release(manifest: string, signer: KeyObject | null, key: KeyObject | null) {
  for (const file of ['build.json', 'build.json.sig', 'publisher.pub.pem']) rmSync(path.join(releaseDir, file), { force: true });
  writeFileSync(path.join(releaseDir, 'build.json'), manifest);
  if (signer) writeFileSync(path.join(releaseDir, 'build.json.sig'), `${signManifest(manifest, signer)}\n`);
  if (key) writeFileSync(path.join(releaseDir, 'publisher.pub.pem'), key.export({ type: 'spki', format: 'pem' }));
}

/** What the worker pinned: key and manifest hash, or null. */
const pinned = (page: Page) =>
  page.evaluate(async () => {
    const kept = await (await caches.open('enclave-trust-v1')).match('/.well-known/enclave/pinned-release');
    if (!kept) return null;
    const pin = (await kept.json()) as { key: string; manifest: string; held: string | null };
    return { key: pin.key, manifest: pin.manifest, held: pin.held };
  });

/** The status of a code file fetched through the worker. */
const fetchStatus = (page: Page, file: string) => page.evaluate(async (url) => (await fetch(url)).status, file);

/** The nonce of the page's scripts: a page rendered afresh has a new one, a kept copy the old. */
const nonceOf = (page: Page) => page.evaluate(() => document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '');

/** A first visit, then the worker active and in control of the page. */
async function install(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${instance.url}/faq`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  return page;
}

test.beforeAll(async () => {
  data = tempDataDir();
  releaseDir = mkdtempSync(path.join(os.tmpdir(), 'enclave-release-'));
  instance = await startInstance(
    extraPort(70),
    { DATA_DIR: data.dir, RELEASE_DIR: releaseDir, TEST_SERVE_RELEASE_MANIFEST: '1', MEETING_TEST_PROBE: '' },
    { server: 'production' },
  );
  // With nothing in the release folder, the server publishes its build's own manifest.
  fullManifest = await (await fetch(`${instance.url}/.well-known/enclave/build.json`)).text();
});

test.afterAll(async () => {
  await instance?.stop();
  data?.remove();
  if (releaseDir) rmSync(releaseDir, { recursive: true, force: true });
});

test('a server that does not sign is never pinned and shows no warning', async ({ browser }) => {
  const answer = await (await fetch(`${instance.url}/.well-known/enclave/release.json`)).json();
  expect(answer).toEqual({ manifest: manifestHash(fullManifest), key: null, signature: null });
  const context = await browser.newContext();
  const page = await install(context);
  await page.goto(`${instance.url}/security`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await pinned(page)).toBeNull();
  await expect(page.locator('#build-trust')).toBeHidden();
  await context.close();
});

test('a build signed by another key is held back with a warning; one signed by the pinned key updates', async ({ browser }) => {
  const full = JSON.parse(fullManifest) as { version: string; commit: string; assets: Record<string, string> };
  // The chunk the first release leaves out: one the visited pages do not name.
  const named = new Set<string>();
  for (const page of ['/faq', '/security', '/login', '/']) {
    const html = await (await fetch(`${instance.url}${page}`)).text();
    for (const match of html.matchAll(/"(\/_next\/static\/[^"]+)"/g)) named.add(match[1]!);
  }
  const added = Object.keys(full.assets)
    .filter((file) => file.startsWith('/_next/static/chunks/') && file.endsWith('.js') && !named.has(file))
    .sort()
    .at(-1)!;
  expect(added).toBeTruthy();
  const firstManifest = `${JSON.stringify({ ...full, assets: Object.fromEntries(Object.entries(full.assets).filter(([file]) => file !== added)) }, null, 1)}\n`;
  release(firstManifest, publisher.privateKey, publisher.publicKey);

  // First use: the worker pins the publisher's key and the signed manifest.
  const context = await browser.newContext();
  const page = await install(context);
  await page.goto(`${instance.url}/faq`);
  await expect.poll(() => pinned(page)).toEqual({ key: der(publisher.publicKey), manifest: manifestHash(firstManifest), held: null });
  // The security page is kept, to show the warning on pages that have no kept copy.
  await expect
    .poll(() => page.evaluate(async () => (await (await caches.open('enclave-shell-v1')).keys()).map((request) => new URL(request.url).pathname)))
    .toContain('/security');
  // A German page keeps the German security page.
  await page.goto(`${instance.url}/de/faq`);
  await expect
    .poll(() => page.evaluate(async () => (await (await caches.open('enclave-shell-v1')).keys()).map((request) => new URL(request.url).pathname)))
    .toContain('/de/security');
  await page.goto(`${instance.url}/faq`);
  const firstNonce = await nonceOf(page);
  await expect(page.locator('#build-trust')).toBeHidden();
  // A chunk the pinned release does not list does not run.
  expect(await fetchStatus(page, added)).toBe(409);

  // The server switches to a build signed by someone else: the old code stays, with the warning.
  release(fullManifest, stranger.privateKey, stranger.publicKey);
  await page.goto(`${instance.url}/faq`);
  const warning = page.getByRole('alert').filter({ hasText: en.BuildTrust.title });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(en.BuildTrust.whatToDo);
  expect(await nonceOf(page)).toBe(firstNonce);
  expect(await fetchStatus(page, added)).toBe(409);
  expect((await pinned(page))?.held).toBe(manifestHash(fullManifest));
  // Readable on a phone: nothing scrolls sideways, and the warning passes axe.
  await page.setViewportSize({ width: 390, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  // A page the worker kept nothing of leads to the kept security page, which says why.
  await page.goto(`${instance.url}/login`);
  await expect(page).toHaveURL(`${instance.url}/security`);
  await expect(warning).toBeVisible();
  // In German too, at every width, without sideways scrolling.
  await page.goto(`${instance.url}/de/login`);
  await expect(page).toHaveURL(`${instance.url}/de/security`);
  const warningDe = page.getByRole('alert').filter({ hasText: de.BuildTrust.title });
  await expect(warningDe.getByRole('button', { name: de.BuildTrust.trust })).toBeVisible();
  for (const width of [390, 768, 1366]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `de at ${width}px`).toBe(true);
  }
  // A build that names no signature at all is held back too.
  release(fullManifest, null, null);
  await page.goto(`${instance.url}/faq`);
  await expect(warning).toBeVisible();
  expect(await nonceOf(page)).toBe(firstNonce);

  // The same build signed by the pinned key: it updates as usual.
  release(fullManifest, publisher.privateKey, publisher.publicKey);
  await page.goto(`${instance.url}/faq`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await nonceOf(page)).not.toBe(firstNonce);
  await expect(page.locator('#build-trust')).toBeHidden();
  expect(await pinned(page)).toEqual({ key: der(publisher.publicKey), manifest: manifestHash(fullManifest), held: null });
  expect(await fetchStatus(page, added)).toBe(200);
  await page.goto(`${instance.url}/login`);
  await expect(page).toHaveURL(`${instance.url}/login`);

  // The user may re-trust on purpose, after confirming: the server's new key is pinned from then on.
  const thirdManifest = `${JSON.stringify({ ...full, version: `${full.version}-next` }, null, 1)}\n`;
  release(thirdManifest, stranger.privateKey, stranger.publicKey);
  await page.goto(`${instance.url}/faq`);
  await expect(warning).toBeVisible();
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(en.BuildTrust.confirm);
    void dialog.accept();
  });
  // Confirmed, the page reloads itself once the worker has pinned the server as it is.
  const reloaded = page.waitForEvent('load');
  await warning.getByRole('button', { name: en.BuildTrust.trust }).click();
  await reloaded;
  await expect.poll(() => pinned(page)).toEqual({ key: der(stranger.publicKey), manifest: manifestHash(thirdManifest), held: null });
  await page.goto(`${instance.url}/faq`);
  await expect(page.locator('#build-trust')).toBeHidden();
  expect(await nonceOf(page)).not.toBe(firstNonce);
  await context.close();
});
