#!/usr/bin/env node
// `node bench/noise-suppression.mjs`: what the microphone's noise filter (RNNoise in an
// AudioWorklet, lib/meeting/client/media/noise-suppression.ts) costs the sender's CPU, as milliseconds
// per 10 ms frame of audio (480 samples at 48 kHz, RNNoise's frame) and as a share of one core.
// Two measurements of the very files the app serves (@sapphi-red/web-noise-suppressor's worklet
// and wasm):
// - Node: the worklet's processor class, driven block by block (128 samples, as the audio
//   thread calls it), SIMD and plain wasm; CPU time from process.cpuUsage().
// - Chromium (Debian's, headless): an OfflineAudioContext renders SECONDS of audio through the
//   worklet, and again without it; the difference is the filter's share of the audio thread
//   (wall time: on a loaded machine it reads high, which the load printed at the top tells).
// The input is pink-ish noise with a tone in bursts (RNNoise's work per frame does not depend on
// what it hears). Asserts nothing. SECONDS (default 60) sets the length; BROWSER=0 skips Chromium.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sleep } from './lib/time.mjs';

const require = createRequire(import.meta.url);
const SECONDS = Number(process.env.SECONDS ?? 60);
const RATE = 48_000;
const BLOCK = 128;
const FRAME = 480;
const frames = (SECONDS * RATE) / FRAME;
const packageDir = path.dirname(require.resolve('@sapphi-red/web-noise-suppressor/rnnoise.wasm'));
const workletFile = path.join(packageDir, 'rnnoise', 'workletProcessor.js');

/** Deterministic test signal: noise (a leaky sum of randoms) plus a 220 Hz tone every other second. */
function signal(samples) {
  const out = new Float32Array(samples);
  let seed = 1;
  let brown = 0;
  for (let i = 0; i < samples; i += 1) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    brown = 0.98 * brown + 0.02 * (seed / 0x7fffffff - 0.5);
    const voice = Math.floor(i / RATE) % 2 === 0 ? 0.2 * Math.sin((2 * Math.PI * 220 * i) / RATE) : 0;
    out[i] = 0.3 * brown + voice;
  }
  return out;
}

async function nodeRun(wasmName) {
  let Processor;
  globalThis.AudioWorkletProcessor = class {
    port = { addEventListener() {}, postMessage() {} };
  };
  globalThis.registerProcessor = (_name, processor) => {
    Processor = processor;
  };
  // A fresh module instance per run (the query), each registering its processor class.
  await import(`${pathToFileURL(workletFile).href}?${wasmName}`);
  const wasmBinary = (await readFile(path.join(packageDir, wasmName))).buffer;
  // Emscripten's glue takes Node for Node by its `process` and then wants CommonJS: hidden while
  // the module instantiates, so that it runs its browser path, as in the worklet.
  const nodeProcess = globalThis.process;
  Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
  let processor;
  try {
    processor = new Processor({ processorOptions: { wasmBinary, maxChannels: 1 } });
    while (!processor.processor) await sleep(5);
  } finally {
    Object.defineProperty(globalThis, 'process', { value: nodeProcess, configurable: true, writable: true });
  }
  const input = signal(SECONDS * RATE);
  const output = new Float32Array(BLOCK);
  const blocks = input.length / BLOCK;
  // Warm-up: a second of audio, so the JIT has compiled the glue.
  for (let i = 0; i < RATE / BLOCK; i += 1) processor.process([[input.subarray(i * BLOCK, (i + 1) * BLOCK)]], [[output]], {});
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < blocks; i += 1) processor.process([[input.subarray(i * BLOCK, (i + 1) * BLOCK)]], [[output]], {});
  const wallMs = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  processor.destroy();
  return { cpuMs, wallMs };
}

async function browserRun() {
  const { launchChromium, offlineArgs } = await import('../tests/support/chromium.mjs');
  const files = {
    '/worklet.js': { body: await readFile(workletFile), type: 'text/javascript' },
    '/rnnoise_simd.wasm': { body: await readFile(path.join(packageDir, 'rnnoise_simd.wasm')), type: 'application/wasm' },
    '/': { body: '<!doctype html><title>bench</title>', type: 'text/html' },
  };
  // A real server on loopback: worklet scripts are not seen by page.route, and localhost is a
  // secure context (AudioWorklet needs one).
  const server = http.createServer((request, response) => {
    const file = files[new URL(request.url, 'http://localhost').pathname];
    response.writeHead(file ? 200 : 404, { 'content-type': file?.type ?? 'text/plain' }).end(file?.body ?? '');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium({ args: offlineArgs });
  try {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${server.address().port}/`);
    return await page.evaluate(
      async ({ seconds, rate }) => {
        const wasm = await (await fetch('/rnnoise_simd.wasm')).arrayBuffer();
        const render = async (filtered) => {
          const context = new OfflineAudioContext(1, seconds * rate, rate);
          await context.audioWorklet.addModule('/worklet.js');
          const buffer = context.createBuffer(1, seconds * rate, rate);
          const data = buffer.getChannelData(0);
          for (let i = 0; i < data.length; i += 1)
            data[i] = 0.05 * (Math.random() - 0.5) + (Math.floor(i / rate) % 2 ? 0 : 0.2 * Math.sin((2 * Math.PI * 220 * i) / rate));
          const source = context.createBufferSource();
          source.buffer = buffer;
          let last = source;
          if (filtered) {
            const node = new AudioWorkletNode(context, '@sapphi-red/web-noise-suppressor/rnnoise', {
              processorOptions: { wasmBinary: wasm, maxChannels: 1 },
            });
            last = source.connect(node);
            // Let the processor instantiate its wasm before the clock starts.
            await new Promise((resolve) => setTimeout(resolve, 300));
          }
          last.connect(context.destination);
          source.start();
          const start = performance.now();
          await context.startRendering();
          return performance.now() - start;
        };
        await render(true); // warm-up
        const plain = Math.min(await render(false), await render(false));
        const filtered = Math.min(await render(true), await render(true));
        return { plain, filtered };
      },
      { seconds: Math.min(SECONDS, 30), rate: RATE },
    );
  } finally {
    await browser.close();
    server.close();
  }
}

const line = (label, ms, frameCount) =>
  `${label.padEnd(34)} ${(ms / frameCount).toFixed(3)} ms per 10 ms frame  (${((ms / frameCount / 10) * 100).toFixed(2)} % of one core)`;

console.log(
  `Noise suppression (RNNoise, @sapphi-red/web-noise-suppressor) on ${os.cpus()[0]?.model ?? 'this CPU'}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}`,
);
console.log(`${SECONDS} s of 48 kHz mono audio = ${frames} frames of 480 samples\n`);
for (const wasm of ['rnnoise_simd.wasm', 'rnnoise.wasm']) {
  const { cpuMs, wallMs } = await nodeRun(wasm);
  console.log(line(`Node ${process.version}, ${wasm}`, cpuMs, frames), ` wall ${(wallMs / frames).toFixed(3)} ms`);
}
if (process.env.BROWSER !== '0') {
  const seconds = Math.min(SECONDS, 30);
  const browserFrames = (seconds * RATE) / FRAME;
  const { plain, filtered } = await browserRun();
  console.log(line('Chromium, rendering without filter', plain, browserFrames));
  console.log(line('Chromium, rendering with filter', filtered, browserFrames));
  console.log(line('Chromium, the filter alone', filtered - plain, browserFrames));
}
