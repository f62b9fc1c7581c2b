// The build's manifest (issue 47): every file a browser can load as code, by the path it is served
// at, with its Subresource Integrity hash. Plain JavaScript, so that the build's post-step
// (scripts/build-integrity.mjs), the server and `npm run verify` (scripts/verify.ts) share it.
import { execFileSync } from 'node:child_process';
import { createHash, sign, verify } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the server publishes the manifest (app/.well-known/enclave/build.json/route.ts). */
export const MANIFEST_PATH = '/.well-known/enclave/build.json';

/**
 * What is not code under .next/static: pictures, fonts, source maps. Everything else a browser may
 * run or apply (scripts, styles, WebAssembly, and the workers Turbopack emits under media/ with
 * their source's extension), so a file of a new kind is listed rather than missed.
 */
const NOT_CODE = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|otf|eot|map|txt)$/;
export const isCodeFile = (name) => !NOT_CODE.test(name);

/** "sha384-<base64>", as an integrity attribute carries it. */
export const integrityOf = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/**
 * Every code file under the build's .next/static, as "/_next/static/…" → its hash.
 * @param {string} distDir
 * @returns {Promise<Record<string, string>>}
 */
export async function staticAssets(distDir) {
  const base = path.join(distDir, 'static');
  /** @type {Record<string, string>} */
  const found = {};
  const visit = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) await visit(file);
      else if (isCodeFile(entry.name)) found[`/_next/static/${path.relative(base, file).split(path.sep).join('/')}`] = integrityOf(await readFile(file));
    }
  };
  await visit(base);
  return found;
}

/** The manifest with its assets in path order, so that the same build gives the same bytes. */
export function manifestOf({ version, commit, assets }) {
  const sorted = Object.fromEntries(
    Object.keys(assets)
      .sort()
      .map((key) => [key, assets[key]]),
  );
  return { version, commit, assets: sorted };
}

/** The manifest as served: its hash is the hash of these bytes. */
export const manifestText = (manifest) => `${JSON.stringify(manifestOf(manifest), null, 1)}\n`;

/** "sha256-<base64>" of the manifest as served: what the About this build section shows. */
export const manifestHash = (text) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

/**
 * What differs between the manifest one expects and the one a server published, one line each:
 * a changed version or commit, an asset missing, added or with another hash.
 */
export function manifestDifferences(expected, actual) {
  const lines = [];
  for (const key of ['version', 'commit']) if (expected[key] !== actual[key]) lines.push(`${key}: expected ${expected[key]}, served ${actual[key]}`);
  const want = expected.assets ?? {};
  const got = actual.assets ?? {};
  for (const file of Object.keys(want).sort()) {
    if (!(file in got)) lines.push(`${file}: missing from the served manifest`);
    else if (want[file] !== got[file]) lines.push(`${file}: expected ${want[file]}, the server lists ${got[file]}`);
  }
  for (const file of Object.keys(got).sort()) if (!(file in want)) lines.push(`${file}: served but not in the expected build`);
  return lines;
}

/** The commit a build is made of: ENCLAVE_COMMIT, else git's HEAD, else null (Next.js then picks a random id). */
export function buildCommit(root) {
  if (process.env.ENCLAVE_COMMIT) return process.env.ENCLAVE_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * A release's signature (issue 47, `npm run release:sign`): Ed25519 over the manifest's bytes as
 * served, base64. The publisher keeps the private key offline; the public key is published.
 * @param {string} text the manifest as served (manifestText)
 * @param {import('node:crypto').KeyLike} privateKey
 */
export const signManifest = (text, privateKey) => sign(null, Buffer.from(text), privateKey).toString('base64');

/**
 * Whether `signature` is the publisher's over `text`.
 * @param {string} text
 * @param {string} signature base64
 * @param {import('node:crypto').KeyLike} publicKey
 */
export function signedBy(text, signature, publicKey) {
  try {
    return verify(null, Buffer.from(text), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
