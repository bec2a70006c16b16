/**
 * Teardown for a benchmark run: every resource registers its release; they run in reverse order,
 * once, each within 20 s, even when the run fails.
 */
export function createTeardown(label: string) {
  const releases: { name: string; run: () => unknown }[] = [];
  let tearingDown: Promise<void> | undefined;
  let aborted = false;

  /** Registers a release, run at teardown (last registered, first run). */
  function onTeardown(name: string, run: () => unknown): void {
    releases.push({ name, run });
  }

  /** Runs every release once; failures are logged, not thrown. */
  function teardown(): Promise<void> {
    tearingDown ??= (async () => {
      while (releases.length) {
        const { name, run } = releases.pop()!;
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(run),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error('timed out after 20 s')), 20_000);
            }),
          ]);
        } catch (error) {
          console.error(`teardown (${name}):`, error instanceof Error ? error.message : error);
        } finally {
          clearTimeout(timer);
        }
      }
    })();
    return tearingDown;
  }

  /** Logs the failure once, tears down and exits with status 1. */
  async function abort(reason: unknown): Promise<never> {
    if (!aborted) console.error(`${label} failed:`, reason);
    aborted = true;
    await teardown();
    process.exit(1);
  }

  return { onTeardown, teardown, abort };
}
