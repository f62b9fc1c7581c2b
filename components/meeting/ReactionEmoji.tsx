/**
 * A reaction's picture (issue 48): a Twemoji SVG from public/emoji/ (CC-BY 4.0, credited in
 * public/emoji/LICENSE), so that a desktop without a colour-emoji font shows the emoji, not an
 * empty box. Served by this server: no request leaves for a third party.
 */
export function emojiSrc(emoji: string): string {
  const points = [...emoji].map((char) => char.codePointAt(0)!.toString(16)).filter((point) => point !== 'fe0f');
  return `/emoji/${points.join('-')}.svg`;
}

/** `label`: the text read for it where the picture stands alone; '' where a label is beside it. */
export function ReactionEmoji({ emoji, size = 24, label = '' }: { emoji: string; size?: number; label?: string }) {
  // A plain <img> on purpose, as components/i18n/Flag.tsx: a tiny SVG needs none of next/image's work.
  return (
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={emojiSrc(emoji)}
      alt={label}
      width={size}
      height={size}
      draggable={false}
      className="inline-block shrink-0 align-middle"
      style={{ width: size, height: size }}
    />
  );
}
