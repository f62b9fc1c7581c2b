// What a server says about who signed the build it serves (issue 47 point 4, docs/security.md
// "The installed app trusts the first key it saw"): /.well-known/enclave/release.json. The service
// worker (public/sw.js) reads it on navigations; a server signs when its release folder holds the
// publisher's public key, which `npm run release:sign` writes there with the manifest and its signature.
import { createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { manifestHash, signedBy } from '@/lib/security/build-manifest.mjs';
import { servedManifest } from '@/lib/release/manifest';

export interface ReleaseAnswer {
  /** "sha256-…" of the manifest as this server publishes it. */
  manifest: string;
  /** The publisher's Ed25519 public key (SPKI DER, base64), or null: this server does not sign. */
  key: string | null;
  /** The publisher's signature over the published manifest, or null: this build is not the signed one. */
  signature: string | null;
}

/** Where `npm run release:sign` wrote: RELEASE_DIR, else ./release beside the build. */
export const releaseDir = () => path.resolve(process.env.RELEASE_DIR || 'release');

const readOrNull = (file: string) => readFile(path.join(releaseDir(), file), 'utf8').catch(() => null);

/**
 * The manifest this server publishes. A test server (TEST_SERVE_RELEASE_MANIFEST=1) publishes the
 * release folder's build.json instead, read at each request, so one build can stand for two
 * (tests/e2e/signed-updates.spec.ts); no production setting reaches this.
 */
export async function publishedManifest(): Promise<string> {
  if (process.env.TEST_SERVE_RELEASE_MANIFEST === '1') {
    const text = await readOrNull('build.json');
    if (text !== null) return text;
  }
  return servedManifest();
}

/** Read at each request: an operator signs a running server's build without restarting it. */
export async function releaseAnswer(): Promise<ReleaseAnswer> {
  const manifest = await publishedManifest();
  const [pem, signature] = await Promise.all([readOrNull('publisher.pub.pem'), readOrNull('build.json.sig')]);
  if (pem === null) return { manifest: manifestHash(manifest), key: null, signature: null };
  const key = createPublicKey(pem);
  const der = key.export({ type: 'spki', format: 'der' }).toString('base64');
  // Only a signature of exactly these bytes: a release signed earlier says nothing of a later build.
  const valid = signature !== null && signedBy(manifest, signature.trim(), key);
  return { manifest: manifestHash(manifest), key: der, signature: valid ? signature.trim() : null };
}
