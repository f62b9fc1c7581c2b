// The inline scripts around public/sw.js, in production builds only (a development server's files
// change on every save).

/** Every page registers the worker, which makes the app installable. */
export const registerServiceWorker = `(function () {
  if (!('serviceWorker' in navigator)) return;
  addEventListener('load', function () {
    navigator.serviceWorker.register('/sw.js').catch(function () {});
  });
})();`;

/** A public page also asks the worker to keep it for offline use (the first visit was not under its control). */
export const keepPageOffline = `(function () {
  if (!('serviceWorker' in navigator)) return;
  addEventListener('load', function () {
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: 'keep-shell' });
    }).catch(function () {});
  });
})();`;
