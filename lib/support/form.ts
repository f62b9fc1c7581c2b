import 'server-only';
import { ApiError } from '@/lib/errors';
import { DEFAULT_MAX_BODY_BYTES, parseJson, readBodyBytes } from '@/lib/api/body';
import { formText, isMultipart, readMultipart } from '@/lib/api/multipart';
import { assertStorableText } from '@/lib/api/storable-text';
import { validate } from '@/lib/api/validation';
import { checkAttachment, type CheckedAttachment } from './attachments';
import { MAX_ATTACHMENT_BYTES } from './categories';
import { ticketSchema } from './schemas';

// Room for the multipart envelope and the text fields around the largest allowed file.
const MAX_FORM_BYTES = MAX_ATTACHMENT_BYTES + 64 * 1024;

/**
 * POST /api/tickets takes multipart form data (subject, category, message, optional file
 * "attachment") from the form, or plain JSON without a file from other clients.
 */
export async function readTicketForm(request: Request) {
  const contentType = request.headers.get('content-type') ?? '';
  if (isMultipart(request)) {
    const form = await readMultipart(request, MAX_FORM_BYTES);
    const entered = { subject: formText(form, 'subject'), category: formText(form, 'category'), message: formText(form, 'message') };
    assertStorableText(entered);
    const fields = validate(ticketSchema, entered);
    const file = form.get('attachment');
    let attachment: CheckedAttachment | null = null;
    // A form whose file input stayed empty sends an empty, nameless file: no attachment.
    if (file instanceof Blob && (file.size > 0 || (file as File).name)) {
      attachment = checkAttachment({ fileName: (file as File).name ?? 'attachment', bytes: Buffer.from(await file.arrayBuffer()) });
    } else if (typeof file === 'string' && file !== '') {
      throw new ApiError('incorrect_data', { field: 'attachment' });
    }
    return { fields, attachment };
  }
  if (contentType && !contentType.startsWith('application/json')) throw new ApiError('incorrect_data', { status: 415 });
  const body = parseJson((await readBodyBytes(request, DEFAULT_MAX_BODY_BYTES)).toString('utf8'));
  return { fields: validate(ticketSchema, body), attachment: null };
}
