import { apiRoute } from '@/lib/api/handler';
import { contentDisposition, loadAttachment, nameForType } from '@/lib/support/attachments';
import { assertTicketAccess } from '@/lib/support/tickets';
import { attachmentPolicy } from '@/lib/security/csp';

// GET /api/tickets/{id}/attachments/{attachmentId} – a ticket's file, to its owner and admins only;
// always a download (never rendered by the browser as a page), under the name of its checked type
// (a file stored before names were fixed at upload is renamed here), sandboxed should a browser
// render it all the same. proxy.ts gives the same policy: its header is the one that reaches the client.
export const GET = apiRoute<RouteContext<'/api/tickets/[id]/attachments/[attachmentId]'>, 'required'>({ auth: 'required' }, async ({ user, params }) => {
  await assertTicketAccess(user, params.id);
  const file = await loadAttachment(params.id, params.attachmentId);
  return new Response(new Uint8Array(file.data), {
    headers: {
      'content-type': file.contentType,
      'content-length': String(file.data.length),
      'content-disposition': contentDisposition(nameForType(file.fileName, file.contentType)),
      'x-content-type-options': 'nosniff',
      'content-security-policy': attachmentPolicy,
      'cache-control': 'private, no-store',
    },
  });
});
