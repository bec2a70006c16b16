/**
 * The emoji-mart picker (its web component, without the React 18-only wrapper), with its data and
 * translations bundled so nothing is fetched from a CDN. Loaded on demand by the composer.
 */
import { useTheme } from '@mui/material';
import { useEffect, useRef } from 'react';
import { currentLanguage } from '../../lib/i18n';

const I18N = {
  pt: () => import('@emoji-mart/data/i18n/pt.json'),
  es: () => import('@emoji-mart/data/i18n/es.json'),
  en: () => import('@emoji-mart/data/i18n/en.json'),
};

/** Calls `onSelect` with the native emoji chosen. */
export default function EmojiPicker({ onSelect }: { onSelect: (emoji: string) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const selectRef = useRef(onSelect);
  selectRef.current = onSelect;
  const mode = useTheme().palette.mode;

  useEffect(() => {
    let cancelled = false;
    const host = ref.current;
    const lang = currentLanguage();
    void Promise.all([import('emoji-mart'), import('@emoji-mart/data'), I18N[lang]()]).then(
      ([{ Picker }, data, i18n]) => {
        if (cancelled || !host) return;
        const picker = new Picker({
          data: data.default,
          i18n: i18n.default,
          locale: lang,
          theme: mode,
          previewPosition: 'none',
          skinTonePosition: 'search',
          onEmojiSelect: (emoji: { native?: string }) => {
            if (emoji.native) selectRef.current(emoji.native);
          },
        });
        host.replaceChildren(picker as unknown as Node);
      },
    );
    return () => {
      cancelled = true;
      host?.replaceChildren();
    };
  }, [mode]);

  return <div ref={ref} data-testid="emoji-picker" style={{ minWidth: 352, minHeight: 300 }} />;
}
