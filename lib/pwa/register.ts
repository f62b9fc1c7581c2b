// The inline script that registers public/sw.js (production only: a development server's files
// change on every save). After registering, it asks the worker to keep this page for offline use.
export const registerServiceWorker = `(function () {
  if (!('serviceWorker' in navigator)) return;
  addEventListener('load', function () {
    navigator.serviceWorker.register('/sw.js').then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: 'keep-shell' });
    }).catch(function () {});
  });
})();`;
