import type { z } from 'zod';
import { ApiError, isErrorCode } from '@/lib/errors';
import { assertStorableText } from './storable-text';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Validates input with a zod schema. A schema names the error code of a rule as its message
 * (`z.string().min(5, 'room_title_length')`); other failures answer missing_data when the field
 * is absent and incorrect_data otherwise.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) {
    // A field may carry JSON of its own (a group's attendees): its parsed text meets the body's rule.
    assertStorableText(result.data);
    return result.data;
  }
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.') || undefined;
  if (isErrorCode(issue.message)) throw new ApiError(issue.message, { field });
  const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
  throw new ApiError(missing ? 'missing_data' : 'incorrect_data', { field });
}
