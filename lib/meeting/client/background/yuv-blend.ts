// The background effect on one YUV plane, in plain typed-array loops (no canvas, no RGB): a
// blurred background made small (downscale, box blur) and scaled up bilinearly, and the person's
// mask (the model's 256×144) scaled up bilinearly while the background is blended in. Pixels the
// mask calls all person are never touched, so the person stays exactly as the camera gave it.
// Pure functions, no allocation per frame: the unit test runs them in Node.
import type { PlaneAt } from './yuv-planes';

/**
 * Bilinear resampling of `source` samples onto `target` (centres aligned): target position d
 * reads source `index[d]` and `index[d] + 1`, the second weighted `weight[d]` of 256. `start[i]`
 * is the first target position whose index is at least i: positions blending samples i and i+1
 * run from start[i] to start[i + 1].
 */
export interface Resample {
  index: Int32Array;
  weight: Int32Array;
  start: Int32Array;
}

export function resample(source: number, target: number): Resample {
  if (source < 2) throw new Error('resample: at least two source samples');
  const index = new Int32Array(target);
  const weight = new Int32Array(target);
  for (let d = 0; d < target; d += 1) {
    const s = ((d + 0.5) * source) / target - 0.5;
    if (s <= 0) continue;
    if (s >= source - 1) {
      index[d] = source - 2;
      weight[d] = 256;
      continue;
    }
    index[d] = Math.floor(s);
    weight[d] = Math.round((s - index[d]!) * 256);
  }
  // index only grows with d: each i's first position is where index first reaches it.
  const start = new Int32Array(source).fill(target);
  for (let d = 0, i = 0; d < target; d += 1) {
    for (; i <= index[d]!; i += 1) start[i] = d;
  }
  return { index, weight, start };
}

/** Where each of `cells` blocks of a `length` span starts (and, last, `length`): a downscale's block bounds. */
export function blockBounds(length: number, cells: number): Int32Array {
  return Int32Array.from({ length: cells + 1 }, (_, i) => Math.floor((i * length) / cells));
}

/**
 * A plane made small by averaging each block (`columns`, `rows`: blockBounds), reading every
 * other sample of it each way: a blur follows, and reading a quarter of the plane is what makes
 * this cheap.
 */
export function downscale(source: Uint8Array, plane: PlaneAt, columns: Int32Array, rows: Int32Array, out: Uint8Array) {
  const { offset, stride, step } = plane;
  const dw = columns.length - 1;
  const dh = rows.length - 1;
  for (let by = 0; by < dh; by += 1) {
    const y0 = rows[by]!;
    const y1 = Math.max(y0 + 1, rows[by + 1]!);
    for (let bx = 0; bx < dw; bx += 1) {
      const x0 = columns[bx]!;
      const x1 = Math.max(x0 + 1, columns[bx + 1]!);
      let sum = 0;
      let count = 0;
      for (let y = y0; y < y1; y += 2) {
        const row = offset + y * stride;
        for (let x = x0; x < x1; x += 2) {
          sum += source[row + x * step]!;
          count += 1;
        }
      }
      out[by * dw + bx] = (sum + (count >> 1)) / count;
    }
  }
}

/** One direction of a box blur: `count` lines of `length` samples, `along` apart, lines `across` apart; edges repeated. */
function boxLines(from: Uint8Array, to: Uint8Array, count: number, length: number, along: number, across: number, radius: number) {
  const n = 2 * radius + 1;
  const last = (length - 1) * along;
  for (let line = 0; line < count; line += 1) {
    const base = line * across;
    let sum = from[base]! * (radius + 1);
    for (let k = 1; k <= radius; k += 1) sum += from[base + Math.min(k, length - 1) * along]!;
    for (let i = 0, at = base; i < length; i += 1, at += along) {
      to[at] = (sum + radius) / n;
      const enter = i + radius + 1 < length ? at + (radius + 1) * along : base + last;
      const leave = i - radius > 0 ? at - radius * along : base;
      sum += from[enter]! - from[leave]!;
    }
  }
}

