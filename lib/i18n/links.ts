import { createNavigation } from 'next-intl/navigation';
import { routing } from './routing';

// The only Link, redirect and router the app uses, so every path keeps its locale prefix.
export const { Link, redirect, usePathname, useRouter, getPathname } = createNavigation(routing);
