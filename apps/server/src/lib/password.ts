import { hash } from '@node-rs/argon2';

/** Hashes a password with argon2id (the library's defaults: 19 MiB, 2 passes); the encoded hash. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}
