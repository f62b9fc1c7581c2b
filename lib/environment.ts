import 'server-only';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processSlot } from '@/lib/process-slot';

// Every setting of docs/design.md "Configuration", read once. All are optional for a local start.
function env(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}

const port = Number(env('PORT') ?? 3000);
// Relaying needs a TURN server: with STUN alone 'relay' would find no candidate at all.
const hasTurnUrl = /(^|,)\s*turns?:/.test(env('TURN_URLS') ?? '');

/** A whole number above zero, or the default (a typo must not switch a limit off). */
function positiveInteger(value: string | undefined, fallback: number): number {
  const number = Number(value);
  return value !== undefined && Number.isSafeInteger(number) && number > 0 ? number : fallback;
}

export const config = {
  port,
  appUrl: (env('APP_URL') ?? `http://localhost:${port}`).replace(/\/$/, ''),
  databaseUrl: env('DATABASE_URL'),
  // 'memory://' keeps everything in memory (tests): an in-memory PGlite, a per-process secret.
  dataDir: env('DATA_DIR') === 'memory://' ? 'memory://' : path.resolve(/*turbopackIgnore: true*/ env('DATA_DIR') ?? './data'),
  /** Tests only: a migrated PGlite dump that an in-memory database starts from (tests/support/pglite-memory-template.mjs). */
  memoryDbTemplate: env('MEMORY_DB_TEMPLATE'),
  redisUrl: env('REDIS_URL'),
  smtpUrl: env('SMTP_URL'),
  /** MAIL_LOG=1: without SMTP_URL, a production server writes mail (links included) to its log. */
  mailLog: env('MAIL_LOG') === '1',
  mailFrom: env('MAIL_FROM') ?? 'Enclave <no-reply@localhost>',
  /** Where the contact-sales form goes, and the operator's address on the privacy page; unset: no form (issue 35). */
  salesEmail: env('SALES_EMAIL'),
  /** HOME_PAGE=marketing|private: what `/` shows a visitor until the admin area sets it; unset: follows billing (lib/public-site). */
  homePage: env('HOME_PAGE'),
  turnUrls:
    env('TURN_URLS')
      ?.split(',')
      .map((url) => url.trim()) ?? [],
  turnSecret: env('TURN_SECRET'),
  /** 'relay' sends every call through TURN (it hides addresses); honoured only with TURN configured. */
  iceTransportPolicy: (env('ICE_TRANSPORT_POLICY') === 'relay' && hasTurnUrl ? 'relay' : 'all') as 'relay' | 'all',
  /** SFU_URLS: Janus nodes, each "<browser wss url>|<app-side http url>" (lib/sfu/nodes.ts); unset: meshes only. */
  sfuUrls: env('SFU_URLS'),
  /** SFU_SECRET: Janus's token_auth_secret and the VideoRoom admin_key (deploy/janus). */
  sfuSecret: env('SFU_SECRET'),
  stripe: {
    secretKey: env('STRIPE_SECRET_KEY'),
    publishableKey: env('STRIPE_PUBLISHABLE_KEY'),
    webhookSecret: env('STRIPE_WEBHOOK_SECRET'),
    /** Another address for Stripe's API (a stand-in in tests); Stripe's own when unset. */
    apiUrl: env('STRIPE_API_URL'),
  },
  /** BILLING=stripe or off; unset: the Stripe keys decide (lib/configuration/billing-mode.ts). */
  billing: env('BILLING'),
  /** ON_PREMISE=true: the older name of BILLING=off. */
  onPremise: env('ON_PREMISE') === 'true',
  brandName: env('BRAND_NAME') ?? 'Enclave',
  /** REGISTRATION=open|domains|invitation|closed: who may register, until the admin area sets it (lib/registration). */
  registration: env('REGISTRATION'),
  /** REGISTRATION_DOMAINS=example.org,example.com: the e-mail domains REGISTRATION=domains admits. */
  registrationDomains: env('REGISTRATION_DOMAINS'),
  /** OIDC_PROVIDERS: a JSON array of OpenID providers for "Sign in with …" (lib/auth/oidc/providers.ts). */
  oidcProviders: env('OIDC_PROVIDERS'),
  /** METRICS_TOKEN: GET /metrics needs `Authorization: Bearer <it>`; unset, only this host may read it. */
  metricsToken: env('METRICS_TOKEN'),
  /** MEETING_FILE_LIMIT_MB: the largest file sent in a meeting's chat (peer to peer), default 100. */
  meetingFileLimitMb: positiveInteger(env('MEETING_FILE_LIMIT_MB'), 100),
  /** MEETING_TEST_PROBE=1: meeting pages put a read-only probe on window for the e2e tests and benchmarks. */
  meetingTestProbe: env('MEETING_TEST_PROBE') === '1',
  production: process.env.NODE_ENV === 'production',
} as const;

/**
 * One per process (lib/process-slot.ts), not per copy of this module: with an in-memory database
 * the secret is random, and a copy of its own in each route bundle would seal a session cookie
 * that the next route could not open.
 */
const sessionSecret = processSlot<string>('session-secret');

/** SESSION_SECRET, or one generated on first use and kept in DATA_DIR so restarts keep sessions. */
export function getSessionSecret(): string {
  return sessionSecret.getOrCreate(readOrMakeSessionSecret);
}

function readOrMakeSessionSecret(): string {
  const fromEnv = env('SESSION_SECRET');
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters');
    return fromEnv;
  }
  if (config.dataDir === 'memory://') return randomBytes(32).toString('base64url');
  const file = path.join(config.dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
