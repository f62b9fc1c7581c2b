import { servedManifest } from '@/lib/release/manifest';

export const dynamic = 'force-dynamic';

// GET /.well-known/enclave/build.json – the build's manifest (lib/release/manifest.ts): anyone may
// read it, from anywhere, and compare it with a build of the same commit (`npm run verify`).
export async function GET() {
  return new Response(await servedManifest(), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*' },
  });
}
