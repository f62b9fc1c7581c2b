/**
 * @jest-environment jsdom
 */
import { CHUNK_TIMEOUT_MS, chunkWatchdog } from '@/lib/chunk-watchdog';

// The reload prompt's 120 s check (SPEC point 2): a chunk still loading is one that has neither
// fired its load event nor a resource timing entry. Resource timing alone showed the prompt in a
// meeting whose scripts had all run (issue 33's layout sweep).
function page(scriptSrc: string, attributes: Record<string, string> = {}) {
  document.head.innerHTML = '';
  document.body.innerHTML = '<div id="chunk-error" hidden></div>';
  new Function(chunkWatchdog)();
  const script = document.createElement('script');
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  script.src = scriptSrc;
  document.head.appendChild(script);
  return { script, prompt: () => document.getElementById('chunk-error')! };
}

/** A `<link>` of the app whose load fails, as the browser reports it: an error event on the element. */
function failingLink(rel: string, as?: string) {
  const link = document.createElement('link');
  link.rel = rel;
  if (as) link.setAttribute('as', as);
  link.href = '/_next/static/chunks/lost.js';
  document.head.appendChild(link);
  link.dispatchEvent(new Event('error'));
}

describe('the chunk watchdog', () => {
  beforeEach(() => {
    // A browser with modules (every one the app supports; jsdom lacks the property).
    Object.defineProperty(HTMLScriptElement.prototype, 'noModule', { value: false, configurable: true, writable: true });
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

  it('shows the prompt for an async chunk still loading after the time-out: async scripts are fetched too', () => {
    const { prompt } = page('/_next/static/chunks/slow.js', { async: '' });
    jest.advanceTimersByTime(CHUNK_TIMEOUT_MS + 1);
    expect(prompt().hidden).toBe(false);
  });

  // Issue 48: the polyfill Next.js marks `nomodule` is never fetched by a browser with modules,
  // so it never loads: the prompt showed on every page after 120 s.
  it('stays quiet for the nomodule polyfill, which a browser with modules never fetches', () => {
    const { prompt } = page('/_next/static/chunks/polyfills.js', { nomodule: '' });
    jest.advanceTimersByTime(CHUNK_TIMEOUT_MS + 1);
    expect(prompt().hidden).toBe(true);
  });

  it('stays quiet for a data block the browser never runs, and counts a module script', () => {
    const { prompt } = page('/_next/static/chunks/data.json', { type: 'application/json' });
    jest.advanceTimersByTime(CHUNK_TIMEOUT_MS + 1);
    expect(prompt().hidden).toBe(true);

    const moduleScript = page('/_next/static/chunks/app.js', { type: 'module', nomodule: '' });
    jest.advanceTimersByTime(CHUNK_TIMEOUT_MS + 1);
    expect(moduleScript.prompt().hidden).toBe(false);
  });

  it('shows the prompt at once for a script of the app that fails', () => {
    const { script, prompt } = page('/_next/static/chunks/broken.js');
    script.dispatchEvent(new Event('error'));
    expect(prompt().hidden).toBe(false);
  });

  it('stays quiet when a prefetch, preload or modulepreload hint fails; shows it for a stylesheet that fails', () => {
    const { prompt } = page('/_next/static/chunks/loaded.js');
    failingLink('prefetch');
    failingLink('preload', 'script');
    failingLink('modulepreload');
    expect(prompt().hidden).toBe(true);
    failingLink('stylesheet');
    expect(prompt().hidden).toBe(false);
  });

  it('lets an init script shorten the wait only where a test server marked the prompt', () => {
    Object.assign(window, { __enclaveChunkTimeoutMs: 1000 });
    const unmarked = page('/_next/static/chunks/never.js');
    jest.advanceTimersByTime(1001);
    expect(unmarked.prompt().hidden).toBe(true);

    document.body.innerHTML = '<div id="chunk-error" data-test-timeout hidden></div>';
    new Function(chunkWatchdog)();
    jest.advanceTimersByTime(1001);
    expect(document.getElementById('chunk-error')!.hidden).toBe(false);
    delete (window as { __enclaveChunkTimeoutMs?: number }).__enclaveChunkTimeoutMs;
  });

  it('moves the page down by its own height when it shows, so that it covers nothing', () => {
    const { script, prompt } = page('/_next/static/chunks/broken.js');
    Object.defineProperty(prompt(), 'offsetHeight', { value: 52 });
    script.dispatchEvent(new Event('error'));
    expect(document.documentElement.style.getPropertyValue('--chunk-error-height')).toBe('52px');
  });
});
