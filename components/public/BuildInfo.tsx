'use client';

import { useEffect, useState } from 'react';

// The "About this build" section of the security page (issue 47): the commit and the hash of the
// manifest this server publishes (app/.well-known/enclave/build.json/route.ts), and the command
// that checks it. Read in the browser, so that the page stays static and shows what is served.
const MANIFEST = '/.well-known/enclave/build.json';

export interface BuildInfoLabels {
  commit: string;
  manifest: string;
  command: string;
  loading: string;
  unavailable: string;
}

type Shown = { commit: string; hash: string; origin: string } | 'loading' | 'unavailable';

async function readManifest(): Promise<Shown> {
  const response = await fetch(MANIFEST, { cache: 'no-cache' });
  if (!response.ok) return 'unavailable';
  const text = await response.text();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const commit = String((JSON.parse(text) as { commit?: unknown }).commit ?? '');
  return { commit, hash: `sha256-${btoa(String.fromCharCode(...digest))}`, origin: location.origin };
}

export function BuildInfo({ labels }: { labels: BuildInfoLabels }) {
  const [shown, setShown] = useState<Shown>('loading');
  useEffect(() => {
    let live = true;
    readManifest()
      .catch((): Shown => 'unavailable')
      .then((result) => live && setShown(result));
    return () => {
      live = false;
    };
  }, []);
  if (typeof shown === 'string') return <p aria-live="polite">{shown === 'loading' ? labels.loading : labels.unavailable}</p>;
  return (
    <dl className="grid gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-4" data-testid="build-info">
      <dt className="font-medium text-slate-900">{labels.commit}</dt>
      <dd className="break-all font-mono text-sm">{shown.commit}</dd>
      <dt className="font-medium text-slate-900">{labels.manifest}</dt>
      <dd className="break-all font-mono text-sm">
        <a href={MANIFEST} className="underline">
          {shown.hash}
        </a>
      </dd>
      <dt className="font-medium text-slate-900">{labels.command}</dt>
      <dd className="break-all font-mono text-sm">
        <code>npm run verify -- {shown.origin}</code>
      </dd>
    </dl>
  );
}
