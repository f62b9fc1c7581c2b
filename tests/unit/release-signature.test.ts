// Issue 47 point 4: what /.well-known/enclave/release.json says (lib/release/signature.ts), read
// from the release folder at each request: a key only when publisher.pub.pem is there, a
// signature only when it signs exactly the published manifest.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manifestHash, signManifest } from '@/lib/security/build-manifest.mjs';
import { releaseAnswer } from '@/lib/release/signature';

const publisher = generateKeyPairSync('ed25519');
const publisherKey = publisher.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const manifest = `${JSON.stringify({ version: '1.0.0', commit: 'a'.repeat(40), assets: { '/sw.js': 'sha384-x' } }, null, 1)}\n`;
let dir: string;
const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'enclave-release-'));
  process.env.RELEASE_DIR = dir;
  // The release folder's build.json stands for the build (no .next needed here).
  process.env.TEST_SERVE_RELEASE_MANIFEST = '1';
  write('build.json', manifest);
});

afterEach(() => {
  delete process.env.RELEASE_DIR;
  delete process.env.TEST_SERVE_RELEASE_MANIFEST;
  rmSync(dir, { recursive: true, force: true });
});

test('a server without the publisher key does not sign: no key, no signature', async () => {
  write('build.json.sig', signManifest(manifest, publisher.privateKey));
  expect(await releaseAnswer()).toEqual({ manifest: manifestHash(manifest), key: null, signature: null });
});

test('with the key, the signature of exactly the published bytes is passed on', async () => {
  const signature = signManifest(manifest, publisher.privateKey);
  write('build.json.sig', `${signature}\n`);
  write('publisher.pub.pem', publisher.publicKey.export({ type: 'spki', format: 'pem' }) as string);
  expect(await releaseAnswer()).toEqual({ manifest: manifestHash(manifest), key: publisherKey, signature });
});

test('a signature of another build, or by another key, is not passed on; the key still is', async () => {
  write('publisher.pub.pem', publisher.publicKey.export({ type: 'spki', format: 'pem' }) as string);
  write('build.json.sig', signManifest(manifest.replace('1.0.0', '0.9.0'), publisher.privateKey));
  expect(await releaseAnswer()).toEqual({ manifest: manifestHash(manifest), key: publisherKey, signature: null });
  write('build.json.sig', signManifest(manifest, generateKeyPairSync('ed25519').privateKey));
  expect((await releaseAnswer()).signature).toBeNull();
  rmSync(path.join(dir, 'build.json.sig'));
  expect((await releaseAnswer()).signature).toBeNull();
});
