/**
 * @jest-environment jsdom
 */
import { shouldReloadForOutage } from '@/lib/db/outage-reload';

// The error boundary's side of a database outage (issue 20): a full load only when /api/health
// says the database is down, and never twice within 15 s, so a page that fails for another
// reason is not reloaded in a loop.
const health = (status: number) => jest.fn(async () => ({ status }) as Response);

beforeEach(() => sessionStorage.clear());

it('reloads when the database is down, then not again within 15 s, then again after', async () => {
  globalThis.fetch = health(503);
  expect(await shouldReloadForOutage(1_000_000)).toBe(true);
  expect(await shouldReloadForOutage(1_010_000)).toBe(false);
  expect(await shouldReloadForOutage(1_016_000)).toBe(true);
  expect(globalThis.fetch).toHaveBeenCalledTimes(2);
});

it('does not reload when the database answers or the server cannot be reached', async () => {
  globalThis.fetch = health(200);
  expect(await shouldReloadForOutage()).toBe(false);
  globalThis.fetch = jest.fn(async () => {
    throw new TypeError('Failed to fetch');
  });
  expect(await shouldReloadForOutage()).toBe(false);
});
