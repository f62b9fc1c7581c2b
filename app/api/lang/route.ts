import { NextResponse } from 'next/server';
import { z } from 'zod';
import { apiRoute } from '@/lib/api/handler';
import { locales } from '@/lib/i18n/locales';
import { LOCALE_COOKIE } from '@/lib/i18n/routing';
import { saveUserLanguage } from '@/lib/users/preferences';

const ONE_YEAR = 60 * 60 * 24 * 365;
const langBody = z.object({ lang: z.enum(locales) });

// GET /api/lang – the language this visitor's interface is in
export const GET = apiRoute({ auth: 'optional' }, ({ locale }) => ({ lang: locale }));

// POST /api/lang – choose the interface language: saved to the user, or as the guest language
export const POST = apiRoute({ auth: 'optional', body: langBody }, async ({ body, user }) => {
  if (user) await saveUserLanguage(user.id, body.lang);
  const response = NextResponse.json({ status: 'ok', lang: body.lang });
  response.cookies.set(LOCALE_COOKIE, body.lang, { path: '/', maxAge: ONE_YEAR, sameSite: 'lax' });
  return response;
});
