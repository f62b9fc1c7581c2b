import 'server-only';
import { randomUUID } from 'node:crypto';
import { NextResponse, type NextRequest } from 'next/server';
import type { z } from 'zod';
import { config } from '@/lib/environment';
import { userForSession } from '@/lib/auth/session';
import { SESSION_COOKIE, sealSession, sessionCookieOptions, unsealSession, type SessionData } from '@/lib/auth/session-cookie';
import type { User } from '@/lib/db/schema';
import type { Locale } from '@/lib/i18n/locales';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableCode } from '@/lib/db/unavailable';
import { describeError, log } from '@/lib/log';
import { observeApiRequest } from '@/lib/metrics/api-request';
import { countDatabaseError } from '@/lib/metrics/database';
import { currentRequest } from '@/lib/request-context';
import { consumeAttempt, type RateLimit } from '@/lib/security/rate-limit';
import { DEFAULT_MAX_BODY_BYTES, parseJson, readBodyText } from './body';
import { ApiError, type ErrorCode } from '@/lib/errors';
import { errorMessage } from './error-messages';
import { isAllowedOrigin, isCrossSiteRequest } from './origin';
import { requestLocale } from './request-locale';
import { assertStorableText } from './storable-text';
import { validate } from './validation';

type Auth = 'none' | 'optional' | 'required' | 'admin';
/** The modes in which a handler always has a user. */
type SignedIn = 'required' | 'admin';

interface Options<A extends Auth, S extends z.ZodType | undefined> {
  /**
   * 'required' answers authentication_error (401) without a valid session; 'admin' also refuses a
   * signed-in plain user (403 authentication_error, as a request from another origin gets), before
   * the body is read. Default 'optional'.
   */
  auth?: A;
  /**
   * A rate limit per signed-in account, counted once the body is valid: calls that reach a third
   * party on the person's behalf (Stripe). Credential calls count their own attempts instead
   * (per client and per account: lib/auth/accounts.ts).
   */
  limit?: RateLimit;
  /** The zod schema of the JSON body; the body is not read without one. */
  body?: S;
  maxBodyBytes?: number;
  /** Checked before the body is read: a feature this server does not offer says so first. */
  available?: () => void;
  /**
   * For callers that prove who they are themselves (Stripe's signed webhooks): no Origin check,
   * no session. Every other state-changing call must come from the app's own pages.
   */
  signedByCaller?: boolean;
  /**
   * A GET (or HEAD) that another site's page may start: a browser's request that says it comes
   * from another site (`Sec-Fetch-Site: cross-site` or `same-site`) is refused with 403 otherwise,
   * because it carries the person's cookie (issue 32, item 5). Only for answers that change
   * nothing and that other sites or mail links legitimately reach (health, avatars, calendar
   * feeds, the activation link). Non-browsers send no such header and are never refused by it.
   */
  crossSiteGet?: true;
}

export interface HandlerContext<A extends Auth, S extends z.ZodType | undefined, P> {
  request: NextRequest;
  body: S extends z.ZodType ? z.output<S> : undefined;
  user: A extends SignedIn ? User : User | null;
  /** The unsealed session cookie, also while a login waits for its second factor. */
  session: SessionData | null;
  locale: Locale;
  params: P;
  /** Replaces the session cookie on the answer (null clears it). */
  setSession: (data: SessionData | null) => void;
}

/** What Next.js passes a route handler: its params (Next's generated `RouteContext<'/api/…'>`). */
type RouteArgument = { params: Promise<object> };

/**
 * The one wrapper every route handler goes through: it checks the origin of state-changing
 * requests (and refuses a GET that another site started, unless the route allows it), resolves the session, reads and validates the body, runs the handler, and turns
 * every failure into `{status:"error", errorCode, message}` — never a stack trace.
 * A handler returns a Response, or a value answered as JSON (POST/PUT/DELETE add status "ok").
 */
export function apiRoute<
  C extends RouteArgument = { params: Promise<Record<string, string>> },
  A extends Auth = 'optional',
  S extends z.ZodType | undefined = undefined,
