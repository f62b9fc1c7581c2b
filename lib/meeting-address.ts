// A meeting's addresses in one place (issue 45: the id's rule was written twice, the page's path
// pattern three times, the API's address in six places): SPEC's /now/{id} page and its
// /api/meeting/{id} calls. Plain, at the bottom of lib/: the proxy, the public site's "Join a
// meeting", the server's room lookup and the browser's call all read it.

/** A meeting id as this server issues them (a room's meetingId): letters, digits, - and _, 1–64. */
export const MEETING_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const isMeetingId = (value: string) => MEETING_ID.test(value);

/** The meeting page, /now/{id} (without a locale prefix), with or without a trailing slash; group 1 is the id. */
export const MEETING_PAGE = /^\/now\/([^/]+)\/?$/;

/** The meeting page's path for an id, without a locale prefix. */
export const meetingPagePath = (meetingId: string) => `/now/${meetingId}`;

/** The meeting's API: GET it for the lobby, or one of its calls (join, signal, ice, sfu). */
export function meetingApiPath(meetingId: string, call?: 'join' | 'signal' | 'ice' | 'sfu'): string {
  const base = `/api/meeting/${encodeURIComponent(meetingId)}`;
  return call ? `${base}/${call}` : base;
}
