import 'server-only';
import { NextResponse } from 'next/server';
import type { User } from '@/lib/db/schema';
import { isLocale } from '@/lib/i18n/locales';
import { LOCALE_COOKIE } from '@/lib/i18n/routing';

/** A completed login also brings the interface into the user's own language. */
export function loggedInAnswer(user: User, body: Record<string, unknown> = {}) {
  const response = NextResponse.json({ status: 'ok', twoFactorRequired: false, lang: user.lang, ...body });
  if (isLocale(user.lang)) {
    response.cookies.set(LOCALE_COOKIE, user.lang, { path: '/', maxAge: 60 * 60 * 24 * 365, sameSite: 'lax' });
  }
  return response;
}
