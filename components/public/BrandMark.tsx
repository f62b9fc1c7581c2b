/** The brand's mark, a padlock on the brand colour; the app icons draw the same shape. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={className}>
      <rect width="64" height="64" rx="14" fill="var(--brand, #1f7a4d)" />
      <path d="M22 28v-6a10 10 0 0 1 20 0v6" fill="none" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
      <rect x="15" y="28" width="34" height="24" rx="5" fill="#fff" />
      <circle cx="32" cy="40" r="4" fill="var(--brand, #1f7a4d)" />
    </svg>
  );
}
