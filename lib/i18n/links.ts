import { createNavigation } from 'next-intl/navigation';
import { routing } from './routing';

// The locale-aware Link, redirect and router: a path given to them gets the locale prefix. Public
// pages that build prefixed paths themselves (lib/public-site/) link with next/link.
export const { Link, redirect, usePathname, useRouter, getPathname } = createNavigation(routing);
