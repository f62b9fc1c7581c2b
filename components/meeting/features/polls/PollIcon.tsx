// The toolbar's "Polls" icon: three bars, drawn like the call's other icons (components/meeting/icons.tsx).
export const PollIcon = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
    <path d="M4 20h16M7 16V10M12 16V5M17 16v-3" />
  </svg>
);
