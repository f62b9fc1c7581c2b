// Server regions of SPEC point 1: North America, Europe, Canada, Other.
export type Region = 'na' | 'eu' | 'ca' | 'ot';

const europe = new Set(
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE GB NO CH IS LI UA RS BA ME MK AL MD AD MC SM VA'.split(' '),
);
const northAmerica = new Set(['US', 'MX', 'PR']);

export function regionForCountry(country: string | null | undefined): Region {
  const code = country?.toUpperCase();
  if (!code) return 'ot';
  if (code === 'CA') return 'ca';
  if (northAmerica.has(code)) return 'na';
  if (europe.has(code)) return 'eu';
  return 'ot';
}

// Headers that CDNs and load balancers set with the visitor's country; no third party is asked.
const countryHeaders = ['cf-ipcountry', 'x-vercel-ip-country', 'cloudfront-viewer-country', 'x-country-code'];

export function countryFromHeaders(headers: Headers): string | null {
  for (const name of countryHeaders) {
    const value = headers.get(name)?.trim().toUpperCase();
    if (value && /^[A-Z]{2}$/.test(value) && value !== 'XX') return value;
  }
  return null;
}
