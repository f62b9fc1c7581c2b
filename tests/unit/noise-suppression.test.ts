/** @jest-environment jsdom */
// Noise suppression's small parts: the choice remembered on this device (on unless turned off),
// the meeting page alone allowed to compile WebAssembly, and the filter's code kept out of the
// call's first load (only a dynamic import reaches it). The filter itself runs in Chromium:
// tests/e2e/meeting-noise.spec.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isWasmPage, pagePolicy } from '@/lib/security/csp';

type Preference = typeof import('@/lib/meeting/client/media/noise-suppression-preference');

/** A fresh copy of the module: it keeps the choice in memory once read. */
function preference(): Preference {
  let loaded: Preference | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<Preference>('@/lib/meeting/client/media/noise-suppression-preference');
  });
  return loaded!;
}

beforeEach(() => localStorage.clear());

describe('the noise-suppression choice', () => {
  it('is on by default, on the server too', () => {
    const { noiseSuppressionOn, serverNoiseSuppression } = preference();
    expect(noiseSuppressionOn()).toBe(true);
    expect(serverNoiseSuppression()).toBe(true);
  });

  it('is remembered on this device beside the device choice, and followers hear of a change', () => {
    const first = preference();
    const heard = jest.fn();
    const unsubscribe = first.subscribeNoiseSuppression(heard);
    first.setNoiseSuppression(false);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(first.noiseSuppressionOn()).toBe(false);
    expect(localStorage.getItem('enclave.noiseSuppression')).toBe('off');
    unsubscribe();
    first.setNoiseSuppression(true);
    expect(heard).toHaveBeenCalledTimes(1);
    // The next page reads it back.
    localStorage.setItem('enclave.noiseSuppression', 'off');
    expect(preference().noiseSuppressionOn()).toBe(false);
  });

  it('stays on when storage cannot be read (private mode)', () => {
    const getItem = jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    try {
      expect(preference().noiseSuppressionOn()).toBe(true);
    } finally {
      getItem.mockRestore();
    }
  });

  it('is offered only where AudioWorklet exists', () => {
    const { noiseSuppressionSupported } = preference();
    expect(noiseSuppressionSupported()).toBe(false); // jsdom has no Web Audio
    Object.assign(window, { AudioWorkletNode: function AudioWorkletNode() {} });
    try {
      expect(noiseSuppressionSupported()).toBe(true);
    } finally {
      delete (window as { AudioWorkletNode?: unknown }).AudioWorkletNode;
    }
  });
});

describe('WebAssembly in the Content-Security-Policy', () => {
  it('is allowed on the meeting page only', () => {
    expect(['/now/abc123', '/now/abc123/'].map(isWasmPage)).toEqual([true, true]);
    expect(['/now', '/login', '/settings', '/now/abc/other', '/'].map(isWasmPage)).toEqual([false, false, false, false, false]);
  });

  it("adds 'wasm-unsafe-eval' and never JavaScript's eval", () => {
    const meeting = pagePolicy('n0nce', false, { wasm: true });
    expect(meeting).toContain("script-src 'self' 'nonce-n0nce' 'strict-dynamic' 'wasm-unsafe-eval'");
    expect(meeting).not.toMatch(/[ ']unsafe-eval/);
    expect(pagePolicy('n0nce', false)).not.toContain('unsafe-eval');
  });
});

describe('the filter stays out of the call’s first load', () => {
  it('only dynamic imports reach lib/meeting/client/media/noise-suppression.ts and its package', () => {
    const sources = ['app', 'components', 'lib']
      .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => path.join(dir, file)))
      .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('noise-suppression.ts'));
    expect(sources.length).toBeGreaterThan(100);
    const staticImports = sources.filter((file) => {
      const text = readFileSync(path.join(process.cwd(), file), 'utf8');
      return /^import (?!type )[^;]*from '(@\/lib\/meeting\/client\/media\/noise-suppression|@sapphi-red\/web-noise-suppressor)'/m.test(text);
    });
    expect(staticImports).toEqual([]);
  });
});
