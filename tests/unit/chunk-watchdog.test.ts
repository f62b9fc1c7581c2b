/** @jest-environment jsdom */
// The chunk watchdog's time-out: a script that loaded counts as loaded even when the browser's
// resource timing buffer (250 entries) is full and lists it nowhere — a meeting fills it with
// signaling requests, and the reload prompt came up over a working call.
import { CHUNK_TIMEOUT_MS, chunkWatchdog } from '@/lib/chunk-watchdog';

function chunk(src: string) {
  const script = document.createElement('script');
  script.setAttribute('src', src);
  // jsdom does not fetch it (no "resources: usable"): nothing but our events happen to it.
  document.head.append(script);
  return script;
}

beforeEach(() => {
  jest.useFakeTimers();
  document.body.innerHTML = '<div id="chunk-error" hidden></div>';
  document.head.innerHTML = '';
  // No resource timing entry for anything, as once the buffer is full.
  Object.defineProperty(performance, 'getEntriesByName', { value: () => [], configurable: true });
});
afterEach(() => jest.useRealTimers());

const prompt = () => document.getElementById('chunk-error')!;

it('stays hidden after the time-out when every chunk script loaded', () => {
  new Function(chunkWatchdog)();
  chunk('/_next/static/chunks/a.js').dispatchEvent(new Event('load'));
  jest.advanceTimersByTime(CHUNK_TIMEOUT_MS);
  expect(prompt().hidden).toBe(true);
});

it('shows the prompt when a chunk script is still loading at the time-out', () => {
  new Function(chunkWatchdog)();
  chunk('/_next/static/chunks/a.js').dispatchEvent(new Event('load'));
  chunk('/_next/static/chunks/b.js');
  jest.advanceTimersByTime(CHUNK_TIMEOUT_MS);
  expect(prompt().hidden).toBe(false);
});
