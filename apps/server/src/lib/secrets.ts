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
