import { apiRoute } from '@/lib/api/handler';
import { upcomingEvents } from '@/lib/events/list';

// GET /api/events/upcoming – the next meetings (polled every 60 s, SPEC point 4)
export const GET = apiRoute({ auth: 'required' }, ({ user }) => upcomingEvents(user));
