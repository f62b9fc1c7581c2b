// How a meeting link is shown where space is short (issue 33): "host/now/AbCdEf…". The whole
// link is what is copied and followed; the short form only names it, and it never breaks inside
// the random part, because it drops most of it rather than wrapping it.

/** Characters of the meeting id kept before the ellipsis. */
export const SHORT_ID_LENGTH = 6;

export function shortLink(link: string, keep = SHORT_ID_LENGTH): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return link.length > 32 ? `${link.slice(0, 31)}…` : link;
  }
  const segments = url.pathname.split('/');
  const last = segments.pop() ?? '';
  const shortened = last.length > keep + 1 ? `${last.slice(0, keep)}…` : last;
  return `${url.host}${segments.join('/')}/${shortened}`;
}
