// Person segmentation on the CPU: Google's selfie-segmentation model (landscape, 256×144) in a
// TensorFlow Lite WebAssembly build with XNNPACK and SIMD. Runs in the background worker.

/** The Emscripten module's exports we use (the build's C API: one model, one input, one output). */
export interface TFLiteModule {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  _getModelBufferMemoryOffset(): number;
  _loadModel(bytes: number): number;
  _getInputMemoryOffset(): number;
  _getInputWidth(): number;
  _getInputHeight(): number;
  _getOutputMemoryOffset(): number;
  _runInference(): number;
}
type CreateModule = (options: { locateFile: (file: string) => string }) => Promise<TFLiteModule>;

export interface SegmenterAssets {
  loader: string;
  wasm: string;
  model: string;
}

export class Segmenter {
  readonly width: number;
  readonly height: number;

  private constructor(private readonly tflite: TFLiteModule) {
    this.width = tflite._getInputWidth();
    this.height = tflite._getInputHeight();
  }

  static async load(assets: SegmenterAssets): Promise<Segmenter> {
    // The loader is fetched at run time, not bundled: it is served from the npm package.
    const { default: create } = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ assets.loader)) as { default: CreateModule };
    const [tflite, model] = await Promise.all([
      create({ locateFile: () => assets.wasm }),
      fetch(assets.model).then((response) => {
        if (!response.ok) throw new Error(`model: HTTP ${response.status}`);
        return response.arrayBuffer();
      }),
    ]);
    return Segmenter.withModel(tflite, new Uint8Array(model));
  }

  /** The model's bytes into a loaded runtime (also how the unit test runs it in Node). */
  static withModel(tflite: TFLiteModule, model: Uint8Array): Segmenter {
    tflite.HEAPU8.set(model, tflite._getModelBufferMemoryOffset());
    if (tflite._loadModel(model.byteLength) !== 0) throw new Error('model: not loaded');
    return new Segmenter(tflite);
  }

  /**
   * `pixels`: width × height RGBA. Writes the person's mask into `mask` (same size, RGBA): alpha
   * 255 where the model is sure of a person, 0 where sure of background, a ramp between (soft edges).
   */
  segment(pixels: Uint8ClampedArray, mask: Uint8ClampedArray) {
    this.segmentWith(
      (input) => {
        for (let i = 0, j = 0; j < pixels.length; i += 3, j += 4) {
          input[i] = pixels[j]! / 255;
          input[i + 1] = pixels[j + 1]! / 255;
          input[i + 2] = pixels[j + 2]! / 255;
        }
      },
      mask,
      4,
      3,
    );
  }

  /**
   * The model on an input `fill` writes (width × height × RGB in 0..1); the mask's alpha goes to
   * `mask[i * step + offset]` for pixel i.
   */
  segmentWith(fill: (input: Float32Array) => void, mask: Uint8ClampedArray | Uint8Array, step = 1, offset = 0) {
    const { tflite } = this;
    const count = this.width * this.height;
    // HEAPF32 is replaced when the module's memory grows: read it each time.
    const at = tflite._getInputMemoryOffset() / 4;
    fill(tflite.HEAPF32.subarray(at, at + count * 3));
    tflite._runInference();
    const out = tflite._getOutputMemoryOffset() / 4;
    const output = tflite.HEAPF32.subarray(out, out + count);
    for (let i = 0; i < count; i += 1) {
      // 0.3–0.7 becomes the edge's ramp: a clean cut with no hard stair-steps when scaled up.
      mask[i * step + offset] = Math.max(0, Math.min(255, (output[i]! - 0.3) * 637.5));
    }
  }
}
