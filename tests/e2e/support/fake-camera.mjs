// A fake camera file for Chromium's --use-file-for-fake-video-capture: the synthetic person of
// synthetic-person.mjs as YUV4MPEG2 (I420), written once per size into the system's temp folder.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { syntheticPixel } from './synthetic-person.mjs';

/** BT.601 studio range, as Chromium reads a y4m file. */
function toYuv([r, g, b]) {
  return [
    16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256,
    128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256,
    128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256,
  ];
}

/** The path of a `width` × `height` y4m of the synthetic person (or of the background alone). */
export function syntheticCameraFile(width, height, { person = true, frames = 2, fps = 30 } = {}) {
  const file = path.join(tmpdir(), `enclave-synthetic-${person ? 'person' : 'room'}-${width}x${height}.y4m`);
  if (existsSync(file)) return file;
  const luma = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  const chroma = new Float64Array(u.length * 2);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [yy, cb, cr] = toYuv(syntheticPixel(x + 0.5, y + 0.5, width, height, person));
      luma[y * width + x] = Math.round(yy);
      const c = (y >> 1) * (width / 2) + (x >> 1);
      chroma[c * 2] += cb / 4;
      chroma[c * 2 + 1] += cr / 4;
    }
  }
  for (let c = 0; c < u.length; c += 1) {
    u[c] = Math.round(chroma[c * 2]);
    v[c] = Math.round(chroma[c * 2 + 1]);
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  // Written beside, then renamed: a browser started by a parallel worker never reads half a file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
  renameSync(partial, file);
  return file;
}
