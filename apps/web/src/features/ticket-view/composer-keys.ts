import { type KeyboardEvent, type RefObject, useLayoutEffect, useRef } from 'react';
import { wrapSelection } from '../../lib/whatsapp-format';

/** The WhatsApp marker a composer shortcut inserts: Ctrl+B bold, Ctrl+I italic, Ctrl+Shift+X strike. */
export function shortcutMarker(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): string | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (event.shiftKey) return key === 'x' ? '~' : null;
  if (key === 'b') return '*';
  if (key === 'i') return '_';
  return null;
}

/** Enter without Shift and outside an input method's composition: the key that sends or chooses. */
export const isPlainEnter = (event: KeyboardEvent<HTMLElement>) =>
  event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;

/**
 * ArrowDown/ArrowUp move the highlighted one of `count` options (wrapping round); true when the key
 * was one of them (its default is then prevented).
 */
export function moveHighlight(
  event: KeyboardEvent<HTMLElement>,
  count: number,
  setHighlight: (update: (h: number) => number) => void,
): boolean {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return false;
  event.preventDefault();
  const step = event.key === 'ArrowDown' ? 1 : -1;
  setHighlight((h) => (h + step + count) % count);
  return true;
}

/**
 * The text box's formatting shortcuts and kept selection: `keepSelection(start, end)` places the
 * caret once the next text is rendered; `onShortcut(event)` wraps the selection in the shortcut's
 * marker and answers true when the key was a shortcut.
 */
export function useFormatShortcuts(
  textInput: RefObject<HTMLTextAreaElement | null>,
  text: string,
  setText: (text: string) => void,
) {
  // The selection to restore once the text a shortcut changed is rendered.
  const nextSelection = useRef<{ start: number; end: number } | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after the text a shortcut changed
  useLayoutEffect(() => {
    const selection = nextSelection.current;
    if (!selection || !textInput.current) return;
    nextSelection.current = null;
    textInput.current.setSelectionRange(selection.start, selection.end);
  }, [text]);

  const keepSelection = (start: number, end: number) => {
    nextSelection.current = { start, end };
  };

  const onShortcut = (event: KeyboardEvent<HTMLElement>): boolean => {
    const marker = shortcutMarker(event);
    if (!marker) return false;
    event.preventDefault();
    const el = textInput.current;
    const next = wrapSelection(
      text,
      el?.selectionStart ?? text.length,
      el?.selectionEnd ?? text.length,
      marker,
    );
    keepSelection(next.start, next.end);
    setText(next.text);
    return true;
  };

  return { keepSelection, onShortcut };
}
