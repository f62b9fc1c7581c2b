/**
 * @jest-environment jsdom
 */
import { CHUNK_TIMEOUT_MS, chunkWatchdog } from '@/lib/chunk-watchdog';

// The reload prompt's 120 s check (SPEC point 2): a chunk still loading is one that has neither
// fired its load event nor a resource timing entry. Resource timing alone showed the prompt in a
// meeting whose scripts had all run (issue 33's layout sweep).
function page(scriptSrc: string) {
  document.body.innerHTML = '<div id="chunk-error" hidden></div>';
  new Function(chunkWatchdog)();
  const script = document.createElement('script');
  script.src = scriptSrc;
  document.head.appendChild(script);
  return { script, prompt: () => document.getElementById('chunk-error')! };
}

describe('the chunk watchdog', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['performance'] });
    // What a browser's resource timing would say of these scripts: nothing.
    Object.defineProperty(performance, 'getEntriesByName', { value: () => [], configurable: true });
  });
  afterEach(() => jest.useRealTimers());

  it('stays quiet when the chunk fired its load event, though resource timing has no entry for it', () => {
    const { script, prompt } = page('/_next/static/chunks/loaded.js');
    script.dispatchEvent(new Event('load'));
    jest.advanceTimersByTime(CHUNK_TIMEOUT_MS + 1);
    expect(prompt().hidden).toBe(true);
  });

  it('shows the prompt for a chunk still loading after the time-out', () => {
    const { prompt } = page('/_next/static/chunks/never.js');
    jest.advanceTimersByTime(CHUNK_TIMEOUT_MS - 1);
    expect(prompt().hidden).toBe(true);
    jest.advanceTimersByTime(2);
    expect(prompt().hidden).toBe(false);
  });
});
