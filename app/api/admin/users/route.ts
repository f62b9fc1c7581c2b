import { adminRoute } from '@/lib/admin/api';
import { listUsers } from '@/lib/admin/users';

// GET /api/admin/users?q= – the instance's accounts: role, plan, rooms, trial end, state (admins only)
export const GET = adminRoute({}, ({ request }) => listUsers(request.nextUrl.searchParams.get('q') ?? ''));
