// The background effect on a camera frame's own YUV planes (yuv-planes.ts, yuv-blend.ts,
// yuv-background.ts), run in Node on the e2e camera's picture: the synthetic person of
// tests/e2e/support/synthetic-person.mjs as the y4m file Chromium films (I420), segmented by the
// real model. What is checked is pixels: the person's stay exactly, the background's are
// blurred or replaced, whatever the layout (I420, NV12, padded rows).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BACKGROUND_ASSET_FILES } from '@/lib/meeting/client/background/assets';
import { Segmenter, type TFLiteModule } from '@/lib/meeting/client/background/segmenter';
import { YuvBackground } from '@/lib/meeting/client/background/yuv-background';
import { boxBlur, resample } from '@/lib/meeting/client/background/yuv-blend';
import { fillModelInput, i420Size, packedI420, rgbaToYuv, yuvLayout, type YuvLayout } from '@/lib/meeting/client/background/yuv-planes';
import { syntheticCameraFile } from '../e2e/support/fake-camera.mjs';
import { insidePerson, outsidePerson } from '../e2e/support/synthetic-person.mjs';

const PACKAGE = path.join(process.cwd(), 'node_modules', '@100mslive', 'hms-virtual-background');
const W = 640;
const H = 360;

/** The fake camera's first frame, packed I420. */
function cameraFrame(): Uint8Array {
  const file = readFileSync(syntheticCameraFile(W, H));
  const start = file.indexOf('FRAME\n') + 'FRAME\n'.length;
  return new Uint8Array(file.subarray(start, start + i420Size(W, H)));
}

/** The same picture as NV12 with padded rows (2 spare bytes each) after a 2-byte header: nothing lines up on 4 bytes. */
function asPaddedNv12(i420: Uint8Array): { buffer: Uint8Array; layout: YuvLayout } {
  const source = packedI420(W, H);
  const stride = W + 2;
  const uvAt = 2 + stride * H;
  const layout = yuvLayout('NV12', W, H, [
    { offset: 2, stride },
    { offset: uvAt, stride },
  ]);
  const buffer = new Uint8Array(uvAt + stride * (H / 2));
  for (let y = 0; y < H; y += 1) buffer.set(i420.subarray(y * W, y * W + W), 2 + y * stride);
  for (let y = 0; y < H / 2; y += 1) {
    for (let x = 0; x < W / 2; x += 1) {
      buffer[uvAt + y * stride + 2 * x] = i420[source.u.offset + y * (W / 2) + x]!;
      buffer[uvAt + y * stride + 2 * x + 1] = i420[source.v.offset + y * (W / 2) + x]!;
    }
  }
  return { buffer, layout };
}

/** Pixel (x, y) of a frame as RGB (BT.601 studio range). */
function rgbAt(buffer: Uint8Array, layout: YuvLayout, x: number, y: number): [number, number, number] {
  const luma = 1.164 * (buffer[layout.y.offset + y * layout.y.stride + x]! - 16);
  const c = (y >> 1) * layout.u.stride + (x >> 1) * layout.u.step;
  const u = buffer[layout.u.offset + c]! - 128;
  const v = buffer[layout.v.offset + c]! - 128;
  return [luma + 1.596 * v, luma - 0.392 * u - 0.813 * v, luma + 2.017 * u];
}

const grid = Array.from({ length: 32 * 18 }, (_, i) => ({ x: Math.floor((((i % 32) + 0.5) / 32) * W), y: Math.floor(((Math.floor(i / 32) + 0.5) / 18) * H) }));
const personPoints = grid.filter(({ x, y }) => insidePerson(x / W, y / H, W / H));
const roomPoints = grid.filter(({ x, y }) => outsidePerson(x / W, y / H, W / H));
/** The first byte where two buffers differ, or -1 (quicker than toEqual on a megabyte, and says where). */
const firstDifference = (a: Uint8Array, b: Uint8Array) => (a.length !== b.length ? 0 : a.findIndex((value, i) => value !== b[i]));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
/** Mean |difference| of the luma between two frames over points. */
const lumaDiff = (a: Uint8Array, b: Uint8Array, points: { x: number; y: number }[]) => mean(points.map(({ x, y }) => Math.abs(a[y * W + x]! - b[y * W + x]!)));
const roomPixels = Array.from({ length: (W - 1) * (H - 1) }, (_, i) => ({ x: i % (W - 1), y: Math.floor(i / (W - 1)) })).filter(({ x, y }) =>
  outsidePerson(x / W, y / H, W / H),
);
/** Mean |step| of the luma to the next pixel across and down, over the whole room: how sharp the background is. */
const roomSharpness = (frame: Uint8Array) =>
  mean(roomPixels.map(({ x, y }) => Math.abs(frame[y * W + x + 1]! - frame[y * W + x]!) + Math.abs(frame[(y + 1) * W + x]! - frame[y * W + x]!)));

