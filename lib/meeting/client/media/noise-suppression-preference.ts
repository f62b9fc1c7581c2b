// Whether this device filters background noise out of the microphone (on unless turned off),
// remembered beside the device choice (devices.ts) under its own key; a small store that the
// lobby's and the call's toggles and the call's audio pipeline follow. The pipeline itself is in
// noise-suppression.ts, loaded only when it runs.

const STORAGE_KEY = 'enclave.noiseSuppression';

const listeners = new Set<() => void>();
let current: boolean | null = null;

export function noiseSuppressionOn(): boolean {
  if (current === null) {
    try {
      current = localStorage.getItem(STORAGE_KEY) !== 'off';
    } catch {
      current = true;
    }
  }
  return current;
}

/** The server renders the default; the browser's own choice follows on hydration. */
export function serverNoiseSuppression(): boolean {
  return true;
}

export function subscribeNoiseSuppression(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setNoiseSuppression(on: boolean) {
  current = on;
  try {
    localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // private mode: the choice lasts for this page only
  }
  for (const listener of listeners) listener();
}

/** The filter runs in an AudioWorklet with WebAssembly: a browser without either sends the microphone as it is. */
export function noiseSuppressionSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.AudioWorkletNode === 'function' && typeof WebAssembly === 'object';
}
