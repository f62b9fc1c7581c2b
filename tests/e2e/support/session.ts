import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { sealData } from 'iron-session';
import { E2E_DATA_DIR, E2E_SESSION_SECRET } from './constants.mjs';

interface SeededAccount {
  userId: string;
  email: string;
  sessionVersion: number;
  /** The meeting id of the account's first room. */
  meetingId: string;
}

export type SeededName = 'demo' | 'card' | 'trial' | 'billing' | 'billingOffline' | 'trialEnded';

export function seededAccount(name: SeededName): SeededAccount {
  const accounts = JSON.parse(readFileSync(path.join(E2E_DATA_DIR, 'accounts.json'), 'utf8'));
  return accounts[name];
}

/**
 * Logs a browser context in as a seeded account by giving it a session cookie sealed with the
 * server's secret — the login screen itself is tested where accounts are built.
 */
export async function logIn(context: BrowserContext, baseURL: string, name: SeededName = 'demo') {
  const account = seededAccount(name);
  const value = await sealData(
    // A cookie id of its own, as the server gives every login: logging out revokes only it.
    { userId: account.userId, version: account.sessionVersion, role: 'admin', sid: crypto.randomUUID() },
    { password: E2E_SESSION_SECRET, ttl: 7 * 24 * 3600 },
  );
  await context.addCookies([{ name: 'enclave_session', value, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
}
