import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/api/handler';
import { sessionFor } from '@/lib/auth/session-cookie';
import { setLocaleCookie } from '@/lib/i18n/locale-cookie';
import { profileOf, profileUpdateSchema, updateProfile } from '@/lib/account/profile';

// GET /api/me – the logged-in user's profile and settings
export const GET = apiRoute({ auth: 'required' }, ({ user, request }) => profileOf(user, request.headers));

// POST /api/me – change profile, settings, e-mail or password
export const POST = apiRoute({ auth: 'required', body: profileUpdateSchema }, async ({ body, user, setSession }) => {
  const { sessionVersion, emailPending } = await updateProfile(user, body);
  if (sessionVersion !== user.sessionVersion) setSession(sessionFor(user, sessionVersion));
  // A new e-mail waits for its confirmation link: the answer names the address it went to.
  const response = NextResponse.json({ status: 'ok', errorCode: 'success', ...(emailPending ? { emailPending } : {}) });
  if (body.lang) setLocaleCookie(response, body.lang);
  return response;
});
