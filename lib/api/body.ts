import { ApiError } from '@/lib/errors';
import { assertStorableText } from './storable-text';

/** 64 KiB: far above any JSON form of the product, far below what could tire the server. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Reads a request body as text, refusing it as soon as it passes `limit` bytes. */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  return (await readBodyBytes(request, limit)).toString('utf8');
}

/** Reads a request body, refusing it (413) as soon as it passes `limit` bytes. */
export async function readBodyBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw new ApiError('incorrect_data', { status: 413 });
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ApiError('incorrect_data', { status: 413 });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Parses a JSON body; an empty body reads as `{}` so that missing fields answer missing_data.
 * Text that cannot be stored (NUL, a lone surrogate) is refused here, for every handler.
 */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('incorrect_data');
  }
  assertStorableText(value);
  return value;
}
