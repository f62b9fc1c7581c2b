import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The bench builds this app in a temporary copy whose node_modules is a link to the project's,
// so that it runs the project's own next and react. Turbopack compiles nothing outside its root,
// links included, so the root is the nearest folder holding both this app and those modules.
const here = realpathSync(fileURLToPath(new URL('.', import.meta.url)));
const modules = path.dirname(realpathSync(path.join(here, 'node_modules')));

function commonAncestor(a, b) {
  const relative = path.relative(a, b);
  if (relative !== '..' && !relative.startsWith(`..${path.sep}`)) return a;
  return commonAncestor(path.dirname(a), b);
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  turbopack: { root: commonAncestor(here, modules) },
};

export default nextConfig;
