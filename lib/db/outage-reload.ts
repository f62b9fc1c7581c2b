// The browser's side of a database outage. A full page load during one answers the server's 503
// page, which retries by itself (server/database-unavailable.mjs); a navigation inside the app
// cannot: its payload streams with a 200 before the page fails, and the error boundary gets no
// reason in production. So the boundary asks /api/health, and if the database is what failed,
// loads the page in full — at most once per RELOAD_GAP_MS, so a page that fails for any other
// reason too is never reloaded in a loop.

const KEY = 'enclave-outage-reload';
const RELOAD_GAP_MS = 15_000;

/** True when /api/health says the database is unreachable (503) and no reload of ours is recent. */
export async function shouldReloadForOutage(now = Date.now()): Promise<boolean> {
  let last = 0;
  try {
    last = Number(sessionStorage.getItem(KEY)) || 0;
  } catch {
    // storage refused (private mode): the health check alone decides
  }
  if (now - last < RELOAD_GAP_MS) return false;
  const health = await fetch('/api/health', { cache: 'no-store', signal: AbortSignal.timeout(10_000) }).catch(() => null);
  if (health?.status !== 503) return false;
  try {
    sessionStorage.setItem(KEY, String(now));
  } catch {
    // as above
  }
  return true;
}
