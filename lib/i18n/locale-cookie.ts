import type { NextResponse } from 'next/server';
import { LOCALE_COOKIE } from './routing';

const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

/** The interface language next-intl's routing reads, kept for a year (the same cookie it writes itself). */
export function setLocaleCookie(response: NextResponse, lang: string) {
  response.cookies.set(LOCALE_COOKIE, lang, { path: '/', maxAge: ONE_YEAR_SECONDS, sameSite: 'lax' });
}
