import 'server-only';
import { NextResponse } from 'next/server';
import type { User } from '@/lib/db/schema';
import { isLocale } from '@/lib/i18n/locales';
import { setLocaleCookie } from '@/lib/i18n/locale-cookie';

/** A completed login also brings the interface into the user's own language. */
export function loggedInAnswer(user: User, body: Record<string, unknown> = {}) {
  const response = NextResponse.json({ status: 'ok', twoFactorRequired: false, lang: user.lang, ...body });
  if (isLocale(user.lang)) setLocaleCookie(response, user.lang);
  return response;
}
