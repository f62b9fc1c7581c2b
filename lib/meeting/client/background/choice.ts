// What a person chose as their camera's background (off, blur, an image), remembered on this
// device. Small on purpose: the meeting page loads it; the video pipeline loads only when an
// effect is turned on (apply.ts).

export type BlurStrength = 'light' | 'strong';
/** A bundled picture (public/backgrounds/<id>.webp) or the person's own, kept in this browser (own-image.ts). */
export type BackgroundImage = (typeof BUNDLED_IMAGES)[number] | 'own';

export type BackgroundChoice = { kind: 'off' } | { kind: 'blur'; strength: BlurStrength } | { kind: 'image'; image: BackgroundImage };

export const BUNDLED_IMAGES = ['dawn', 'forest', 'studio'] as const;
export const OFF: BackgroundChoice = { kind: 'off' };

const STORAGE_KEY = 'enclave.background';

export function bundledImageUrl(image: (typeof BUNDLED_IMAGES)[number]): string {
  return `/backgrounds/${image}.webp`;
}

/** A stored value of another version or a hand edit reads as off, never as a broken effect. */
export function parseChoice(value: unknown): BackgroundChoice {
  if (!value || typeof value !== 'object') return OFF;
  const choice = value as Record<string, unknown>;
  if (choice.kind === 'blur' && (choice.strength === 'light' || choice.strength === 'strong')) return { kind: 'blur', strength: choice.strength };
  if (choice.kind === 'image' && (choice.image === 'own' || (BUNDLED_IMAGES as readonly unknown[]).includes(choice.image))) {
    return { kind: 'image', image: choice.image as BackgroundImage };
  }
  return OFF;
}

export function rememberedBackground(): BackgroundChoice {
  if (typeof window === 'undefined') return OFF;
  try {
    return parseChoice(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null'));
  } catch {
    return OFF;
  }
}

export function rememberBackground(choice: BackgroundChoice) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // private mode: nothing remembered
  }
}

/** A stable key for a choice: the picker's radio values. */
export function choiceKey(choice: BackgroundChoice): string {
  if (choice.kind === 'blur') return `blur-${choice.strength}`;
  if (choice.kind === 'image') return `image-${choice.image}`;
  return 'off';
}
