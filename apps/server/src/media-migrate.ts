/**
 * `npm run media:migrate [folder]`: copies the local media folder (DATA_DIR/media, or `folder`) into
 * the S3 bucket of the S3_* variables, skipping objects already there with the same size, and
 * prints the counts. Run it once when moving a node from STORAGE=local to STORAGE=s3 (again after
 * an interruption: it is idempotent). Exit code 1 when the bucket check fails or a file could not
 * be copied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from './config.js';
import { copyFolderToStorage } from './lib/storage/copy-folder.js';
import { createS3Storage, localMediaRoot } from './lib/storage/create-storage.js';

/**
 * Runs the migration for `env` and the command's arguments, printing through `print`.
 * @returns the process exit code (0 when every file is in the bucket).
 */
export async function runMediaMigrate(
  env: NodeJS.ProcessEnv,
  args: string[],
  print: (line: string) => void,
): Promise<number> {
  const config = loadConfig(env);
  const root = args[0] ? path.resolve(args[0]) : localMediaRoot(config);
  if (!fs.existsSync(root)) {
    print(`No media folder at ${root}: nothing to copy.`);
    return 0;
  }
  const bucket = createS3Storage(config);
  await bucket.check();
  print(
    `Copying ${root} to bucket ${config.S3_BUCKET}${config.S3_ENDPOINT ? ` at ${config.S3_ENDPOINT}` : ''}...`,
  );
  const counts = await copyFolderToStorage(root, bucket);
  for (const problem of counts.problems) print(`failed: ${problem}`);
  print(`copied ${counts.copied}, already there ${counts.skipped}, failed ${counts.failed}`);
  return counts.failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runMediaMigrate(process.env, process.argv.slice(2), (line) => console.log(line)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    },
  );
}
