// Above SPEC's 30 seats (the SFU's target is 100; issue 38): the bench's server runs without
// billing (BILLING=off), where the admin sets the seats of every meeting, and the bench sets them
// as the seeded admin does it in the admin pages: POST /api/admin/configuration.
import { readFileSync } from 'node:fs';
import { sessionCookie } from '../lib/session.mjs';

export async function raiseSeatLimit(baseURL, seats) {
  // Read once E2E_PORT is set (the data folder is named after it), as demoMeetingId does.
  const { E2E_DATA_DIR, E2E_SESSION_SECRET } = await import('../../tests/e2e/support/constants.mjs');
  const account = JSON.parse(readFileSync(`${E2E_DATA_DIR}/accounts.json`, 'utf8')).demo;
  const response = await fetch(`${baseURL}/api/admin/configuration`, {
    method: 'POST',
    headers: { cookie: await sessionCookie(account, E2E_SESSION_SECRET), 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify({ participants_per_meeting: seats }),
  });
  if (!response.ok) throw new Error(`seat limit: ${response.status} ${await response.text()}`);
  const { configuration } = await response.json();
  if (configuration.participants_per_meeting !== seats || configuration.billingOn) throw new Error(`seat limit not raised: ${JSON.stringify(configuration)}`);
}
