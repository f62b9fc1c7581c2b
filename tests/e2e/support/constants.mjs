import os from 'node:os';
import path from 'node:path';

// Shared by the server launcher and the tests, so both know the data folder and the secret.
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `enclave-e2e-${process.env.E2E_PORT ?? 3210}`);
export const E2E_SESSION_SECRET = 'e2e-session-secret-that-is-long-enough-0123456789';

// The Stripe stand-in beside the e2e server (tests/support/stripe-stand-in.mjs).
export const STRIPE_STAND_IN_PORT = Number(process.env.E2E_PORT ?? 3210) + 5;
export const STRIPE_STAND_IN_URL = `http://127.0.0.1:${STRIPE_STAND_IN_PORT}`;
export const STRIPE_WEBHOOK_SECRET = 'whsec_e2e_stand_in';

// The Janus the e2e server starts for meetings through the SFU (issue 38; tests/support/janus.mjs):
// WebSockets on this port, its HTTP API on the next, RTP above.
export const E2E_JANUS_BASE_PORT = Number(process.env.E2E_PORT ?? 3210) + 300;
export const E2E_SFU_SECRET = 'e2e-sfu-secret-shared-with-janus-0123456789';
