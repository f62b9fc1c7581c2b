// Issue 35, item 4: "Join a meeting" on the plain home takes what a guest was sent — the whole
// link, or only the meeting id — and finds the meeting's join page on this server.
import { isMeetingId, MEETING_PAGE, meetingPagePath } from '@/lib/meeting-address';

/** An optional locale prefix before a path: /de, /zh-cn. */
const LOCALE_PREFIX = /^\/[a-z]{2}(?:-[a-z]{2})?(?=\/)/i;

export type JoinTarget = { ok: true; meetingId: string; path: string } | { ok: false; reason: 'empty' | 'invalid' | 'otherServer' };

/**
 * `input` is a meeting id or a link such as https://meet.example.org/de/now/abc#k=…; `origin` is
 * this server's. The link's #k= fragment (the meeting key) is kept: the browser never sends it.
 */
export function joinTarget(input: string, origin: string): JoinTarget {
  const value = input.trim();
  if (!value) return { ok: false, reason: 'empty' };
  if (isMeetingId(value)) return { ok: true, meetingId: value, path: meetingPagePath(value) };

  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'invalid' };
  const match = MEETING_PAGE.exec(url.pathname.replace(LOCALE_PREFIX, ''));
  if (!match || !isMeetingId(match[1]!)) return { ok: false, reason: 'invalid' };
  if (url.host !== new URL(origin).host) return { ok: false, reason: 'otherServer' };
  const meetingId = match[1]!;
  return { ok: true, meetingId, path: `${meetingPagePath(meetingId)}${url.search}${url.hash}` };
}
