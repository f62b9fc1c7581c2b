// The storable-text rule (issue 32, item 1), plain so that any domain may check a text it did not
// get from a request body (an OpenID provider's claims, issue 44): PostgreSQL refuses NUL in text
// (a failed query deep inside a handler), and a lone UTF-16 surrogate cannot be written as UTF-8
// (it would be stored as U+FFFD, silently changed). lib/api/storable-text.ts applies it to requests.

/** Whether a string can be stored as it is: no NUL, no lone surrogate. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}
