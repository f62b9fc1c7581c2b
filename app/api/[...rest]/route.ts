import { apiRoute } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';

// Any /api/… path no handler claims: the JSON error envelope (404), never an HTML page.
const notFound = apiRoute({ auth: 'none' }, () => {
  throw new ApiError('incorrect_data', { status: 404 });
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
