/**
 * The route template of a request ("/api/meeting/[id]/signal"), made from its path and the
 * params Next.js matched, so that a metric's label never holds an id: one series per route, not
 * one per meeting. A catch-all ("[...rest]") takes the path's last segments. A param whose value
 * is also a static segment of its route may be put in the wrong place; the label then still
 * names only segments of the route, so the number of series stays bounded.
 */
export function routeTemplate(pathname: string, params: Record<string, string | string[] | undefined>): string {
  const segments = pathname.split('/');
  const decoded = segments.map(decodeSegment);
  const entries = Object.entries(params);
  for (const [name, value] of entries) {
    if (!Array.isArray(value) || value.length === 0) continue;
    // The catch-all is the route's last segment: it stands for the path's tail.
    const start = segments.length - value.length;
    if (start <= 0) continue;
    segments.splice(start, value.length, `[...${name}]`);
    decoded.splice(start, value.length, `[...${name}]`);
  }
  // Right to left: a route's static prefix ("/api/meeting") comes before its dynamic segments.
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || value === '') continue;
    for (let i = decoded.length - 1; i > 0; i -= 1) {
      if (decoded[i] === value) {
        segments[i] = decoded[i] = `[${name}]`;
        break;
      }
    }
  }
  return segments.join('/') || '/';
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
