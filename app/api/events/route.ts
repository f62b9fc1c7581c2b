import { apiRoute } from '@/lib/api/handler';
import { listEvents } from '@/lib/events/list';

// GET /api/events – the user's meetings and series
export const GET = apiRoute({ auth: 'required' }, ({ user }) => listEvents(user));
