import { lazy, Suspense, useEffect, useState } from 'react';
import { useFirstPageSettled } from '../lib/first-page';
import { onToastNeeded, TOAST_CONTAINER } from '../lib/notify';
import { usePreferences } from '../lib/preferences';

const ToastContainer = lazy(() => import('react-toastify').then((m) => ({ default: m.ToastContainer })));

/** Calls `onMounted` once its boundary's content is committed (after the container subscribed). */
function Mounted({ onMounted }: { onMounted: () => void }) {
  useEffect(() => onMounted(), [onMounted]);
  return null;
}

/** A promise with its resolve function. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * The toast container (react-toastify), downloaded and mounted when the first toast is asked for
 * through lib/notify.ts (which waits until it is mounted) or once the first page is usable
 * (lib/first-page.ts), so that no first render loads it (docs/web.md, "Web delivery"). A toast that a
 * page raises with react-toastify's own `toast` before then waits in the library's queue and shows
 * when the container mounts.
 */
export function LazyToasts() {
  const { mode } = usePreferences();
  const [asked, setAsked] = useState(false);
  const [ready] = useState(deferred);
  const settled = useFirstPageSettled();
  useEffect(
    () =>
      onToastNeeded(() => {
        setAsked(true);
        return ready.promise;
      }),
    [ready],
  );
  if (!asked && !settled) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer {...TOAST_CONTAINER} theme={mode} />
      <Mounted onMounted={ready.resolve} />
    </Suspense>
  );
}
