/**
 * The draft as visitors will see it, rendered by the server (`/api/content/draft/preview`), at a
 * phone's or a desktop's real width scaled to fit beside the form, and scrolled to the section of
 * the part being edited, in either scheme. An iframe cannot tell a failed load from a page, so the address is asked
 * first and a failure is said in words.
 */
import { Monitor, Smartphone } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { PREVIEW_URL, previewAvailable } from '../../../api/content';

export const WIDTHS = {
  phone: { label: 'Phone', width: 390, height: 844, Icon: Smartphone },
  desktop: { label: 'Desktop', width: 1280, height: 800, Icon: Monitor },
} as const;
type Width = keyof typeof WIDTHS;
type Scheme = 'dark' | 'light';

/** Buttons of which one is pressed: the preview's width, its scheme. */
function PressedGroup<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: T; label: string; Icon?: typeof Monitor }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div className="flex gap-1" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
          className={`btn px-3 ${option.value === value ? 'btn-secondary text-white' : 'btn-ghost'}`}
        >
          {option.Icon && <option.Icon aria-hidden="true" className="size-4" />}
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** The box's size, as it changes. */
function useSize(ref: React.RefObject<HTMLElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

export function PreviewFrame({
  generation,
  anchor,
  scheme: first,
  languages,
  src = PREVIEW_URL,
}: {
  generation: string;
  anchor: string;
  scheme: Scheme;
  /** The draft's languages, the default first: with more than one, the preview shows the one chosen. */
  languages: readonly string[];
  /** What is previewed: the page's draft, or a case study's (`/api/content/case-studies/<id>/preview`). */
  src?: string;
}) {
  const [state, setState] = useState<'checking' | 'ready' | 'unavailable'>('checking');
  const [retry, setRetry] = useState(0);
  const [width, setWidth] = useState<Width>('phone');
  const [chosen, setScheme] = useState<Scheme | null>(null);
  const scheme = chosen ?? first;
  const [pickedLanguage, setLanguage] = useState(languages[0]!);
  const language = languages.includes(pickedLanguage) ? pickedLanguage : languages[0]!;
  const url = language === languages[0] ? src : `${src}?language=${encodeURIComponent(language)}`;
  const box = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  // The page inside is ours (same origin): its scheme is set as the visitor's toggle sets it, and
  // it is scrolled to the part's section. Not by a #fragment in its address: the page would bring
  // the section into view with scrollIntoView, which scrolls the editor around the frame too.
  // A frame whose next page is still arriving has a document without its root element yet: it is
  // left alone, and followed once that page has loaded.
  const follow = useCallback(() => {
    const inner = frame.current?.contentWindow;
    const document = frame.current?.contentDocument;
    const root = document?.documentElement as HTMLElement | null | undefined;
    if (!inner || !document || !root) return;
    root.setAttribute('data-scheme', scheme);
    const section = document.getElementById(anchor);
    const top = section && anchor !== 'home' ? section.getBoundingClientRect().top + inner.scrollY - 72 : 0;
    inner.scrollTo({ top, behavior: 'instant' });
  }, [anchor, scheme]);
  // When the part or the scheme changes; a newly loaded page, from its onLoad.
  useEffect(follow, [follow]);
  const size = useSize(box);
  useEffect(() => {
    let live = true;
    void previewAvailable(url).then((ok) => {
      if (live) setState(ok ? 'ready' : 'unavailable');
    });
    return () => {
      live = false;
    };
  }, [generation, retry, url]);
  const shown = WIDTHS[width];
  const scale = size.width > 0 ? Math.min(1, size.width / shown.width) : 1;
  return (
    <section aria-labelledby="preview-title" className="rounded-xl border border-gray-800 bg-gray-900/40 p-3">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="preview-title" className="text-lg font-bold text-white">
          Preview
        </h2>
        <PressedGroup
          label="Preview width"
          options={(Object.keys(WIDTHS) as Width[]).map((w) => ({ value: w, label: WIDTHS[w].label, Icon: WIDTHS[w].Icon }))}
          value={width}
          onChange={setWidth}
        />
        <PressedGroup
          label="Preview scheme"
          options={[
            { value: 'dark', label: 'Dark' },
            { value: 'light', label: 'Light' },
          ]}
          value={scheme}
          onChange={setScheme}
        />
        {languages.length > 1 && (
          <PressedGroup
            label="Preview language"
            options={languages.map((tag) => ({ value: tag, label: tag }))}
            value={language}
            onChange={setLanguage}
          />
        )}
        <button type="button" className="btn btn-ghost px-3" onClick={() => setRetry((n) => n + 1)}>
          Reload
        </button>
      </div>
      {state === 'unavailable' ? (
        <p role="status" className="rounded-lg border border-amber-700/60 bg-amber-950/40 p-3 text-sm text-amber-100">
          The preview could not be loaded. Your draft is not affected: press Reload, or publish and open the site to see it.
        </p>
      ) : (
        <div ref={box} className="h-[min(70dvh,44rem)] overflow-hidden rounded-lg border border-gray-800 bg-white">
          {state === 'ready' && (
            <iframe
              ref={frame}
              onLoad={follow}
              key={`${generation}-${retry}-${language}`}
              title={`Preview of the draft, ${shown.label.toLowerCase()} width`}
              src={url}
              width={shown.width}
              height={size.height > 0 ? Math.round(size.height / scale) : shown.height}
              style={{ transform: `scale(${scale})`, transformOrigin: '0 0' }}
              className="block border-0"
            />
          )}
        </div>
      )}
    </section>
  );
}