let segmenter: Segmenter;
let personMask: Uint8Array;
const camera = cameraFrame();
const layout = packedI420(W, H);

beforeAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- Emscripten's loader is CommonJS
  const create = require(path.join(PACKAGE, BACKGROUND_ASSET_FILES['tflite-simd.mjs'].source)) as (options: object) => Promise<TFLiteModule>;
  const tflite = await create({
    wasmBinary: readFileSync(path.join(PACKAGE, BACKGROUND_ASSET_FILES['tflite-simd.wasm'].source)),
    print: () => undefined,
    printErr: () => undefined,
  });
  segmenter = Segmenter.withModel(tflite, readFileSync(path.join(PACKAGE, BACKGROUND_ASSET_FILES['selfie-landscape.tflite'].source)));
  personMask = new Uint8Array(segmenter.width * segmenter.height);
  segmenter.segmentWith((input) => fillModelInput(camera, layout, input, segmenter.width, segmenter.height), personMask);
});

/** A background effect with the model's mask of the camera picture. */
function background(mask = personMask): YuvBackground {
  const effect = new YuvBackground(segmenter.width, segmenter.height);
  effect.mask.set(mask);
  effect.maskChanged();
  return effect;
}

describe("the model's input, sampled from the camera's planes", () => {
  it('finds the person and not the room', () => {
    const alpha = (x: number, y: number) => personMask[Math.floor((y / H) * segmenter.height) * segmenter.width + Math.floor((x / W) * segmenter.width)]!;
    expect(mean(personPoints.map(({ x, y }) => alpha(x, y)))).toBeGreaterThan(200);
    expect(mean(roomPoints.map(({ x, y }) => alpha(x, y)))).toBeLessThan(30);
  });

  it('reads the colours the camera filmed', () => {
    const input = new Float32Array(segmenter.width * segmenter.height * 3);
    fillModelInput(camera, layout, input, segmenter.width, segmenter.height);
    // The shirt (blue stripes, RGB ≈ 40–46, 70–78, 120–132) at the bottom middle.
    const at = ((segmenter.height - 4) * segmenter.width + segmenter.width / 2) * 3;
    const rgb = [...input.subarray(at, at + 3)].map((value) => value * 255);
    [43, 74, 126].forEach((expected, i) => expect(Math.abs(rgb[i]! - expected)).toBeLessThan(8));
  });
});

