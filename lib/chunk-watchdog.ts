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
  setTimeout(function () {
    var scripts = document.querySelectorAll('script[src]');
    for (var i = 0; i < scripts.length; i++) {
      var src = scripts[i].src;
      if (isChunk(src) && !loaded[src] && !performance.getEntriesByName(src).length) return show();
    }
  }, ${CHUNK_TIMEOUT_MS});
  window.__enclaveChunkError = show;
})();`;
