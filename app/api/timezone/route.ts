import { apiRoute } from '@/lib/api/handler';
import { listTimezones } from '@/lib/time/timezones';

// GET /api/timezone – every IANA time zone with its current offset, for the picker
export const GET = apiRoute({ auth: 'none' }, () => listTimezones());