/** A box blur of `radius`, across then down, edges repeated (no dark border); `scratch` is as large as `plane`. */
export function boxBlur(plane: Uint8Array, width: number, height: number, radius: number, scratch: Uint8Array) {
  boxLines(plane, scratch, height, width, 1, width, radius);
  boxLines(scratch, plane, width, height, width, 1, radius);
}

/** Each row of a small `sw` × `rows` plane scaled across to `columns.index.length` (bilinear): `out` is rows × that width. */
export function widenRows(small: Uint8Array, sw: number, rows: number, columns: Resample, out: Uint8Array) {
  const { index, weight } = columns;
  const width = index.length;
  for (let r = 0; r < rows; r += 1) {
    const from = r * sw;
    const to = r * width;
    for (let x = 0; x < width; x += 1) {
      const i = from + index[x]!;
      const w = weight[x]!;
      out[to + x] = (small[i]! * (256 - w) + small[i + 1]! * w + 128) >> 8;
    }
  }
}

/**
 * The background behind a plane: rows of `width` bytes in `pixels` (`words`: the same bytes as
 * 32-bit words); output row y is row `rows.index[y]` blended with the next by `rows.weight[y]`
 * (a blur's widened rows), or, with `rows` null, row y itself (a picture at the frame's size).
 */
export interface Backdrop {
  pixels: Uint8Array;
  words: Int32Array;
  rows: Resample | null;
}

export function backdrop(pixels: Uint8Array, rows: Resample | null): Backdrop {
  return { pixels, words: new Int32Array(pixels.buffer, pixels.byteOffset, pixels.length >> 2), rows };
}

/** What a cell of the mask (four neighbouring samples) covers. */
const BACKGROUND = 0;
const PERSON = 1;
const EDGE = 2;

/**
 * The mask (mw × mh) as runs of cells, row of cells by row of cells: cell (j, r) has the samples
 * j, j + 1 of rows r, r + 1 at its corners; all four 255 is PERSON (kept as it is, whatever the
 * weights between them), all four 0 is BACKGROUND, anything else an EDGE. `runs` holds
 * (first cell, end cell, cover) triples; those of row r are from `first[r]` to `first[r + 1]`.
 */
export interface MaskRuns {
  first: Int32Array;
  runs: Int32Array;
}

export function maskRuns(mw: number, mh: number): MaskRuns {
  return { first: new Int32Array(mh), runs: new Int32Array(3 * (mw - 1) * (mh - 1)) };
}

export function findRuns(mask: Uint8Array, mw: number, mh: number, out: MaskRuns) {
  const { first, runs } = out;
  let n = 0;
  for (let r = 0; r < mh - 1; r += 1) {
    first[r] = n;
    const top = r * mw;
    let kind = -1;
    for (let j = 0; j < mw - 1; j += 1) {
      const t = top + j;
      const sum = mask[t]! + mask[t + 1]! + mask[t + mw]! + mask[t + mw + 1]!;
      const cover = sum === 0 ? BACKGROUND : sum === 1020 ? PERSON : EDGE;
      if (cover === kind) {
        runs[n - 2] = j + 1;
        continue;
      }
      runs[n] = j;
      runs[n + 1] = j + 1;
      runs[n + 2] = cover;
      n += 3;
      kind = cover;
    }
  }
  first[mh - 1] = n;
}

/** One plane the mask is applied to, and what goes behind it. */
export interface BlendTarget {
  plane: PlaneAt;
  backdrop: Backdrop;
}

/**
 * `n` bytes of background from rows `a` and `b` (b weighted `wb` of 128) into `out` at `o`,
 * `step` apart. Where out, a and b line up on 4 bytes, 4 at a time in 32-bit words: two lanes
 * for the even bytes, two for the odd ones; a lane (≤ 255 × 128) never carries into the next,
 * and no sum leaves 31 bits. Weights of 128 rather than 256 for that: the byte-wise loops use
 * them too, so that both give the same pixels.
 */
