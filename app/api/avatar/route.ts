import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';
import { readBodyBytes } from '@/lib/api/body';
import { MAX_AVATAR_BYTES, saveAvatar } from '@/lib/users/avatar';

// Room for the multipart envelope around the largest allowed picture.
const MAX_UPLOAD_BYTES = MAX_AVATAR_BYTES + 64 * 1024;

// POST /api/avatar – upload a profile picture (multipart form data, field "avatar"; PNG, JPEG or WebP, ≤ 2 MiB)
export const POST = apiRoute({ auth: 'required' }, async ({ request, user }) => {
  const contentType = request.headers.get('content-type') ?? '';
  if (!contentType.startsWith('multipart/form-data')) throw new ApiError('incorrect_data', { status: 415 });
  const raw = await readBodyBytes(request, MAX_UPLOAD_BYTES);
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData().catch(() => {
    throw new ApiError('incorrect_data');
  });
  const file = form.get('avatar');
  if (!(file instanceof Blob)) throw new ApiError('missing_data', { field: 'avatar' });
  const avatar = await saveAvatar(user, Buffer.from(await file.arrayBuffer()));
  return { status: 'ok', avatar };
});
