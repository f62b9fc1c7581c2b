import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiError } from '@/lib/errors';
import { backgroundAsset } from '@/lib/meeting/background-assets';
import { BACKGROUND_ASSET_FILES, BACKGROUND_ASSETS_VERSION } from '@/lib/meeting/client/background/assets';
import { choiceKey, parseChoice } from '@/lib/meeting/client/background/choice';
import { Segmenter, type TFLiteModule } from '@/lib/meeting/client/background/segmenter';
import { insidePerson, outsidePerson, syntheticPixel } from '../e2e/support/synthetic-person.mjs';

const PACKAGE = path.join(process.cwd(), 'node_modules', '@100mslive', 'hms-virtual-background');

describe('the remembered background choice', () => {
  it('reads back what was stored', () => {
    for (const choice of [
      { kind: 'off' },
      { kind: 'blur', strength: 'light' },
      { kind: 'blur', strength: 'strong' },
      { kind: 'image', image: 'forest' },
      { kind: 'image', image: 'own' },
    ] as const) {
      expect(parseChoice(JSON.parse(JSON.stringify(choice)))).toEqual(choice);
    }
  });

  it('reads anything else as off, never as a broken effect', () => {
    for (const stored of [null, 'blur', { kind: 'blur', strength: 'huge' }, { kind: 'image', image: '../../etc/passwd' }, { kind: 'video' }]) {
      expect(parseChoice(stored)).toEqual({ kind: 'off' });
    }
  });

  it('gives each choice its own key', () => {
    const keys = [{ kind: 'off' }, { kind: 'blur', strength: 'light' }, { kind: 'blur', strength: 'strong' }, { kind: 'image', image: 'dawn' }].map((choice) =>
      choiceKey(parseChoice(choice)),
    );
    expect(new Set(keys).size).toBe(4);
  });
});

describe('the segmentation files, served from the npm package', () => {
  it('are the installed package version (a new version is a new path, so no browser keeps a stale runtime)', () => {
    expect(JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')).version).toBe(BACKGROUND_ASSETS_VERSION);
  });

  it('answers the loader as an ES module, the WebAssembly and the model as they are', async () => {
    const loader = await backgroundAsset(BACKGROUND_ASSETS_VERSION, 'tflite-simd.mjs');
    expect(loader.type).toMatch(/^text\/javascript/);
    expect(new TextDecoder().decode(loader.body)).toMatch(/export default createTFLiteSIMDModule;\s*$/);
    const wasm = await backgroundAsset(BACKGROUND_ASSETS_VERSION, 'tflite-simd.wasm');
    expect(wasm.type).toBe('application/wasm');
    expect([...wasm.body.subarray(0, 4)]).toEqual([0, 0x61, 0x73, 0x6d]);
    const model = await backgroundAsset(BACKGROUND_ASSETS_VERSION, 'selfie-landscape.tflite');
    expect(new TextDecoder().decode(model.body.subarray(4, 8))).toBe('TFL3');
  });

  it.each([
    ['0.0.1', 'tflite-simd.wasm'],
    [BACKGROUND_ASSETS_VERSION, 'package.json'],
    [BACKGROUND_ASSETS_VERSION, '..%2Fpackage.json'],
    [BACKGROUND_ASSETS_VERSION, 'toString'],
  ])('refuses version %s file %s with a catalogue code', async (version, file) => {
    const error = await backgroundAsset(version, file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('incorrect_data');
    expect((error as ApiError).status).toBe(404);
  });
});

describe('the segmentation model on the synthetic person of the e2e camera', () => {
  let segmenter: Segmenter;
  beforeAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- Emscripten's loader is CommonJS
    const create = require(path.join(PACKAGE, BACKGROUND_ASSET_FILES['tflite-simd.mjs'].source)) as (options: object) => Promise<TFLiteModule>;
    const tflite = await create({
      wasmBinary: readFileSync(path.join(PACKAGE, BACKGROUND_ASSET_FILES['tflite-simd.wasm'].source)),
      print: () => undefined,
      printErr: () => undefined,
    });
    segmenter = Segmenter.withModel(tflite, readFileSync(path.join(PACKAGE, BACKGROUND_ASSET_FILES['selfie-landscape.tflite'].source)));
  });

  function maskOf(person: boolean) {
    const { width, height } = segmenter;
    const pixels = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const [r, g, b] = syntheticPixel(x + 0.5, y + 0.5, width, height, person) as number[];
        pixels.set([r!, g!, b!, 255], (y * width + x) * 4);
      }
    }
    const mask = new Uint8ClampedArray(width * height * 4);
    segmenter.segment(pixels, mask);
    return (u: number, v: number) => mask[(Math.floor(v * height) * width + Math.floor(u * width)) * 4 + 3]!;
  }

  const grid = Array.from({ length: 32 * 18 }, (_, i) => ({ u: ((i % 32) + 0.5) / 32, v: (Math.floor(i / 32) + 0.5) / 18 }));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

  it('finds the person and not the room', () => {
    const alpha = maskOf(true);
    const person = grid.filter(({ u, v }) => insidePerson(u, v, 16 / 9)).map(({ u, v }) => alpha(u, v));
    const room = grid.filter(({ u, v }) => outsidePerson(u, v, 16 / 9)).map(({ u, v }) => alpha(u, v));
    expect(mean(person)).toBeGreaterThan(200);
    expect(mean(room)).toBeLessThan(30);
  });

  it('finds nobody in the empty room', () => {
    const alpha = maskOf(false);
    expect(mean(grid.map(({ u, v }) => alpha(u, v)))).toBeLessThan(10);
  });
});