function fill(out: Uint8Array, outWords: Int32Array, o: number, step: number, back: Backdrop, a: number, b: number, wb: number, n: number) {
  const bg = back.pixels;
  const wa = 128 - wb;
  let i = 0;
  if (step === 1) {
    for (; i < n && (o + i) & 3; i += 1) out[o + i] = (bg[a + i]! * wa + bg[b + i]! * wb + 64) >> 7;
    if (((a + i) & 3) === 0 && ((b + i) & 3) === 0) {
      const words = back.words;
      const count = (n - i) >> 2;
      const p = (o + i) >> 2;
      const pa = (a + i) >> 2;
      const pb = (b + i) >> 2;
      if (wb === 0) outWords.set(words.subarray(pa, pa + count), p);
      else {
        for (let k = 0; k < count; k += 1) {
          const x = words[pa + k]!;
          const y = words[pb + k]!;
          const even = ((Math.imul(x & 0xff00ff, wa) + Math.imul(y & 0xff00ff, wb) + 0x400040) >> 7) & 0xff00ff;
          const odd = ((Math.imul((x >> 8) & 0xff00ff, wa) + Math.imul((y >> 8) & 0xff00ff, wb) + 0x400040) >> 7) & 0xff00ff;
          outWords[p + k] = even | (odd << 8);
        }
      }
      i += count << 2;
    }
  }
  for (; i < n; i += 1) out[o + i * step] = (bg[a + i]! * wa + bg[b + i]! * wb + 64) >> 7;
}

/**
 * The person's mask on planes of one size (`width` × `height`, at `targets[i].plane` in `frame`;
 * `frameWords` the same bytes as 32-bit words), in place: where the mask is 255 the pixel is
 * kept, where 0 it becomes the backdrop's, between the two they are blended. `mask` is mw wide
 * (0–255), `runs` its cells (findRuns); `maskColumns`/`maskRows` resample it onto the planes.
 */
export function blendPlanes(
  frame: Uint8Array,
  frameWords: Int32Array,
  targets: readonly BlendTarget[],
  width: number,
  height: number,
  mask: Uint8Array,
  mw: number,
  runs: MaskRuns,
  maskColumns: Resample,
  maskRows: Resample,
) {
  const { start, weight: wx } = maskColumns;
  const cells = runs.runs;
  for (let y = 0; y < height; y += 1) {
    const r = maskRows.index[y]!;
    const wm = maskRows.weight[y]!;
    const top = r * mw;
    const end = runs.first[r + 1]!;
    for (const { plane, backdrop: back } of targets) {
      const { offset, stride, step } = plane;
      let a = y * width;
      let wb = 0;
      if (back.rows) {
        a = back.rows.index[y]! * width;
        wb = back.rows.weight[y]! >> 1;
      }
      const b = back.rows ? a + width : a;
      const wa = 128 - wb;
      const bg = back.pixels;
      const row = offset + y * stride;
      for (let run = runs.first[r]!; run < end; run += 3) {
        const cover = cells[run + 2]!;
        if (cover === PERSON) continue;
        const from = cells[run]!;
        const to = cells[run + 1]!;
        if (cover === BACKGROUND) {
          const x = start[from]!;
          fill(frame, frameWords, row + x * step, step, back, a + x, b + x, wb, start[to]! - x);
          continue;
        }
        // Edge cells: the mask blended down then across, 0–65280, stretched to 0–65536 so that
        // 255 keeps the pixel exactly.
        for (let j = from; j < to; j += 1) {
          const left = mask[top + j]! * (256 - wm) + mask[top + mw + j]! * wm;
          const right = mask[top + j + 1]! * (256 - wm) + mask[top + mw + j + 1]! * wm;
          const span = right - left;
          const last = start[j + 1]!;
          for (let x = start[j]!; x < last; x += 1) {
            let m = left + ((span * wx[x]! + 128) >> 8);
            m += (m >> 8) + (m >> 15);
            const at = row + x * step;
            const behind = (bg[a + x]! * wa + bg[b + x]! * wb + 64) >> 7;
            frame[at] = behind + (((frame[at]! - behind) * m + 32768) >> 16);
          }
        }
      }
    }
  }
}
