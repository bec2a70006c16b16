/** Screen sizes for the web tests: jsdom's matchMedia (test/setup.ts) matches nothing. */

/**
 * Runs `body` while `window.matchMedia(query).matches` is `matches(query)` (e.g. `() => true` for a
 * wide screen, `(q) => q.includes('max-width')` for a narrow one), then puts the previous
 * matchMedia back, also when `body` throws or rejects.
 */
export async function withMatchMedia(
  matches: (query: string) => boolean,
  body: () => unknown,
): Promise<void> {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...original(query),
    matches: matches(query),
  })) as typeof window.matchMedia;
  try {
    await body();
  } finally {
    window.matchMedia = original;
  }
}
