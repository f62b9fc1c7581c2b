// The inline script that keeps what a person does before React takes the page over
// (app/[locale]/layout.tsx). The server's HTML shows every button at once, and until the page's
// bundles have run they do nothing: a click on one was lost, and a form sent itself the browser's
// way, a GET to the page's own address carrying every named field, so that a login's password
// went into the address bar, the history and any proxy's access log. This script runs before
// the bundles, holds such a click or submission, and plays it again once React owns the element,
// as Angular's event replay and Google's jsaction do with what happens before their code loads.
// Plain ES5 in a string, like lib/chunk-watchdog.ts.

/**
 * react-dom gives each element it owns this key, followed by a random suffix
 * (node_modules/next/dist/compiled/react-dom/cjs/react-dom-client.production.js): an element
 * carries it from the moment React has hydrated it.
 */
export const REACT_PROPS_KEY = '__reactProps$';

/** How long a held action waits for React before it is dropped: the chunk time-out's prompt (lib/chunk-watchdog.ts) speaks by then. */
export const EARLY_INPUT_WAIT_MS = 120_000;

export const earlyInputGuard = `(function () {
  var key = ${JSON.stringify(REACT_PROPS_KEY)};
  function owned(element) {
    var keys = Object.keys(element);
    for (var i = 0; i < keys.length; i++) if (keys[i].indexOf(key) === 0) return true;
    return false;
  }
  // Once the document is React's, a part still waiting (a Suspense boundary) is React's own to
  // replay, and an element React never owns (drawn by a library's own code) must not wait for it.
  function documentOwned() {
    return owned(document.body);
  }
  // A form with its own action works without JavaScript; every other form of the app is sent by
  // its React handler, and the browser's own GET is never what it wants.
  function needsReact(form) {
    return !form.hasAttribute('action');
  }
  var held = null;
  var timer = 0;
  function release() {
    clearInterval(timer);
    timer = 0;
    held = null;
  }
  function replay() {
    var action = held;
    if (!action.element.isConnected || Date.now() - action.since > ${EARLY_INPUT_WAIT_MS}) return release();
    if (!owned(action.element)) {
      if (!documentOwned() || action.kind === 'submit') return;
    }
    release();
    if (action.kind === 'click') {
      if (!action.element.disabled) action.element.click();
    } else if (action.submitter && action.submitter.form === action.element) {
      action.element.requestSubmit(action.submitter);
    } else {
      action.element.requestSubmit();
    }
  }
  // One action at most, the latest: a second click on a waiting button must not send twice.
  function hold(event, action) {
    event.preventDefault();
    event.stopImmediatePropagation();
    action.since = Date.now();
    held = action;
    if (!timer) timer = setInterval(replay, 50);
  }
  addEventListener('click', function (event) {
    var target = event.target;
    var button = target && target.closest ? target.closest('button, [role="button"]') : null;
    if (!button || button.disabled || owned(button) || documentOwned()) return;
    if (button.form && button.type === 'submit' && !needsReact(button.form)) return;
    hold(event, { kind: 'click', element: button });
  }, true);
  addEventListener('submit', function (event) {
    var form = event.target;
    if (!form || !needsReact(form) || owned(form)) return;
    hold(event, { kind: 'submit', element: form, submitter: event.submitter });
  }, true);
})();`;