>(options: Options<A, S>, handler: (context: HandlerContext<A, S, Awaited<C['params']>>) => Promise<unknown> | unknown) {
  type P = Awaited<C['params']>;
  function route(request: NextRequest, routeContext: C): Promise<Response> {
    return observeApiRequest(request, routeContext?.params, () => answer(request, routeContext));
  }
  async function answer(request: NextRequest, routeContext: C): Promise<Response> {
    let locale = requestLocale(request);
    let sessionChange: { data: SessionData | null } | undefined;
    try {
      if (!options.signedByCaller && !isAllowedOrigin(request)) throw new ApiError('authentication_error', { status: 403 });
      if (isSafeMethod(request) && !options.crossSiteGet && isCrossSiteRequest(request)) {
        throw new ApiError('authentication_error', { status: 403 });
      }
      const params = ((await routeContext?.params) ?? {}) as P;
      assertStorableUrl(request, params);

      const auth = options.auth ?? 'optional';
      let user: User | null = null;
      let session: SessionData | null = null;
      if (auth !== 'none') {
        session = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
        user = await userForSession(session);
        if (!user && auth !== 'optional') throw new ApiError('authentication_error');
        if (auth === 'admin' && user?.role !== 'admin') throw new ApiError('authentication_error', { status: 403 });
        locale = requestLocale(request, user?.lang);
      }

      options.available?.();
      let body: unknown = undefined;
      if (options.body) {
        const text = await readBodyText(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
        body = validate(options.body, parseJson(text));
      }
      // Counted once the request is valid, just before the handler acts on it.
      if (options.limit && user) await consumeAttempt(options.limit, user.id);

      const result = await handler({
        request,
        body,
        user,
        session,
        locale,
        params,
        setSession: (data) => (sessionChange = { data }),
      } as HandlerContext<A, S, P>);

      const response =
        result instanceof Response
          ? result
          : NextResponse.json(request.method === 'GET' || isEnvelope(result) ? result : { status: 'ok', ...(result as object) });
      if (sessionChange) await applySession(response, sessionChange.data);
      return withApiHeaders(response);
    } catch (error) {
      return withApiHeaders(await errorResponse(error, locale));
    }
  }
  // The body's schema travels with the handler, so that the standing sweeps can enumerate its fields.
  return Object.assign(route, { bodySchema: options.body });
}

/** The URL's text reaches queries as the body's does: the same rule (a NUL in `?q=` or a path segment). */
function assertStorableUrl(request: NextRequest, params: unknown) {
  const query: Record<string, string> = {};
  for (const [key, value] of request.nextUrl.searchParams) query[key] = value;
  assertStorableText(query);
  assertStorableText(params);
}

function isSafeMethod(request: Request): boolean {
  return request.method === 'GET' || request.method === 'HEAD';
}

function isEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'status' in value;
}

async function applySession(response: Response, data: SessionData | null) {
  const cookies = (response as NextResponse).cookies;
  if (!cookies) return;
  if (data) cookies.set(SESSION_COOKIE, await sealSession(data), sessionCookieOptions(isHttps()));
  else cookies.set(SESSION_COOKIE, '', { ...sessionCookieOptions(isHttps()), maxAge: 0 });
}

function isHttps() {
  return config.appUrl.startsWith('https:');
}

function withApiHeaders(response: Response): Response {
  // Answers are private and fresh unless a handler says otherwise (e.g. immutable avatars).
  if (!response.headers.has('Cache-Control')) response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** Answers an error in the envelope of docs/design.md; unexpected ones are logged, never shown. */
export async function errorResponse(error: unknown, locale: Locale): Promise<Response> {
  if (error instanceof ApiError) {
    const response = await errorJson(error.code, error.status, locale, { ...error.details, ...(error.field && { field: error.field }) });
    if (error.retryAfterSeconds) response.headers.set('Retry-After', String(error.retryAfterSeconds));
    return response;
  }
  countDatabaseError(error);
  const unavailable = databaseUnavailableCode(error);
  if (unavailable) {
    // Not a bug: the database is stopped, restarting or overloaded; the client tries again.
    log.warn('database unavailable', { code: unavailable });
    return errorResponse(new ApiError('service_unavailable', { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS }), locale);
  }
  // The id the answer's X-Request-Id and every log line of the request carry, for a support ticket.
  const requestId = currentRequest()?.requestId ?? randomUUID();
  log.error('unhandled error in route handler', { requestId, ...describeError(error) });
  return errorJson('error_contact_us', 500, locale, { requestId });
}

async function errorJson(code: ErrorCode, status: number, locale: Locale, extra: Record<string, string>) {
  const message = await errorMessage(code, locale);
  return NextResponse.json({ status: 'error', errorCode: code, message, ...extra }, { status });
}
