'use client';

// The background choice: off, two blurs, the bundled pictures, or the person's own (kept in this
// browser only). Loaded with the device dialog in the call and the lobby's background dialog,
// never with the meeting page itself.
import { useEffect, useId, useState } from 'react';
import { useTranslations } from 'next-intl';
import {
  BUNDLED_IMAGES,
  bundledImageUrl,
  choiceKey,
  rememberBackground,
  rememberedBackground,
  type BackgroundChoice,
} from '@/lib/meeting/client/background/choice';
import { loadOwnImage, OWN_IMAGE_MAX_BYTES, saveOwnImage } from '@/lib/meeting/client/background/own-image';

type Problem = 'unavailable' | 'notAPicture' | 'tooLarge';

interface BackgroundPickerProps {
  /** Applies the choice to the camera now sent (if it is on); rejects when it cannot run here. */
  onChoose: (choice: BackgroundChoice) => Promise<void>;
  cameraOn: boolean;
}

const OPTIONS: BackgroundChoice[] = [
  { kind: 'off' },
  { kind: 'blur', strength: 'light' },
  { kind: 'blur', strength: 'strong' },
  ...BUNDLED_IMAGES.map((image) => ({ kind: 'image', image }) as const),
];

export function BackgroundPicker({ onChoose, cameraOn }: BackgroundPickerProps) {
  const t = useTranslations('Meeting.background');
  const id = useId();
  const [chosen, setChosen] = useState<BackgroundChoice>(() => rememberedBackground());
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [ownUrl, setOwnUrl] = useState<string | null>(null);

  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    void loadOwnImage().then((blob) => {
      if (cancelled || !blob) return;
      url = URL.createObjectURL(blob);
      setOwnUrl(url);
    });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, []);

  async function choose(choice: BackgroundChoice) {
    const before = chosen;
    setChosen(choice);
    setProblem(null);
    setBusy(true);
    try {
      await onChoose(choice);
      rememberBackground(choice);
    } catch {
      setChosen(before);
      setProblem('unavailable');
    } finally {
      setBusy(false);
    }
  }

  async function chooseFile(file: File | undefined) {
    if (!file) return;
    if (file.size > OWN_IMAGE_MAX_BYTES) return setProblem('tooLarge');
    try {
      // Decoded once here to refuse a file that is no picture; it is stored as it is, on this device.
      (await createImageBitmap(file)).close();
    } catch {
      return setProblem('notAPicture');
    }
    await saveOwnImage(file);
    setOwnUrl((previous) => {
      if (previous) URL.revokeObjectURL(previous);
      return URL.createObjectURL(file);
    });
    await choose({ kind: 'image', image: 'own' });
  }

  const options = ownUrl ? [...OPTIONS, { kind: 'image', image: 'own' } as const] : OPTIONS;
  const label = (choice: BackgroundChoice) =>
    choice.kind === 'off' ? t('off') : choice.kind === 'blur' ? t(choice.strength === 'light' ? 'blurLight' : 'blurStrong') : t(`image.${choice.image}`);
  const thumbnail = (choice: BackgroundChoice) => {
    if (choice.kind !== 'image') return null;
    const src = choice.image === 'own' ? ownUrl : bundledImageUrl(choice.image);
    // eslint-disable-next-line @next/next/no-img-element -- a 16:9 thumbnail of a local or bundled picture
    return src ? <img src={src} alt="" className="aspect-video w-full rounded object-cover" /> : null;
  };

  return (
    <fieldset className="flex min-w-0 flex-col gap-2 text-sm" aria-busy={busy || undefined} aria-describedby={`${id}-private`}>
      <legend className="mb-1 font-medium">{t('legend')}</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {options.map((choice) => {
          const key = choiceKey(choice);
          return (
            <label
              key={key}
              className="flex cursor-pointer flex-col gap-1 rounded-md border border-slate-300 p-2 has-[:checked]:border-sky-600 has-[:checked]:ring-2 has-[:checked]:ring-sky-600 has-[:focus-visible]:outline has-[:focus-visible]:outline-2"
            >
              {thumbnail(choice)}
              <span className="flex items-center gap-2">
                {/* Not disabled while busy: a disabled radio drops the keyboard's focus to the page, and Escape then no longer closes the dialog. */}
                <input
                  type="radio"
                  name={`${id}-background`}
                  value={key}
                  checked={choiceKey(chosen) === key}
                  aria-disabled={busy || undefined}
                  onChange={() => {
                    if (!busy) void choose(choice);
                  }}
                />
                {label(choice)}
              </span>
            </label>
          );
        })}
      </div>
      <label className="flex flex-col gap-1">
        <span className="font-medium">{t('chooseOwn')}</span>
        <input
          type="file"
          accept="image/*"
          disabled={busy}
          onChange={(event) => void chooseFile(event.target.files?.[0])}
          className="max-w-full text-xs file:mr-2 file:rounded file:border-0 file:bg-slate-200 file:px-2 file:py-1"
        />
      </label>
      <p id={`${id}-private`} className="text-xs text-slate-600">
        {t('private')}
        {!cameraOn && ` ${t('cameraOffHint')}`}
      </p>
      {problem && (
        <p role="alert" className="rounded-md bg-amber-100 px-3 py-2 text-amber-900">
          {t(`problem.${problem}`)}
        </p>
      )}
    </fieldset>
  );
}
