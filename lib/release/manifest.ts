// The manifest of the build this folder holds (issue 47): what the server publishes at
// /.well-known/enclave/build.json and what `npm run verify` compares a server with. Every file a
// browser can load as code: the build's scripts, styles, workers and WebAssembly under
// /_next/static, the service worker, and the background effect's runtime (lib/meeting/background-assets.ts).
// Its model is data, like pictures and fonts, and is not listed.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { integrityOf, manifestOf, manifestText, staticAssets } from '@/lib/security/build-manifest.mjs';
import { backgroundAsset } from '@/lib/meeting/background-assets';
import { BACKGROUND_ASSET_FILES, BACKGROUND_ASSETS_VERSION, backgroundAssetUrl, type BackgroundAssetFile } from '@/lib/meeting/client/background/assets';
import { APP_VERSION } from '@/lib/version';

export interface BuildManifest {
  version: string;
  commit: string;
  assets: Record<string, string>;
}

/** The build's commit: its build id (next.config.mjs), when it is one. */
async function commitOf(distDir: string): Promise<string> {
  const id = (await readFile(path.join(distDir, 'BUILD_ID'), 'utf8')).trim();
  return /^[0-9a-f]{40}$/.test(id) ? id : 'unknown';
}

/** The manifest of the build in `root`/.next, with the files of `root`/public and node_modules it serves. */
export async function localManifest(root: string = process.cwd()): Promise<BuildManifest> {
  const distDir = path.join(root, '.next');
  const assets: Record<string, string> = await staticAssets(distDir);
  for (const worker of ['sw.js', 'sw-trust.js']) assets[`/${worker}`] = integrityOf(await readFile(path.join(root, 'public', worker)));
  for (const file of Object.keys(BACKGROUND_ASSET_FILES) as BackgroundAssetFile[]) {
    if (file.endsWith('.tflite')) continue;
    assets[backgroundAssetUrl(file)] = integrityOf((await backgroundAsset(BACKGROUND_ASSETS_VERSION, file)).body);
  }
  return manifestOf({ version: APP_VERSION, commit: await commitOf(distDir), assets });
}

let served: Promise<string> | null = null;

/** The manifest as this server publishes it: made once per process, the build never changes under it. */
export function servedManifest(): Promise<string> {
  served ??= localManifest().then(manifestText);
  served.catch(() => (served = null));
  return served;
}
