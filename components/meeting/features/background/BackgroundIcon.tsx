// A person in front of a scene: the background-effects button (same look as icons.tsx).
export const BackgroundIcon = ({ className }: { className?: string }) => (
  <svg
    viewBox="0 0 24 24"
    width="22"
    height="22"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    className={className}
  >
    <rect x="2" y="3" width="20" height="18" rx="2" />
    <circle cx="12" cy="10" r="3" />
    <path d="M6 21a6 6 0 0 1 12 0" />
  </svg>
);
