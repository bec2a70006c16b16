import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Config } from '../config.js';

/** The server's Web Push identity (VAPID): the key pair, base64url, and the contact subject. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The VAPID key pair: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when configured, else the pair kept in
 * DATA_DIR/vapid.json (mode 0600), generated there on first use, as the JWT secret is
 * (lib/secrets.ts). Browsers subscribe with the public key, so it must never change: several nodes
 * configure one pair (docs/operations.md "Web Push").
 */
export function loadVapidKeys(config: Config): VapidKeys {
  const subject = config.VAPID_SUBJECT;
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
  }
  const file = path.join(config.dataDir, 'vapid.json');
  fs.mkdirSync(config.dataDir, { recursive: true });
  let stored: Partial<Omit<VapidKeys, 'subject'>> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof stored;
  if (!stored.publicKey || !stored.privateKey) {
    stored = webpush.generateVAPIDKeys();
    fs.writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
  }
  fs.chmodSync(file, 0o600);
  return { publicKey: stored.publicKey!, privateKey: stored.privateKey!, subject };
}
