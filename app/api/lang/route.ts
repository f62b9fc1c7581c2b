import { NextResponse } from 'next/server';
import { z } from 'zod';
import { apiRoute } from '@/lib/api/handler';
import { locales } from '@/lib/i18n/locales';
import { setLocaleCookie } from '@/lib/i18n/locale-cookie';
import { saveUserLanguage } from '@/lib/users/preferences';

const langBody = z.object({ lang: z.enum(locales) });

// GET /api/lang – the language this visitor's interface is in
export const GET = apiRoute({ auth: 'optional' }, ({ locale }) => ({ lang: locale }));

// POST /api/lang – choose the interface language: saved to the user, or as the guest language
export const POST = apiRoute({ auth: 'optional', body: langBody }, async ({ body, user }) => {
  if (user) await saveUserLanguage(user.id, body.lang);
  const response = NextResponse.json({ status: 'ok', lang: body.lang });
  setLocaleCookie(response, body.lang);
  return response;
});
