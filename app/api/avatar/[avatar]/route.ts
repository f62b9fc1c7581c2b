import { NextResponse } from 'next/server';
import { apiRoute } from '@/lib/api/handler';
import { loadAvatar } from '@/lib/users/avatar';

// GET /api/avatar/{avatar} – the picture; its id is random, and a new upload gets a new id.
// An image other sites may show: it reads no session and changes nothing.
export const GET = apiRoute<RouteContext<'/api/avatar/[avatar]'>, 'none'>({ auth: 'none', crossSiteGet: true }, async ({ params }) => {
  const found = /^[\w-]{1,64}$/.test(params.avatar) ? await loadAvatar(params.avatar) : undefined;
  // An image URL: a missing one is a bare 404, like any missing file.
  if (!found) return new NextResponse(null, { status: 404 });
  return new NextResponse(new Uint8Array(found.data), {
    headers: {
      'content-type': found.contentType,
      'cache-control': 'public, max-age=31536000, immutable',
      'content-security-policy': "default-src 'none'",
    },
  });
});
