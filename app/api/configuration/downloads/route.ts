import { apiRoute } from '@/lib/api/handler';
import { getDownloads } from '@/lib/configuration/configuration';

// GET /api/configuration/downloads – the software hub's installers and minimum systems
export const GET = apiRoute({ auth: 'none' }, () => getDownloads());
