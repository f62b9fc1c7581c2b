'use client';

import { useEffect, useState, useSyncExternalStore } from 'react';

const STANDALONE = '(display-mode: standalone)';
const isStandalone = () => window.matchMedia(STANDALONE).matches;
function subscribeStandalone(onChange: () => void) {
  const query = window.matchMedia(STANDALONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Chromium's install prompt event (not in TypeScript's DOM types). */
interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/**
 * "Install Enclave": the browser's own install prompt, offered when the browser says the app can
 * be installed (the manifest and service worker are in place). Browsers without the prompt get
 * the written steps that the page shows beside this button.
 */
export function InstallAppButton({ label, installedLabel }: { label: string; installedLabel: string }) {
  const [prompt, setPrompt] = useState<BeforeInstallPromptEvent | null>(null);
  const [installedNow, setInstalled] = useState(false);
  const runningInstalled = useSyncExternalStore(subscribeStandalone, isStandalone, () => false);
  const installed = installedNow || runningInstalled;

  useEffect(() => {
    const offer = (event: Event) => {
      event.preventDefault();
      setPrompt(event as BeforeInstallPromptEvent);
    };
    const done = () => {
      setInstalled(true);
      setPrompt(null);
    };
    window.addEventListener('beforeinstallprompt', offer);
    window.addEventListener('appinstalled', done);
    return () => {
      window.removeEventListener('beforeinstallprompt', offer);
      window.removeEventListener('appinstalled', done);
    };
  }, []);

  if (installed)
    return (
      <p role="status" className="font-medium text-emerald-800">
        {installedLabel}
      </p>
    );
  if (!prompt) return null;
  return (
    <button
      type="button"
      className="button-primary"
      onClick={async () => {
        await prompt.prompt();
        if ((await prompt.userChoice).outcome === 'accepted') setInstalled(true);
        setPrompt(null);
      }}
    >
      {label}
    </button>
  );
}
