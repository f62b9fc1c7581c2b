import os from 'node:os';
import path from 'node:path';

// Shared by the server launcher and the tests, so both know the data folder and the secret.
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `enclave-e2e-${process.env.E2E_PORT ?? 3210}`);
export const E2E_SESSION_SECRET = 'e2e-session-secret-that-is-long-enough-0123456789';
