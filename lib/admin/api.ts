import 'server-only';
import type { z } from 'zod';
import { apiRoute, type HandlerContext } from '@/lib/api/handler';
import { assertAdmin } from './guard';

/**
 * apiRoute for the admin area's handlers: a login is required, and a plain user is refused
 * (403 authentication_error) before the handler runs or the body is used.
 */
export function adminRoute<P = Record<string, string>, S extends z.ZodType | undefined = undefined>(
  options: { body?: S; maxBodyBytes?: number },
  handler: (context: HandlerContext<'required', S, P>) => Promise<unknown> | unknown,
) {
  return apiRoute<P, 'required', S>({ ...options, auth: 'required' }, (context) => {
    assertAdmin(context.user);
    return handler(context);
  });
}
