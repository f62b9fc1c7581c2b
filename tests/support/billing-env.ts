// Billing on, against the Stripe stand-in: imported first by billing tests, before any module reads
// the configuration. Each Jest worker gets its own port, so parallel files never share a stand-in.
export const STRIPE_STAND_IN_PORT = 12_100 + Number(process.env.JEST_WORKER_ID ?? 1) + (process.env.TEST_DATABASE_URL && process.env.DATABASE_URL ? 50 : 0);
export const WEBHOOK_SECRET = 'whsec_test_enclave_stand_in';

process.env.STRIPE_SECRET_KEY = 'sk_test_enclave_stand_in';
process.env.STRIPE_PUBLISHABLE_KEY = 'pk_test_enclave_stand_in';
process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
process.env.STRIPE_API_URL = `http://127.0.0.1:${STRIPE_STAND_IN_PORT}`;
