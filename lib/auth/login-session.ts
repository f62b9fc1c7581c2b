import 'server-only';
import { NextResponse, type NextRequest } from 'next/server';
import { config } from '@/lib/environment';
import type { User } from '@/lib/db/schema';
import { isLocale } from '@/lib/i18n/locales';
import { setLocaleCookie } from '@/lib/i18n/locale-cookie';
import { DEVICE_COOKIE, deviceCookieOptions, renewDeviceCookie } from './device-cookie';

/**
 * A completed login (password and, when on, the second factor; or a meeting-card link) brings
 * the interface into the user's own language and marks this browser as one the account has used
 * (a fresh device token, ./device-cookie.ts).
 */
export function loggedInAnswer(user: User, request: NextRequest, body: Record<string, unknown> = {}) {
  const response = NextResponse.json({ status: 'ok', twoFactorRequired: false, lang: user.lang, ...body });
  if (isLocale(user.lang)) setLocaleCookie(response, user.lang);
  const devices = renewDeviceCookie(request.cookies.get(DEVICE_COOKIE)?.value, user.id);
  response.cookies.set(DEVICE_COOKIE, devices, deviceCookieOptions(config.appUrl.startsWith('https:')));
  return response;
}
