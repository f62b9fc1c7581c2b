// The inline script behind the warning of components/public/BuildTrustNotice.tsx. Plain ES5 in a
// string: a held build's bundles may be the very thing the service worker refuses (public/sw-trust.js).

/** Asks the worker whether it holds the server's build back; shows the warning if so; the button re-trusts after a confirmation. */
export const trustNoticeScript = `(function () {
  var notice = document.getElementById('build-trust');
  var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!notice || !worker) return;
  function ask(type) {
    return new Promise(function (resolve) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) { resolve(event.data && event.data.state); };
      worker.postMessage({ type: type }, [channel.port2]);
    });
  }
  ask('trust-state').then(function (state) { notice.hidden = state !== 'held'; });
  notice.querySelector('button').addEventListener('click', function () {
    if (!window.confirm(notice.getAttribute('data-confirm'))) return;
    ask('trust-server').then(function () { location.reload(); });
  });
})();`;
