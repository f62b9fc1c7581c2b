// SPEC's hosted mode (billing on, lib/configuration/billing-mode.ts) for tests of its plans and trial that never
// call Stripe: imported first, before any module reads the configuration. A real server would
// also need the Stripe keys to start (lib/startup-checks.ts); tests of paying use billing-env.ts.
process.env.BILLING = 'stripe';
