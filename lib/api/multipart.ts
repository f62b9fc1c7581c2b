import 'server-only';
import { ApiError } from '@/lib/errors';
import { readBodyBytes } from './body';

/** Whether a request's body is multipart form data (a form with a file). */
export function isMultipart(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').startsWith('multipart/form-data');
}

/**
 * A multipart body, read up to `maxBytes` (413 past it, as a JSON body) and parsed; a body that is
 * not valid multipart is `incorrect_data`.
 */
export async function readMultipart(request: Request, maxBytes: number): Promise<FormData> {
  const contentType = request.headers.get('content-type') ?? '';
  const raw = await readBodyBytes(request, maxBytes);
  return new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData().catch(() => {
    throw new ApiError('incorrect_data');
  });
}

/** A text field of a form, or undefined when it is missing or a file. */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
}
