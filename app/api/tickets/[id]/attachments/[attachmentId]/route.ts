import { apiRoute } from '@/lib/api/handler';
import { loadAttachment } from '@/lib/support/attachments';
import { assertTicketAccess } from '@/lib/support/tickets';

// GET /api/tickets/{id}/attachments/{attachmentId} – a ticket's file, to its owner and admins only;
// always a download (never rendered by the browser as a page)
export const GET = apiRoute<{ id: string; attachmentId: string }, 'required'>({ auth: 'required' }, async ({ user, params }) => {
  await assertTicketAccess(user, params.id);
  const file = await loadAttachment(params.id, params.attachmentId);
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return new Response(new Uint8Array(file.data), {
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.data.length),
      'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
    },
  });
});
