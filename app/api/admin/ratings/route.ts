import { apiRoute } from '@/lib/api/handler';
import { ratingsSummary } from '@/lib/admin/ratings';

// GET /api/admin/ratings – the average rating, counts per star and the latest comments (admins only)
export const GET = apiRoute({ auth: 'admin' }, () => ratingsSummary());
