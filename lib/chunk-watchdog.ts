// The inline script behind the reload prompt (components/public/ChunkErrorPrompt). Plain ES5 in a
// string: it must run before, and without, the app's bundles.

/** SPEC point 2: "a chunk load time-out of 120 s". */
export const CHUNK_TIMEOUT_MS = 120_000;

export const chunkWatchdog = `(function () {
  var shown = false;
  function show() {
    if (shown) return;
    shown = true;
    var prompt = document.getElementById('chunk-error');
    if (prompt) prompt.hidden = false;
  }
  function isChunk(url) {
    return typeof url === 'string' && url.indexOf('/_next/static/') !== -1;
  }
  function isChunkError(reason) {
    if (!reason) return false;
    var text = String(reason.message || reason);
    return reason.name === 'ChunkLoadError' || /Loading (CSS )?chunk|Failed to load chunk|dynamically imported module|importing a module script failed/i.test(text);
  }
  // A script or stylesheet of the app that fails: error events do not bubble, so capture them.
  addEventListener('error', function (event) {
    var el = event.target;
    if (el && ((el.tagName === 'SCRIPT' && isChunk(el.src)) || (el.tagName === 'LINK' && isChunk(el.href)))) show();
    else if (isChunkError(event.error)) show();
  }, true);
  // Scripts that finished loading, seen as they do: the browser's resource timing buffer holds
  // 250 entries, and a meeting's signaling requests fill it within two minutes, after which a
  // script that loaded has no entry either and the prompt came up over a working call.
  // (On the document: an element's load event never reaches the window, even when capturing.)
  var loaded = [];
  document.addEventListener('load', function (event) {
    if (event.target && event.target.tagName === 'SCRIPT') loaded.push(event.target);
  }, true);
  // A chunk loaded on demand (a dialog, the meeting) rejects its import.
  addEventListener('unhandledrejection', function (event) {
    if (isChunkError(event.reason)) show();
  });
  // A chunk still loading after the time-out: resource timing lists a script once it has loaded.
  setTimeout(function () {
    var scripts = document.querySelectorAll('script[src]');
    for (var i = 0; i < scripts.length; i++) {
      if (isChunk(scripts[i].src) && loaded.indexOf(scripts[i]) === -1 && !performance.getEntriesByName(scripts[i].src).length) return show();
    }
  }, ${CHUNK_TIMEOUT_MS});
  window.__enclaveChunkError = show;
})();`;
