// Small inline icons for the call controls (no icon font: nothing to fetch, nothing to ship).
type IconProps = { off?: boolean; className?: string };

function Svg({ children, className }: { children: React.ReactNode; className?: string }) {
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
      {children}
    </svg>
  );
}

const Slash = () => <line x1="3" y1="3" x2="21" y2="21" />;

export const MicIcon = ({ off, className }: IconProps) => (
  <Svg className={className}>
    <rect x="9" y="2" width="6" height="12" rx="3" />
    <path d="M5 10v1a7 7 0 0 0 14 0v-1M12 18v4" />
    {off && <Slash />}
  </Svg>
);

export const CameraIcon = ({ off, className }: IconProps) => (
  <Svg className={className}>
    <rect x="2" y="6" width="14" height="12" rx="2" />
    <path d="m16 10 6-3v10l-6-3" />
    {off && <Slash />}
  </Svg>
);

export const ScreenIcon = ({ off, className }: IconProps) => (
  <Svg className={className}>
    <rect x="2" y="3" width="20" height="14" rx="2" />
    <path d="M8 21h8M12 17v4" />
    {off && <Slash />}
  </Svg>
);

export const HandIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <path d="M18 11V6a2 2 0 0 0-4 0v5M14 10V4a2 2 0 0 0-4 0v6M10 10.5V6a2 2 0 0 0-4 0v8a8 8 0 0 0 16 0v-3a2 2 0 0 0-4 0" />
  </Svg>
);

export const ChatIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
  </Svg>
);

export const PeopleIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <circle cx="9" cy="7" r="4" />
    <path d="M17 11a3 3 0 1 0 0-6M3 21v-2a4 4 0 0 1 4-4h4a4 4 0 0 1 4 4v2M21 21v-2a4 4 0 0 0-3-3.85" />
  </Svg>
);

export const RecordIcon = ({ off, className }: IconProps) => (
  <Svg className={className}>
    <circle cx="12" cy="12" r="9" />
    {!off && <circle cx="12" cy="12" r="4" fill="currentColor" />}
  </Svg>
);

export const LinkIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <path d="M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71" />
  </Svg>
);

export const LeaveIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
  </Svg>
);

export const SmileIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <circle cx="12" cy="12" r="10" />
    <path d="M8 14s1.5 2 4 2 4-2 4-2M9 9h.01M15 9h.01" />
  </Svg>
);

export const PinIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <path d="M12 17v5M5 17h14l-2-5V4H7v8z" />
  </Svg>
);

export const MoreIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <circle cx="12" cy="5" r="1.5" fill="currentColor" />
    <circle cx="12" cy="12" r="1.5" fill="currentColor" />
    <circle cx="12" cy="19" r="1.5" fill="currentColor" />
  </Svg>
);

export const SettingsIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0" />
    <circle cx="16" cy="6" r="2" />
    <circle cx="10" cy="12" r="2" />
    <circle cx="18" cy="18" r="2" />
  </Svg>
);

export const PipIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <rect x="2" y="4" width="20" height="16" rx="2" />
    <rect x="12" y="12" width="7" height="5" rx="1" />
  </Svg>
);

// A person in front of a scene: the background-effects button.
export const BackgroundIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <rect x="2" y="3" width="20" height="18" rx="2" />
    <circle cx="12" cy="10" r="3" />
    <path d="M6 21a6 6 0 0 1 12 0" />
  </Svg>
);

// "Polls": three bars.
export const PollIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <path d="M4 20h16M7 16V10M12 16V5M17 16v-3" />
  </Svg>
);

// "Whiteboard": a board on its stand with a line drawn on it.
export const WhiteboardIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <rect x="3" y="4" width="18" height="13" rx="1.5" />
    <path d="M7 13c2-4 3.5-4 5-1.5S15 14 17 9M9 21l3-4 3 4" />
  </Svg>
);

// "Captions": a screen with two lines of subtitles.
export const CaptionsIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <rect x="2" y="5" width="20" height="14" rx="2" />
    <path d="M6 12h4M13 12h5M6 15.5h8M16.5 15.5h1.5" />
  </Svg>
);

// "Breakout rooms": a call split into four rooms.
export const BreakoutIcon = ({ className }: IconProps) => (
  <Svg className={className}>
    <rect x="3" y="3" width="7.5" height="7.5" rx="1.5" />
    <rect x="13.5" y="3" width="7.5" height="7.5" rx="1.5" />
    <rect x="3" y="13.5" width="7.5" height="7.5" rx="1.5" />
    <rect x="13.5" y="13.5" width="7.5" height="7.5" rx="1.5" />
  </Svg>
);
