import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
  // Issue 48: a page whose Content-Security-Policy differs (lib/security/page-policy.ts) must be
  // entered by a whole document load. Links are guarded in the browser (lib/navigation/policy-links.ts);
  // routers only through lib/navigation/router.ts, which loads such a page as a document.
  {
    files: ['app/**', 'components/**', 'lib/**'],
    ignores: ['lib/navigation/router.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'next/navigation',
              importNames: ['useRouter'],
              message: 'Use useRouter or usePathRouter from @/lib/navigation/router: they load a page with another CSP as a whole document.',
            },
            {
              name: '@/lib/i18n/links',
              importNames: ['useRouter'],
              message: 'Use useRouter from @/lib/navigation/router: it loads a page with another CSP as a whole document.',
            },
            { name: 'next/router', message: 'The app router only: useRouter from @/lib/navigation/router.' },
          ],
        },
      ],
    },
  },
  {
    ignores: ['.next/**', 'node_modules/**', 'drizzle/**', 'data/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'],
  },
];

export default config;
