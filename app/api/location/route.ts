import { apiRoute } from '@/lib/api/handler';
import { countryFromHeaders, regionForCountry } from '@/lib/location/region';

// GET /api/location – the visitor's country and server region, from request headers only
export const GET = apiRoute({ auth: 'optional' }, ({ request, user }) => {
  const country = countryFromHeaders(request.headers);
  const region = country ? regionForCountry(country) : (user?.preferredRegion ?? 'ot');
  return { country, region };
});
