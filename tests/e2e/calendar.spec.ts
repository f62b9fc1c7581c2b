import { expect, test, type Response } from '@playwright/test';
import { logIn } from './support/session';

// Issue 17: the calendar page asks GET /api/events/calendar for its window in the compact form,
// and the browser revalidates the answer it keeps (ETag, Cache-Control: private, no-cache), so a
// second visit of the same view costs a 304.
test.describe('the calendar asks for the compact form and revalidates it', () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await logIn(context, baseURL!);
  });

  test('first visit 200 with an ETag, the next visit If-None-Match → 304, the meetings shown both times', async ({ page, baseURL }) => {
    const title = `Compact weekly ${Date.now().toString(36)}`;
    const created = await page.request.post('/api/event', {
      headers: { origin: baseURL! },
      data: { title, from: Date.UTC(2031, 2, 4, 10, 0) / 1000, duration: '0:30', timezone: 'Europe/London', repeatType: 'weekly' },
    });
    expect(created.status()).toBe(200);
    const { repeat } = (await created.json()).event as { repeat: string };
    // What the network said, before the browser's cache turns a 304 into the 200 it kept.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    // (The two events of a request may come in either order: join them when asked.)
    const requested = new Map<string, string>();
    const statusOnWire = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (event) => requested.set(event.requestId, event.request.url));
    cdp.on('Network.responseReceivedExtraInfo', (event) => statusOnWire.set(event.requestId, event.statusCode));
    const wireStatus = () => [...requested].filter(([, url]) => new URL(url).pathname === '/api/events/calendar').map(([id]) => statusOnWire.get(id));
    const answers: Response[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/events/calendar') answers.push(response);
    });
    const meetings = page.getByTestId('calendar-meetings');

    await page.goto('/calendar/month/2031-03-01');
    await expect(meetings).toHaveAttribute('data-state', 'ready');
    // Every Tuesday of the 42-day grid (24 February to 6 April) from 4 March: five.
    await expect(page.getByRole('button', { name: title })).toHaveCount(5);
    expect(answers).toHaveLength(1);
    const first = answers[0]!;
    const url = new URL(first.url());
    expect(url.searchParams.get('form')).toBe('compact');
    expect(Number(url.searchParams.get('end')) - Number(url.searchParams.get('start'))).toBeGreaterThanOrEqual(41 * 86400);
    expect(first.status()).toBe(200);
    const headers = await first.allHeaders();
    expect(headers['etag']).toMatch(/^W\/"/);
    expect(headers['cache-control']).toBe('private, no-cache');

    // Away and back: the same window, asked again with the tag the browser kept.
    await page.goto('/calendar/week/2031-03-03');
    await expect(meetings).toHaveAttribute('data-state', 'ready');
    await page.goto('/calendar/month/2031-03-01');
    await expect(meetings).toHaveAttribute('data-state', 'ready');
    const again = answers.filter((response) => response.url() === first.url());
    expect(again).toHaveLength(2);
    expect((await again[1]!.request().allHeaders())['if-none-match']).toBe(headers['etag']);
    // The page read the kept answer (200 to it); the server answered 304 without a body.
    await expect.poll(wireStatus).toEqual([200, 200, 304]);
    await expect(page.getByRole('button', { name: title })).toHaveCount(5);

    const removed = await page.request.delete(`/api/event/${repeat}`, { headers: { origin: baseURL! } });
    expect(removed.status()).toBe(200);
  });
});
