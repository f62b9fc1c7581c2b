// The inline script behind the reload prompt (components/public/ChunkErrorPrompt). Plain ES5 in a
// string: it must run before, and without, the app's bundles.

/** SPEC point 2: "a chunk load time-out of 120 s". */
export const CHUNK_TIMEOUT_MS = 120_000;

/*
 * Only what the browser really fetched and lost counts (issue 48: the `nomodule` polyfill, which a
 * browser with modules never fetches, showed the prompt on every page after 120 s):
 * - a script counts only if the browser runs it: not `nomodule` where modules work, not a data
 *   block (`type="application/json"` and the like);
 * - a `<link>` counts only as a stylesheet: a preload, modulepreload or prefetch that fails is a
 *   hint lost, and the script it hinted at reports its own failure.
 */
export const chunkWatchdog = `(function () {
  var shown = false;
  var root = document.documentElement;
  // The page moves down by the prompt's height (app/globals.css): it covers nothing, a call's header included.
  function fit() {
    var prompt = document.getElementById('chunk-error');
    if (prompt) root.style.setProperty('--chunk-error-height', prompt.offsetHeight + 'px');
  }
  function show() {
    if (shown) return;
    shown = true;
    var prompt = document.getElementById('chunk-error');
    if (!prompt) return;
    prompt.hidden = false;
    fit();
    addEventListener('resize', fit);
  }
  function isChunk(url) {
    return typeof url === 'string' && url.indexOf('/_next/static/') !== -1;
  }
  function isChunkError(reason) {
    if (!reason) return false;
    var text = String(reason.message || reason);
    return reason.name === 'ChunkLoadError' || /Loading (CSS )?chunk|Failed to load chunk|dynamically imported module|importing a module script failed/i.test(text);
  }
  var modules = 'noModule' in document.createElement('script');
  var runnable = /^((text|application)\\/(x-)?(java|ecma)script|text\\/javascript1\\.[0-5]|text\\/(jscript|livescript))$/;
  // A script the browser fetches and runs (the HTML spec's "prepare the script element").
  function fetched(script) {
    if (!isChunk(script.src)) return false;
    var type = script.getAttribute('type') || '';
    var language = script.getAttribute('language');
    if (!type && language) type = 'text/' + language;
    type = type.replace(/^\\s+|\\s+$/g, '').toLowerCase();
    if (type === 'module') return true;
    if (modules && script.hasAttribute('nomodule')) return false;
    return !type || runnable.test(type);
  }
  function isStylesheet(link) {
    return /(^|\\s)stylesheet(\\s|$)/i.test(link.getAttribute('rel') || '') && isChunk(link.href);
  }
  // A script or stylesheet of the app that fails: error events do not bubble, so capture them.
  addEventListener('error', function (event) {
    var el = event.target;
    if (el && ((el.tagName === 'SCRIPT' && fetched(el)) || (el.tagName === 'LINK' && isStylesheet(el)))) show();
    else if (isChunkError(event.error)) show();
  }, true);
  // A chunk loaded on demand (a dialog, the meeting) rejects its import.
  addEventListener('unhandledrejection', function (event) {
    if (isChunkError(event.reason)) show();
  });
  // Scripts seen loading: resource timing alone missed some that had loaded (a meeting page showed
  // the prompt after 120 s with its scripts running), so their load events count too.
  // On the document: a load event's path stops there, it never reaches the window.
  var loaded = {};
  document.addEventListener('load', function (event) {
    var el = event.target;
    if (el && el.tagName === 'SCRIPT' && el.src) loaded[el.src] = true;
  }, true);
  // A chunk still loading after the time-out: neither its load event nor a resource timing entry.
  // Only a server started for tests marks the prompt so that an init script may shorten the wait:
  // nothing a visitor sends reaches that number.
  var marked = document.getElementById('chunk-error');
  var timeout = ${CHUNK_TIMEOUT_MS};
  if (marked && marked.hasAttribute('data-test-timeout') && typeof window.__enclaveChunkTimeoutMs === 'number') timeout = window.__enclaveChunkTimeoutMs;
  setTimeout(function () {
    // Done, whatever it found: a test waits for this mark instead of guessing at the clock.
    root.setAttribute('data-chunk-check', 'done');
    var scripts = document.querySelectorAll('script[src]');
    for (var i = 0; i < scripts.length; i++) {
      var src = scripts[i].src;
      if (fetched(scripts[i]) && !loaded[src] && !performance.getEntriesByName(src).length) return show();
    }
  }, timeout);
  window.__enclaveChunkError = show;
})();`;
