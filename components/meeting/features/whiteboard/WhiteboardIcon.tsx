// The whiteboard's toolbar icon, drawn like the call's others (components/meeting/icons.tsx).
export function WhiteboardIcon({ className }: { className?: string }) {
  return (
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
      <rect x="3" y="4" width="18" height="13" rx="1.5" />
      <path d="M7 13c2-4 3.5-4 5-1.5S15 14 17 9M9 21l3-4 3 4" />
    </svg>
  );
}