describe('blur on the planes', () => {
  it.each(['light', 'strong'] as const)('%s: the person stays to the byte, the room is washed out', (strength) => {
    const frame = camera.slice();
    const effect = background();
    effect.blur(strength);
    effect.apply(frame, layout);
    expect(lumaDiff(frame, camera, personPoints)).toBe(0);
    // Every pixel whose four nearest mask samples are all 255 is the camera's, luma and chroma.
    const columns = resample(segmenter.width, W);
    const rows = resample(segmenter.height, H);
    let kept = 0;
    for (let y = 0; y < H; y += 1) {
      for (let x = 0; x < W; x += 1) {
        const m = rows.index[y]! * segmenter.width + columns.index[x]!;
        if (personMask[m] === 255 && personMask[m + 1] === 255 && personMask[m + segmenter.width] === 255 && personMask[m + segmenter.width + 1] === 255) {
          kept += 1;
          if (frame[y * W + x] !== camera[y * W + x]) throw new Error(`person pixel ${x},${y} changed`);
        }
      }
    }
    expect(kept).toBeGreaterThan(W * H * 0.1);
    expect(lumaDiff(frame, camera, roomPoints)).toBeGreaterThan(8);
    expect(roomSharpness(frame)).toBeLessThan(roomSharpness(camera) / 3);
  });

  it('blurs more when strong', () => {
    const [light, strong] = (['light', 'strong'] as const).map((strength) => {
      const frame = camera.slice();
      const effect = background();
      effect.blur(strength);
      effect.apply(frame, layout);
      return roomSharpness(frame);
    });
    expect(strong).toBeLessThan(light!);
  });

  it('leaves a plain frame plain, to its edges (no dark border)', () => {
    const frame = new Uint8Array(i420Size(W, H)).fill(128);
    frame.fill(100, 0, W * H);
    const effect = background(new Uint8Array(segmenter.width * segmenter.height));
    effect.blur('strong');
    effect.apply(frame, layout);
    expect(new Set(frame.subarray(0, W * H))).toEqual(new Set([100]));
    expect(new Set(frame.subarray(W * H))).toEqual(new Set([128]));
  });

  it('gives the same pixels on NV12 with padded rows as on packed I420', () => {
    const packed = camera.slice();
    const effect = background();
    effect.blur('light');
    effect.apply(packed, layout);
    const nv12 = asPaddedNv12(camera);
    const other = background();
    other.blur('light');
    other.apply(nv12.buffer, nv12.layout);
    expect(firstDifference(asPaddedNv12(packed).buffer, nv12.buffer)).toBe(-1);
  });

  it('box blur keeps the mean of a step and spreads it', () => {
    const plane = new Uint8Array(20).map((_, i) => (i < 10 ? 0 : 200));
    boxBlur(plane, 20, 1, 2, new Uint8Array(20));
    expect([...plane.subarray(7, 13)]).toEqual([0, 40, 80, 120, 160, 200]);
    expect(plane[0]).toBe(0);
    expect(plane[19]).toBe(200);
  });
});

describe('a picture behind the person', () => {
  // A green picture with a gradient across: RGB (20, 160 + x/8, 40).
  const picture = new Uint8Array(W * H * 4);
  for (let i = 0; i < W * H; i += 1) picture.set([20, 160 + Math.floor((i % W) / 8), 40, 255], i * 4);

  it('replaces the room with the picture and keeps the person', () => {
    const frame = camera.slice();
    const effect = background();
    effect.wantPicture();
    expect(effect.needsPicture(W, H)).toBe(true);
    effect.usePicture(picture, W, H);
    expect(effect.needsPicture(W, H)).toBe(false);
    effect.apply(frame, layout);
    expect(lumaDiff(frame, camera, personPoints)).toBe(0);
    for (const { x, y } of roomPoints) {
      const [r, g, b] = rgbAt(frame, layout, x, y);
      expect(Math.abs(r - 20)).toBeLessThan(6);
      expect(Math.abs(g - (160 + Math.floor(x / 8)))).toBeLessThan(6);
      expect(Math.abs(b - 40)).toBeLessThan(6);
    }
  });

  it('is exactly the picture where the mask is 0, on NV12 too', () => {
    const expected = new Uint8Array(i420Size(W, H));
    rgbaToYuv(picture, expected, layout);
    const none = new Uint8Array(segmenter.width * segmenter.height);
    const frame = camera.slice();
    const effect = background(none);
    effect.usePicture(picture, W, H);
    effect.apply(frame, layout);
    expect(firstDifference(frame, expected)).toBe(-1);
    const nv12 = asPaddedNv12(camera);
    effect.apply(nv12.buffer, nv12.layout);
    expect(firstDifference(nv12.buffer, asPaddedNv12(expected).buffer)).toBe(-1);
  });

  it('is not drawn at another size until given there', () => {
    const effect = background(new Uint8Array(segmenter.width * segmenter.height));
    effect.usePicture(picture, W, H);
    expect(effect.needsPicture(W * 2, H * 2)).toBe(true);
    const frame = new Uint8Array(i420Size(W * 2, H * 2)).fill(77);
    effect.apply(frame, packedI420(W * 2, H * 2));
    expect(new Set(frame)).toEqual(new Set([77]));
  });
});

describe('resampling the mask onto a plane', () => {
  it('lines up the centres and clamps the edges', () => {
    const { index, weight, start } = resample(4, 8);
    expect([...index]).toEqual([0, 0, 0, 1, 1, 2, 2, 2]);
    expect([...weight]).toEqual([0, 64, 192, 64, 192, 64, 192, 256]);
    expect([...start]).toEqual([0, 3, 5, 8]);
  });
});
