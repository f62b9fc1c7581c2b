import { expect, test, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { baseURL } from '../../playwright.config';
import { logIn } from './support/session';

// Issue 47: the browser runs only the scripts the build made (docs/security.md "A web client anyone can verify").

/** Every <script src> and <link> of the build in the page as it stands, with its integrity. */
const buildTags = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[src], link[href*="/_next/static/"]')].map((element) => ({
      url: element instanceof HTMLScriptElement ? element.src : element.href,
      integrity: element.integrity,
    })),
  );

test.describe('integrity on every script', () => {
  test('pages send Integrity-Policy, and every script and stylesheet they name carries its sha384', async ({ request }) => {
    for (const path of ['/login', '/faq', '/security']) {
      const response = await request.get(path);
      expect(response.headers()['integrity-policy']).toBe('blocked-destinations=(script)');
      const html = await response.text();
      const tags = [...html.matchAll(/<script\b[^>]*\ssrc="[^"]*"[^>]*>|<link\b[^>]*\srel="(?:stylesheet|preload)"[^>]*>/g)].map((match) => match[0]);
      expect(tags.filter((tag) => tag.includes('/_next/static/')).length).toBeGreaterThan(3);
      for (const tag of tags.filter((tag) => tag.includes('/_next/static/'))) expect(tag).toMatch(/\sintegrity="sha384-[A-Za-z0-9+/]{64}"/);
    }
  });

  test('the chunks loaded on a navigation carry integrity too, and a script without it does not run', async ({ page }) => {
    await page.goto('/faq');
    await page.getByRole('link', { name: 'Log in' }).first().click();
    await expect(page).toHaveURL(/\/login$/);
    const tags = await buildTags(page);
    expect(tags.length).toBeGreaterThan(3);
    expect(tags.filter(({ integrity }) => !/^sha384-/.test(integrity))).toEqual([]);
    // A script of this origin that is not in the build (so without integrity): Integrity-Policy refuses it.
    const ran = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const script = document.createElement('script');
          script.src = '/sw.js';
          script.onload = () => resolve('ran');
          script.onerror = () => resolve('refused');
          document.head.append(script);
        }),
    );
    expect(ran).toBe('refused');
  });

  test("a page fetches its stylesheet once: the Link header's preload carries the tag's integrity", async ({ context, page }) => {
    // The dashboard, rendered per request: its answer names the stylesheet in a Link header too.
    await logIn(context, baseURL, 'demo');
    // Chromium keeps a preload only when its integrity matches the tag's; without it every page
    // downloaded its stylesheet twice and warned "not used due to an integrity mismatch".
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (/integrity/i.test(message.text())) warnings.push(message.text());
    });
    const response = await page.goto('/');
    expect(response!.headers()['link']).toMatch(/\.css>; rel=preload;[^,]*; integrity="sha384-/);
    await expect(page.getByRole('link', { name: 'Start meeting now' })).toBeVisible();
    const stylesheets = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => /\.css(\?|$)/.test(entry.name))
        .map((entry) => entry.name),
    );
    expect(stylesheets.length).toBeGreaterThan(0);
    expect(stylesheets).toEqual([...new Set(stylesheets)]);
    expect(warnings).toEqual([]);
  });

  test('a chunk changed by one byte after the build is refused, and the page does not start', async ({ page }) => {
    const html = await (await page.request.get('/login')).text();
    const chunk = [...html.matchAll(/<script\b[^>]*\ssrc="(\/_next\/static\/chunks\/[^"]+\.js)"/g)]
      .map((match) => match[1]!)
      .find((src) => !src.includes('turbopack-'));
    expect(chunk).toBeTruthy();
    await page.route(`**${chunk}`, async (route) => {
      const response = await route.fetch();
      const body = await response.body();
      // One byte: the last `;` or `)` of the chunk becomes a space, still valid JavaScript.
      const at = body.lastIndexOf(';') > 0 ? body.lastIndexOf(';') : body.length - 1;
      body[at] = 0x20;
      await route.fulfill({ response, body });
    });
    // Chromium says so on the console ("Failed to find a valid digest in the 'integrity' attribute …").
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes(chunk!) && /integrity/i.test(message.text())) refused.push(message.text());
    });
    await page.goto('/login');
    await expect.poll(() => refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatch(/blocked/i);
    // Without its chunk the page does not hydrate: the form's button never becomes React's.
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => Object.keys(document.querySelector('form') ?? {}).some((key) => key.startsWith('__react')))).toBe(false);
  });
});

