import { apiRoute } from '@/lib/api/handler';
import { listAudit } from '@/lib/audit/audit-log';

// GET /api/admin/audit – the audit log, newest first: who did what, when (admins only)
export const GET = apiRoute({ auth: 'admin' }, () => listAudit());
