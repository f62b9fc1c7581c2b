import { apiRoute } from '@/lib/api/handler';
import { getPublicConfiguration } from '@/lib/configuration/configuration';

// GET /api/configuration – product_price, max_event_attendees, enable2fa
export const GET = apiRoute({ auth: 'none' }, () => getPublicConfiguration());
