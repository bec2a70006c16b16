/** First-pass chunks for the tests of the first-render chunk plan (chunk-plan.ts). */
import type { PassChunk } from '../../chunk-plan';

/** The source folder the test chunks' facades sit in. */
export const PASS_SRC = '/app/src';

/** A first-pass chunk: `file`, its facade (relative to PASS_SRC) if it is one, its static imports, its modules. */
export function passChunk(
  file: string,
  facade: string | null,
  imports: string[],
  modules: string[],
): PassChunk {
  return {
    fileName: file,
    isEntry: file === 'index.js',
    facadeModuleId: facade ? `${PASS_SRC}/${facade}` : null,
    imports,
    moduleIds: modules,
  };
}
