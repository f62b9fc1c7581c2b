import 'server-only';
import { billingMode, billingModeNote, type BillingSettings } from '@/lib/configuration/billing-mode';
import { sfuSettingsReport } from '@/lib/configuration/sfu-urls';
import { config } from '@/lib/environment';
import { mailMode, MAIL_NOT_CONFIGURED } from '@/lib/mail/mode';
import { oidcProvidersProblem } from '@/lib/auth/oidc/providers';
import { homePageSettingProblem } from '@/lib/public-site/home-page';
import { registrationSettingsProblem } from '@/lib/registration/policy';
import { parseTrustedProxies } from '@/lib/security/client-address';

// What the server checks before it answers anything (instrumentation.ts): a setting that would
// make it unsafe, or make every login fail while /api/health says ok, stops it with a message
// that names the setting. A fresh local trial (`npm start` on localhost) needs none of them.

const MIN_DATA_KEY_LENGTH = 32;

/** Whether APP_URL names this machine only (the local trial), not a server others reach. */
export function isLoopbackUrl(appUrl: string): boolean {
  const host = new URL(appUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}

export interface StartupReport {
  /** Each one stops the server. */
  problems: string[];
  /** Said once in the log at start. */
  notes: string[];
}

interface Settings {
  production: boolean;
  appUrl: string;
  smtpUrl?: string;
  mailLog: boolean;
  env: StartupEnv;
  /** BILLING, ON_PREMISE and the Stripe keys; without them (a test of another check) billing is not looked at. */
  billingSettings?: BillingSettings;
  /** REGISTRATION and REGISTRATION_DOMAINS (issue 35); without them they are not looked at. */
  registrationSettings?: { registration?: string; registrationDomains?: string };
  /** SFU_URLS and SFU_SECRET (issue 45); without them they are not looked at. */
  sfuSettings?: { sfuUrls?: string; sfuSecret?: string };
  /** HOME_PAGE (issue 35); without it, it is not looked at. */
  homePage?: string;
}

export type StartupEnv = { DATA_KEY?: string; TRUSTED_PROXIES?: string; OIDC_PROVIDERS?: string };

export function checkStartup(
  settings: Settings = {
    ...config,
    env: process.env as StartupEnv,
    billingSettings: config,
    registrationSettings: config,
    sfuSettings: config,
    homePage: config.homePage,
  },
): StartupReport {
  const { env } = settings;
  const problems: string[] = [];
  const notes: string[] = [];

  if (mailMode(settings) === 'refuse') problems.push(MAIL_NOT_CONFIGURED);

  if (settings.billingSettings) {
    // Which mode runs and why, in one line (issue 35); a contradictory choice stops the server.
    const mode = billingMode(settings.billingSettings);
    if (mode.problem) problems.push(mode.problem);
    else notes.push(billingModeNote(mode));
  }

  if (settings.registrationSettings) {
    const { registration, registrationDomains } = settings.registrationSettings;
    const problem = registrationSettingsProblem(registration, registrationDomains);
    if (problem) problems.push(problem);
  }

  // A provider list the server cannot read would leave its buttons off the login page unnoticed.
  const oidcProblem = oidcProvidersProblem(env.OIDC_PROVIDERS);
  if (oidcProblem) problems.push(oidcProblem);
  // An SFU_URLS the server cannot read answered 500 on every rooms page and made calls ask for a
  // ticket every 30 s; half of the pair was silent (issue 45).
  if (settings.sfuSettings) {
    const sfu = sfuSettingsReport(settings.sfuSettings.sfuUrls, settings.sfuSettings.sfuSecret);
    if (sfu.problem) problems.push(sfu.problem);
    else notes.push(sfu.note);
  }
  const homePageProblem = homePageSettingProblem(settings.homePage);
  if (homePageProblem) problems.push(homePageProblem);

  try {
    parseTrustedProxies(env.TRUSTED_PROXIES);
  } catch (error) {
    problems.push(`Enclave will not start: ${(error as Error).message}. Write addresses or CIDR ranges, e.g. TRUSTED_PROXIES=127.0.0.1,::1.`);
  }

  const dataKey = env.DATA_KEY?.trim();
  if (dataKey && dataKey.length < MIN_DATA_KEY_LENGTH) {
    problems.push(`Enclave will not start: DATA_KEY must be at least ${MIN_DATA_KEY_LENGTH} characters (e.g. openssl rand -base64 32).`);
  } else if (!dataKey && settings.production && !isLoopbackUrl(settings.appUrl)) {
    // Derived from the session secret, which is kept in DATA_DIR beside the database: a copy of
    // that folder would open every sealed TOTP secret (issue 32, item 9).
    problems.push(
      'Enclave will not start in production at a public APP_URL without DATA_KEY: it seals the two-factor secrets, and without it ' +
        'the key is derived from a file in DATA_DIR, so a copy of that folder would open them. Set DATA_KEY (openssl rand -base64 32) ' +
        'and keep it outside DATA_DIR and its backups (docs/self-hosting.md).',
    );
  } else if (!dataKey) {
    notes.push(
      'DATA_KEY is not set: two-factor secrets are sealed with a key derived from the session secret in DATA_DIR (fine for a local trial; set DATA_KEY on a server).',
    );
  }

  return { problems, notes };
}
