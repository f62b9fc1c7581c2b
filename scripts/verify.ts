// `npm run verify -- https://meet.example.org`: checks from outside that a server runs the published
// build (issue 47, docs/security.md "A web client anyone can verify"). It reads the server's
// manifest (/.well-known/enclave/build.json), downloads every file it lists and every script and
// stylesheet its main pages name, checks each one's hash, and compares the manifest with the one
// of a build made here from the same commit (this folder's .next: `git checkout <commit> && npm ci
// && npm run build`) or with a manifest given by --expect. Prints each difference; exits 1 on any.
import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { integrityOf, MANIFEST_PATH, manifestDifferences, manifestHash, signedBy } from '../lib/security/build-manifest.mjs';
import { localManifest, type BuildManifest } from '../lib/release/manifest';

const PAGES = ['/', '/login', '/faq', '/security', '/download'];
const TAG = /<(script|link)\b[^>]*>/gi;

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const expectFile = option('--expect');
const keyFile = option('--key');
const base = args[0];
if (!base || !/^https?:\/\//.test(base)) {
  console.error('Usage: npm run verify -- <server address, e.g. https://meet.example.org> [--expect build.json [--key publisher.pub.pem]]');
  process.exit(2);
}
const origin = new URL(base).origin;
const differences: string[] = [];

async function fetchBytes(path: string): Promise<Buffer> {
  const response = await fetch(new URL(path, origin), { redirect: 'follow' });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** A release manifest (`npm run release:sign`), checked against its publisher's key when --key names it. */
async function signedRelease(file: string): Promise<BuildManifest> {
  const text = await readFile(file, 'utf8');
  if (keyFile) {
    const signature = await readFile(`${file}.sig`, 'utf8').catch(() => '');
    if (!signedBy(text, signature.trim(), createPublicKey(await readFile(keyFile)))) {
      console.error(`${file} is not signed by the key in ${keyFile}: it proves nothing.`);
      process.exit(1);
    }
    console.log(`${file}: signed by the key in ${keyFile}`);
  }
  return JSON.parse(text) as BuildManifest;
}

// A script of this package is CommonJS to tsx: no top-level await.
async function main() {
  const text = (await fetchBytes(MANIFEST_PATH)).toString('utf8');
  const served = JSON.parse(text) as BuildManifest;
  console.log(`${origin} serves Enclave ${served.version}, commit ${served.commit}`);
  console.log(`manifest ${MANIFEST_PATH}: ${manifestHash(text)}, ${Object.keys(served.assets).length} files`);

  // 1. The manifest against the one expected: a build of the same commit here, or a given one.
  const expected: BuildManifest = expectFile ? await signedRelease(expectFile) : await localManifest();
  console.log(`compared with ${expectFile ?? 'the build in this folder (.next)'}: commit ${expected.commit}`);
  differences.push(...manifestDifferences(expected, served));

  // 2. Every file the manifest lists is what it says.
  const checked = new Map<string, string>();
  const hashOf = async (path: string) => {
    if (!checked.has(path)) checked.set(path, integrityOf(await fetchBytes(path)));
    return checked.get(path)!;
  };
  for (const [path, integrity] of Object.entries(served.assets)) {
    try {
      const actual = await hashOf(path);
      if (actual !== integrity) differences.push(`${path}: the server sends ${actual}, its manifest says ${integrity}`);
    } catch (error) {
      differences.push(`${path}: ${(error as Error).message}`);
    }
  }

  // 3. What the main pages load: only files of the manifest, with their hash.
  for (const page of PAGES) {
    let html: string;
    try {
      html = (await fetchBytes(page)).toString('utf8');
    } catch (error) {
      differences.push(`page ${page}: ${(error as Error).message}`);
      continue;
    }
    for (const [tag, name = ''] of html.matchAll(TAG)) {
      const url = /\s(?:src|href)="([^"]+)"/.exec(tag)?.[1]?.replaceAll('&amp;', '&');
      if (!url) continue;
      if (name.toLowerCase() === 'link' && !/\srel="(?:stylesheet|preload|modulepreload)"/i.test(tag)) continue;
      if (name.toLowerCase() === 'link' && /\srel="preload"/i.test(tag) && !/\sas="(?:script|style|worker)"/i.test(tag)) continue;
      const address = new URL(url, origin);
      if (address.origin !== origin) {
        differences.push(`page ${page} loads code from another origin: ${address.href}`);
        continue;
      }
      const listed = served.assets[address.pathname];
      if (!listed) {
        differences.push(`page ${page} loads ${address.pathname}, which is not in the manifest`);
        continue;
      }
      const attribute = /\sintegrity="([^"]+)"/.exec(tag)?.[1];
      if (attribute && attribute !== listed) differences.push(`page ${page}: ${address.pathname} carries integrity ${attribute}, the manifest says ${listed}`);
      const actual = await hashOf(address.pathname).catch((error: Error) => error.message);
      if (actual !== listed) differences.push(`page ${page}: ${address.pathname} is served as ${actual}, the manifest says ${listed}`);
    }
  }

  console.log(`checked ${checked.size} files and ${PAGES.length} pages`);
  if (differences.length) {
    console.error(`\n${differences.length} difference${differences.length === 1 ? '' : 's'}:\n${differences.map((line) => `  ${line}`).join('\n')}`);
    process.exit(1);
  }
  console.log('\nThe server serves exactly the expected build.');
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(2);
});
