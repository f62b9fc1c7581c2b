// Where the login page goes after logging in (`?next=`), only ever a page of this site: an open
// redirect would let a link on this domain send a person to a look-alike login elsewhere.

/** A placeholder origin: the candidate is resolved against it and must stay on it. */
const HERE = 'https://enclave.invalid';

/** The `next` parameter when it is a path of this site, else "/" (Home). */
export function safeNextPath(next: string | null | undefined): string {
  // URL parsing drops tabs and newlines and reads "\" as "/": "/\t/evil.example" is "//evil.example".
  // Refuse control characters and backslashes outright instead of guessing how a browser reads them.
  if (!next || !next.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, HERE);
  } catch {
    return '/';
  }
  if (url.origin !== HERE) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/%2F%2Fevil.example" stays a path here, but a path that starts with "//" never goes out.
  return path.startsWith('//') ? '/' : path;
}
