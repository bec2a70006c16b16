import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

export interface Secrets {
  jwtSecret: Uint8Array;
  /** 32-byte key encrypting driver session state at rest (AES-256-GCM). */
  sessionKey: Buffer;
}

const MIN_SECRET_BYTES = 32;

/**
 * Returns the JWT signing secret and the session-state encryption key. SESSION_KEY (64 hex chars)
 * wins for the latter; otherwise it is generated with the JWT secret and kept in the same file. A configured JWT_SECRET wins; otherwise one is generated once
 * (64 random bytes) and kept in DATA_DIR/secrets.json with mode 0600.
 * @throws Error in production when a configured secret is shorter than 32 bytes.
 */
export function loadSecrets(config: Config): Secrets {
  const configured = config.JWT_SECRET;
  if (configured !== undefined && config.production && Buffer.byteLength(configured) < MIN_SECRET_BYTES) {
    throw new Error(`JWT_SECRET must be at least ${MIN_SECRET_BYTES} bytes in production`);
  }
  if (configured !== undefined && config.SESSION_KEY !== undefined) {
    return {
      jwtSecret: new TextEncoder().encode(configured),
      sessionKey: Buffer.from(config.SESSION_KEY, 'hex'),
    };
  }
  const file = path.join(config.dataDir, 'secrets.json');
  fs.mkdirSync(config.dataDir, { recursive: true });
  let stored: { jwtSecret?: string; sessionKey?: string } = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof stored;
  if (!stored.jwtSecret || !stored.sessionKey) {
    stored.jwtSecret ??= crypto.randomBytes(64).toString('base64url');
    stored.sessionKey ??= crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
  }
  fs.chmodSync(file, 0o600);
  return {
    jwtSecret: new TextEncoder().encode(configured ?? stored.jwtSecret),
    sessionKey: Buffer.from(config.SESSION_KEY ?? stored.sessionKey, 'hex'),
  };
}

const SECRET_PREFIX = 's1:';

/**
 * Encrypts a stored secret (an AI API key, a service-account key) with AES-256-GCM under the
 * instance key (`Secrets.sessionKey`): `s1:` + base64(12-byte IV, 16-byte tag, ciphertext).
 */
export function encryptSecret(plain: string, key: Buffer): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return SECRET_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/**
 * Decrypts a value of `encryptSecret`; an empty value stays empty.
 * @throws Error when the value was not written by `encryptSecret` with this key.
 */
export function decryptSecret(stored: string, key: Buffer): string {
  if (stored === '') return '';
  if (!stored.startsWith(SECRET_PREFIX)) throw new Error('unknown secret format');
  const raw = Buffer.from(stored.slice(SECRET_PREFIX.length), 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** What the browser sees of a stored key: its first 3 and last 4 characters ('sk-…abcd'). */
export function maskSecret(plain: string): string {
  if (plain.length <= 8) return '…';
  return `${plain.slice(0, 3)}…${plain.slice(-4)}`;
}
