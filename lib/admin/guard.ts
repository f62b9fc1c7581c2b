import 'server-only';
import { ApiError } from '@/lib/errors';
import type { User } from '@/lib/db/schema';

/**
 * Every admin handler's own check (the proxy's role redirect is a convenience): a plain user
 * gets 403 with authentication_error, as a request from another origin does.
 */
export function assertAdmin(user: User): void {
  if (user.role !== 'admin') throw new ApiError('authentication_error', { status: 403 });
}
