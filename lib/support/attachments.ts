import 'server-only';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '@/lib/errors';
import { getDb } from '@/lib/db/client';
import { ticketAttachments } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { sniffImageType } from '@/lib/users/avatar';
import { MAX_ATTACHMENT_BYTES } from './categories';

export interface AttachmentInput {
  fileName: string;
  bytes: Buffer;
}

export interface CheckedAttachment {
  fileName: string;
  contentType: string;
  data: Buffer;
}

function isGif(bytes: Uint8Array) {
  const head = String.fromCharCode(...bytes.slice(0, 6));
  return head === 'GIF87a' || head === 'GIF89a';
}

/** A log or text file: valid UTF-8 without NUL bytes (a binary renamed .log is not one). */
function isPlainText(bytes: Buffer) {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A file name fit for a header and a list: its last path part, no control characters, at most 120 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(-120);
  return clean || 'attachment';
}

/** The extensions a checked type may carry; the first is the one given when the name has none of them. */
const EXTENSIONS: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'text/plain; charset=utf-8': ['txt', 'log'],
};

/**
 * The name a file is kept and downloaded under: its extension is that of the type its bytes were
 * checked to be (issue 32, item 8: a PNG that is also an HTML page, uploaded as poly.html, must
 * not be saved as .html). A name with another extension has it replaced (poly.html → poly.png).
 */
export function nameForType(fileName: string, contentType: string): string {
  const allowed = EXTENSIONS[contentType] ?? ['bin'];
  // Trailing dots and spaces are dropped (as Windows does), so they cannot hide an extension.
  const name = cleanFileName(fileName).replace(/[.\s]+$/, '');
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (allowed.includes(extension)) return name;
  const stem = (dot >= 0 ? name.slice(0, dot) : name).replace(/[.\s]+$/, '') || 'attachment';
  return `${stem.slice(0, 115)}.${allowed[0]}`;
}

/**
 * The allow-list: PNG, JPEG, WebP and GIF told apart by their first bytes (the declared type is
 * not trusted; SVG and HTML are refused, they can carry script), and .log/.txt files that are
 * text. At most 2 MiB. Refusals answer incorrect_data on `attachment` (413 too large, 415 type).
 */
export function checkAttachment({ fileName, bytes }: AttachmentInput): CheckedAttachment {
  if (bytes.length === 0) throw new ApiError('missing_data', { field: 'attachment' });
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw new ApiError('incorrect_data', { field: 'attachment', status: 413 });
  const name = cleanFileName(fileName);
  const image = sniffImageType(bytes) ?? (isGif(bytes) ? 'image/gif' : null);
  if (image) return { fileName: nameForType(name, image), contentType: image, data: bytes };
  if (/\.(log|txt)$/i.test(name) && isPlainText(bytes)) return { fileName: name, contentType: 'text/plain; charset=utf-8', data: bytes };
  throw new ApiError('incorrect_data', { field: 'attachment', status: 415 });
}

/** One attachment of a ticket the caller may already see (checked by the caller). */
export async function loadAttachment(ticketId: string, attachmentId: string) {
  if (!isUuid(attachmentId)) throw new ApiError('ticket_not_found');
  const db = await getDb();
  const [row] = await db
    .select()
    .from(ticketAttachments)
    .where(and(eq(ticketAttachments.id, attachmentId), eq(ticketAttachments.ticketId, ticketId)))
    .limit(1);
  if (!row) throw new ApiError('ticket_not_found');
  return row;
}

/**
 * Content-Disposition for a download (RFC 6266): always `attachment`, an ASCII `filename` with
 * nothing a browser might decode or cut at (quotes, backslashes, `%`, controls), and the exact
 * name in `filename*` (RFC 8187: every byte outside attr-char percent-encoded).
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
