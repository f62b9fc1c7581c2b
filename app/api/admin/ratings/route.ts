import { adminRoute } from '@/lib/admin/api';
import { ratingsSummary } from '@/lib/admin/ratings';

// GET /api/admin/ratings – the average rating, counts per star and the latest comments (admins only)
export const GET = adminRoute({}, () => ratingsSummary());
