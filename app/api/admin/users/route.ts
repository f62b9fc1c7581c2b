import { apiRoute } from '@/lib/api/handler';
import { listUsers } from '@/lib/admin/users';

// GET /api/admin/users?q= – the instance's accounts: role, plan, rooms, trial end, state (admins only)
export const GET = apiRoute({ auth: 'admin' }, ({ request }) => listUsers(request.nextUrl.searchParams.get('q') ?? ''));
