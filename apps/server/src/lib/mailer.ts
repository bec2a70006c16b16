import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

/** A plain-text e-mail. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends the platform's e-mails. */
export interface Mailer {
  /**
   * Sends `mail`: through SMTP_URL when set, otherwise written as an .eml file to DATA_DIR/outbox
   * (the log names the file, never the content). @throws the transport's error.
   */
  send(mail: Mail): Promise<void>;
}

/** Folder of the mails written when SMTP_URL is unset. */
export const outboxDir = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'outbox');

/** The mailer of the configuration (nodemailer over SMTP_URL, or the outbox folder). */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(mail) {
        await transport.sendMail({ from: config.MAIL_FROM, ...mail });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = outboxDir(config);
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: config.MAIL_FROM, ...mail });
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${Date.now()}-${crypto.randomBytes(4).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ file, subject: mail.subject }, `SMTP_URL is not set: mail written to ${file}`);
    },
  };
}
