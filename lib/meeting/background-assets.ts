import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '@/lib/errors';
import { BACKGROUND_ASSET_FILES, BACKGROUND_ASSETS_VERSION, BACKGROUND_PACKAGE, type BackgroundAssetFile } from './client/background/assets';

const PACKAGE_DIR = path.join(process.cwd(), 'node_modules', BACKGROUND_PACKAGE);
// Emscripten's loader declares a global function; as a module, the worker imports it instead.
const AS_MODULE = '\nexport default createTFLiteSIMDModule;\n';

/** One of the background worker's files, read from the npm package once per process. */
const kept = new Map<BackgroundAssetFile, Promise<Uint8Array>>();

export async function backgroundAsset(version: string, file: string): Promise<{ body: Uint8Array; type: string }> {
  if (version !== BACKGROUND_ASSETS_VERSION || !Object.hasOwn(BACKGROUND_ASSET_FILES, file)) {
    throw new ApiError('incorrect_data', { status: 404 });
  }
  const name = file as BackgroundAssetFile;
  const { source, type } = BACKGROUND_ASSET_FILES[name];
  let body = kept.get(name);
  if (!body) {
    body = readFile(path.join(PACKAGE_DIR, source)).then((bytes) =>
      name.endsWith('.mjs') ? new TextEncoder().encode(bytes.toString('utf8') + AS_MODULE) : new Uint8Array(bytes),
    );
    kept.set(name, body);
    body.catch(() => kept.delete(name));
  }
  return { body: await body, type };
}