/** `npm run verify -- <url>`, as a person runs it from this checkout: its exit code and output. */
function verify(url: string, ...options: string[]): Promise<{ status: number | null; output: string }> {
  return tsx('scripts/verify.ts', url, ...options);
}

function tsx(script: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('node_modules/.bin/tsx', ['--conditions=react-server', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (status) => resolve({ status, output }));
  });
}

/** A proxy in front of the test server that changes one byte of `changed` on its way through. */
async function tamperingProxy(changed: string): Promise<{ server: Server; url: string }> {
  const target = new URL(baseURL);
  const server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, host: target.host, 'accept-encoding': 'identity' };
    const forward = httpRequest({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (part: Buffer) => parts.push(part));
      answer.on('end', () => {
        const body = Buffer.concat(parts);
        if (incoming.url === changed) body.writeUInt8(body.readUInt8(body.length - 1) ^ 1, body.length - 1);
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !['content-length', 'transfer-encoding'].includes(name)));
        outgoing.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': body.length });
        outgoing.end(body);
      });
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test.describe('npm run verify', () => {
  test.setTimeout(120_000);

  test('passes against a server of this build, and through a proxy that changes one byte of a chunk exits 1 naming it', async ({ request }) => {
    const manifest = (await (await request.get('/.well-known/enclave/build.json')).json()) as { commit: string; assets: Record<string, string> };
    expect(Object.keys(manifest.assets)).toContain('/sw.js');
    expect(Object.keys(manifest.assets).every((path) => !/\.(png|svg|woff2?|map)$/.test(path))).toBe(true);
    const clean = await verify(baseURL);
    expect(clean.output).toContain('The server serves exactly the expected build.');
    expect(clean.status).toBe(0);

    const html = await (await request.get('/login')).text();
    const chunk = [...html.matchAll(/<script\b[^>]*\ssrc="(\/_next\/static\/chunks\/[^"]+\.js)"/g)]
      .map((match) => match[1]!)
      .find((src) => !src.includes('turbopack-'))!;
    const proxy = await tamperingProxy(chunk);
    try {
      const tampered = await verify(proxy.url);
      expect(tampered.status).toBe(1);
      expect(tampered.output).toContain(`${chunk}: the server sends sha384-`);
      expect(tampered.output).toContain(`page /login: ${chunk} is served as sha384-`);
    } finally {
      proxy.server.close();
    }
  });
});

test('a release signed with npm run release:sign checks the server against the publisher’s key, and a signature of another key is refused', async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-release-'));
  try {
    for (const name of ['publisher', 'other']) {
      const signed = await tsx('scripts/release-sign.ts', '--new-key', path.join(dir, `${name}.pem`), '--out', path.join(dir, name));
      expect(signed.status, signed.output).toBe(0);
    }
    const good = await verify(baseURL, '--expect', path.join(dir, 'publisher', 'build.json'), '--key', path.join(dir, 'publisher.pub.pem'));
    expect(good.output).toContain('signed by the key in');
    expect(good.status, good.output).toBe(0);
    const wrongKey = await verify(baseURL, '--expect', path.join(dir, 'other', 'build.json'), '--key', path.join(dir, 'publisher.pub.pem'));
    expect(wrongKey.status).toBe(1);
    expect(wrongKey.output).toContain('is not signed by the key in');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the security page says which build runs: its commit, its manifest’s hash and the command that checks it', async ({ page, request }) => {
  const text = await (await request.get('/.well-known/enclave/build.json')).text();
  const { commit } = JSON.parse(text) as { commit: string };
  await page.goto('/security#build');
  const info = page.getByTestId('build-info');
  await expect(info).toContainText(commit);
  await expect(info).toContainText(`sha256-${createHash('sha256').update(text).digest('base64')}`);
  await expect(info).toContainText(`npm run verify -- ${baseURL}`);
  await expect(page.getByRole('heading', { name: 'About this build' })).toBeVisible();
});
