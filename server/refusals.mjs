// What the server layer refuses before Next.js sees it: an address longer than any page or call
// needs (414), and a path whose percent-encoding does not decode (Next.js would answer 500).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { localeFromAcceptLanguage, locales } from '../lib/i18n/supported-locales.mjs';
import { closedAnswerHeaders } from '../lib/security/base-headers.mjs';

// No page or call of the app needs a longer address; a longer one is refused before Next.js
// sees it (issue 32, item 7: a 15 KB unknown path came back as 212 KB of headers).
const MAX_URL_BYTES = 4096;

/** Where a page with a malformed path goes: the localized not-found page, with every header a page gets. */
const MALFORMED_PAGE = '/__malformed-path';

/**
 * Refuses what must not reach Next.js: true when `response` is answered. A page whose path is
 * malformed is not answered but sent on to the not-found page (its `request.url` rewritten).
 */
export function refusals(root) {
  const refuse = refuser(root);
  return function refused(request, response) {
    if (Buffer.byteLength(request.url ?? '') > MAX_URL_BYTES) return refuse(request, response, 414, { Connection: 'close' });
    if (!malformedPath(request.url)) return false;
    if (request.url.startsWith('/api/')) return refuse(request, response, 400);
    request.url = MALFORMED_PAGE;
    return false;
  };
}

/** Writes the server layer's own refusal: `incorrect_data` in the request's language, closed headers. */
export function refuser(root) {
  const incorrectData = incorrectDataMessages(root);
  return (request, response, status, headers = {}) => {
    const message = incorrectData[localeFromAcceptLanguage(request.headers['accept-language'])] ?? incorrectData.en;
    response.writeHead(status, { ...closedAnswerHeaders, 'Content-Type': 'application/json', ...headers });
    response.end(JSON.stringify({ status: 'error', errorCode: 'incorrect_data', message }));
    return true;
  };
}

/** The catalogue's text for incorrect_data in each language, for the answers given here. */
function incorrectDataMessages(root) {
  return Object.fromEntries(
    locales.map((locale) => [locale, JSON.parse(readFileSync(path.join(root, 'messages', `${locale}.json`), 'utf8')).Errors.incorrect_data]),
  );
}

/** A path whose percent-encoding does not decode ("/%", "/api/room/%E2%82"). */
function malformedPath(url) {
  try {
    decodeURIComponent((url ?? '/').split('?')[0]);
    return false;
  } catch {
    return true;
  }
}
