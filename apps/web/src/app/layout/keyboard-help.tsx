import { lazy, Suspense, useEffect, useState } from 'react';

/** The help sheet (MUI Dialog, Table), loaded the first time it opens. */
const KeyboardHelpDialog = lazy(() =>
  import('./keyboard-help-dialog').then((m) => ({ default: m.KeyboardHelpDialog })),
);

/** The window event that opens the help sheet from a menu (see openKeyboardHelp). */
const OPEN_EVENT = 'zapdesk:keyboard-help';

/** Opens the keyboard help sheet (from the profile menu, for instance). */
export function openKeyboardHelp(): void {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

/** Editable content (what `isContentEditable` says, where a DOM lacks it). */
const EDITABLE = '[contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]';

/** Whether a key press lands in a text field (input, text area, select, editable content). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return true;
  return target.isContentEditable || target.closest(EDITABLE) !== null;
}

/**
 * The keyboard help sheet of the signed-in pages: `?` opens it when the focus is not in a text
 * field (so typing a question mark stays typing) and no Ctrl, Alt or Meta is held.
 */
export function KeyboardHelp() {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  useEffect(() => {
    const show = () => {
      setOpen(true);
      setUsed(true);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented)
        return;
      if (isTypingTarget(event.target)) return;
      event.preventDefault();
      show();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener(OPEN_EVENT, show);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener(OPEN_EVENT, show);
    };
  }, []);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <KeyboardHelpDialog open={open} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
