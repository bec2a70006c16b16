import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';

/** True for a bare origin such as 'https://app.example.com' or 'http://localhost:3000'. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * Environment schema, checked once at boot. Every variable is optional; defaults give the embedded
 * single-machine setup (PGlite under DATA_DIR, in-process socket fan-out, generated secrets).
 */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  JWT_SECRET: z.string().optional(),
  /** 64 hex characters: key encrypting WhatsApp session state at rest; generated when unset. */
  SESSION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters')
    .optional(),
  /** Access token lifetime, seconds. */
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(10).max(86_400).default(900),
  /** Refresh token lifetime, seconds. */
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .default(7 * 86_400),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * A request that takes longer than this (ms) is logged at warn whatever its status; faster
   * successful requests are logged at debug only (lib/request-log.ts).
   */
  SLOW_REQUEST_MS: z.coerce.number().int().min(1).max(600_000).default(1000),
  /** Directory of the built web app served by `npm start`. */
  WEB_DIST: z.string().optional(),
  /** First super user in production mode. */
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  SIGNUP_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Seed the demo company on first start of the embedded default ('auto'), always or never. */
  SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
  /**
   * Consecutive failed sign-ins allowed per e-mail from one address (cleared by a success); one more
   * locks that e-mail on that address for LOGIN_RATE_WINDOW_MS.
   */
  LOGIN_RATE_MAX: z.coerce.number().int().min(1).default(10),
  LOGIN_RATE_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
  /** Failed sign-ins allowed per address per day, over every e-mail. */
  LOGIN_IP_DAILY_MAX: z.coerce.number().int().min(1).default(100),
  /**
   * Failed sign-ins allowed per e-mail per day from addresses that never signed into it; past that,
   * only addresses where the account signed in before (20 days) may try until the day ends.
   */
  LOGIN_ACCOUNT_DAILY_MAX: z.coerce.number().int().min(1).default(50),
  /**
   * Reverse proxies trusted for X-Forwarded-For: off by default (the peer address is the client);
   * a comma list of addresses or CIDRs (or `loopback`, `linklocal`, `uniquelocal`).
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx): string[] | false => {
      const list = (value ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      if (list.length === 0 || (list.length === 1 && list[0] === 'false')) return false;
      if (list.some((part) => part === 'true' || /^\d+$/.test(part))) {
        ctx.addIssue({
          code: 'custom',
          message:
            'name the proxy addresses or CIDRs; trusting every sender or a hop count lets clients forge their address',
        });
        return z.NEVER;
      }
      try {
        proxyAddr.compile(list);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
      return list;
    }),
  /**
   * When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`. In production /metrics
   * answers 404 while it is unset (never open); elsewhere it is open without it.
   */
  METRICS_TOKEN: z.string().min(1).optional(),
  /**
   * Path under which the API is served: '/api' by default; empty (or '/') serves it at the root,
   * as the original Whaticket backend does. One or more '/segment' parts, no trailing slash.
   */
  API_PREFIX: z
    .string()
    .default('/api')
    .transform((v) => v.trim().replace(/\/+$/, ''))
    .pipe(z.string().regex(/^(\/[A-Za-z0-9._~-]+)*$/, "must be empty or like '/api'")),
  /**
   * Comma-separated origins (scheme://host[:port]) allowed to call the API and socket.io from a
   * browser with credentials (CORS). Empty: same origin only.
   */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().refine(isOrigin, 'each entry must be an origin like https://app.example.com'))),
  /** How long the simulator's QR step takes before pairing by itself, ms. */
  SIMULATOR_PAIR_MS: z.coerce.number().int().min(0).max(60_000).default(1500),
  /**
   * A file the simulated phones append each message they take to (one JSON line: connectionId, to,
   * id, body), so what reached them outlives the server's processes (crash tests). Unset: none.
   */
  SIMULATOR_JOURNAL: z.string().min(1).optional(),
  /**
   * Meta's Graph API for the Cloud API driver (provider 'cloud'): origin and version. Tests point
   * the origin at a local fake.
   */
  CLOUD_API_URL: z
    .string()
    .default('https://graph.facebook.com')
    .refine(isOrigin, 'must be an origin like https://graph.facebook.com'),
  CLOUD_API_VERSION: z
    .string()
    .regex(/^v\d{1,3}\.\d{1,3}$/, "must look like 'v21.0'")
    .default('v21.0'),
  /**
   * First delay before an outbound message the provider refused for its rate limit is sent again,
   * seconds; it doubles at each attempt (up to SEND_RETRY_LIMIT attempts).
   */
  SEND_RETRY_BASE_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  SEND_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(6),
  /**
   * The bound on a graceful stop (SIGTERM, SIGINT), ms: sessions handed over, sockets closed, running
   * jobs and in-flight requests finished; past it the process exits with code 1.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * How long a stopping node keeps answering after its readiness fails and its sessions are handed
   * over, ms, each answer closing its connection: longer than the proxy's health-check interval, so
   * the proxy stops sending it requests before it stops listening (a request on a pooled connection
   * to a node that closed would fail instead of going to another node).
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
  /** How long a node's lease on a connection's session lasts without renewal, ms (Postgres only). */
  SESSION_LEASE_MS: z.coerce.number().int().min(4000).max(600_000).default(20_000),
  /**
   * How long a node's claim on an outbound message (handing it to its session) holds, ms. A claim
   * older than this has lapsed and the session's owner sends the message; a driver call is given up
   * after half of it, so a live sender never loses its claim mid-call.
   */
  SENDING_CLAIM_MS: z.coerce.number().int().min(10_000).max(3_600_000).default(120_000),
  /**
   * Let server-side requests to URLs a company supplies (outgoing webhooks, n8n/webhook/Typebot
   * bots, the flow builder's Typebot node, a Dialogflow key's token_uri) reach loopback, private,
   * link-local and other non-public addresses (receivers on the same machine or network). Off by
   * default: a company's URL cannot probe the server's own network.
   */
  OUTBOUND_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).optional(),
  /** The former name of OUTBOUND_ALLOW_PRIVATE_URLS, still read when that one is unset. */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).optional(),
  /**
   * This node's id, stable across restarts and unique among live nodes: it owns session leases and
   * claimed jobs, which a restart takes back at once. Default: host name + a hash of DATA_DIR.
   */
  /**
   * Base URL of the OpenAI-compatible server the AI prompts call (e.g. a local gateway); the
   * official API when unset.
   */
  OPENAI_BASE_URL: z.string().url().optional(),
  /** Dialogflow's REST API base (detectIntent); Google's by default. */
  DIALOGFLOW_BASE_URL: z.string().url().default('https://dialogflow.googleapis.com'),
  /** How long one call to an outside bot (model, Typebot, webhook, Dialogflow) may take, ms. */
  BOT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Server processes on this machine (cluster.ts): 1 runs everything in this process; more forks
   * that many workers sharing PORT, and needs DATABASE_URL and REDIS_URL.
   */
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  NODE_ID: z
    .string()
    .regex(/^[\w.:-]{1,100}$/, 'letters, digits, . _ : - (up to 100)')
    .optional() /**
   * Outgoing mail server, e.g. smtp://user:pass@smtp.example.com:587 or smtps://...:465. Unset:
   * messages are written as .eml files to DATA_DIR/outbox and the log says where.
   */,
  SMTP_URL: z
    .string()
    .url()
    .refine((v) => /^smtps?:/.test(v), 'must start with smtp:// or smtps://')
    .optional(),
  /**
   * Who charges the subscriptions: 'manual' (Pix BR Code to the platform key set by the
   * super user, who marks invoices paid), 'asaas' (Pix charges at the Asaas API, confirmed by its
   * webhook) or 'crm' (invoices at a Perfex CRM, which returns a payment link).
   */
  BILLING_PROVIDER: z.enum(['manual', 'asaas', 'crm']).default('manual'),
  /** Asaas API base URL including the version path (e.g. '<host>/v3'); required for 'asaas'. */
  ASAAS_API_URL: z.string().url().optional(),
  ASAAS_API_KEY: z.string().min(1).optional(),
  /** The token Asaas sends in the `asaas-access-token` header of its webhooks. */
  ASAAS_WEBHOOK_TOKEN: z.string().min(16).optional(),
  /** Perfex CRM base URL (its REST API module answers under '/api'); enables the /crm-* calls. */
  CRM_URL: z.string().url().optional(),
  /** Perfex CRM API token (the `authtoken` header); never sent to the browser. */
  CRM_TOKEN: z.string().min(1).optional(),
  /** Where media files are kept: 'local' (DATA_DIR/media, one machine) or 's3' (the S3_* bucket, several nodes). */
  STORAGE: z.enum(['local', 's3']).default('local'),
  /** S3-compatible endpoint, e.g. http://minio:9000 or https://<account>.r2.cloudflarestorage.com; AWS when unset. */
  S3_ENDPOINT: z.string().url().optional(),
  /** The bucket (private: Zapdesk streams its objects to the owning company). Required with STORAGE=s3. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, '3 to 63 lowercase letters, digits, dots or hyphens')
    .optional(),
  S3_REGION: z.string().min(1).max(64).default('us-east-1'),
  /** Access keys; both or neither (neither: the SDK's default chain, e.g. an instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).max(256).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).max(256).optional(),
  /** 'true' puts the bucket in the path (MinIO and most self-hosted servers); 'false' in the host name. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Sender of the platform's e-mails. */
  /**
   * Web Push (VAPID) key pair, base64url as `web-push generate-vapid-keys` prints them: set both or
   * neither; unset, a pair is generated once into DATA_DIR/vapid.json. Several nodes must share one.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{80,100}$/, 'a base64url P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{40,50}$/, 'a base64url P-256 private key')
    .optional(),
  /** Who push services contact about this server's pushes: a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .max(200)
    .refine((v) => /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(v), 'a mailto: or https: URL')
    .default('mailto:no-reply@zapdesk.local'),
  MAIL_FROM: z.string().min(3).max(200).default('Zapdesk <no-reply@zapdesk.local>'),
  /** Password-reset codes asked for per e-mail per hour. */
  PASSWORD_RESET_EMAIL_MAX: z.coerce.number().int().min(1).max(1000).default(3),
  /** Password-reset calls (codes asked for, codes tried) per client address per hour. */
  PASSWORD_RESET_IP_MAX: z.coerce.number().int().min(1).max(100_000).default(20),
});

/** The names of every environment variable the server reads through its configuration. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZEnv.shape);

export type Config = Omit<
  z.infer<typeof ZEnv>,
  'OUTBOUND_ALLOW_PRIVATE_URLS' | 'WEBHOOK_ALLOW_PRIVATE_URLS'
> & {
  /** OUTBOUND_ALLOW_PRIVATE_URLS, or its former name WEBHOOK_ALLOW_PRIVATE_URLS; false when neither is set. */
  OUTBOUND_ALLOW_PRIVATE_URLS: boolean;
  production: boolean;
  dataDir: string;
  /** NODE_ID, or the host name with a hash of the resolved DATA_DIR. */
  nodeId: string;
};

/**
 * Reads and validates the environment.
 * @throws Error naming every invalid variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const { OUTBOUND_ALLOW_PRIVATE_URLS, WEBHOOK_ALLOW_PRIVATE_URLS, ...c } = parsed.data;
  const storageProblems = [
    c.STORAGE === 's3' && !c.S3_BUCKET ? 'S3_BUCKET: required when STORAGE=s3' : '',
    !c.S3_ACCESS_KEY_ID !== !c.S3_SECRET_ACCESS_KEY
      ? 'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither'
      : '',
  ].filter(Boolean);
  if (!c.VAPID_PUBLIC_KEY !== !c.VAPID_PRIVATE_KEY) {
    storageProblems.push('VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: set both or neither');
  }
  if (storageProblems.length) throw new Error(`Invalid configuration:\n${storageProblems.join('\n')}`);
  const dataDir = path.resolve(c.DATA_DIR);
  const nodeId =
    c.NODE_ID ?? `${os.hostname()}-${crypto.createHash('sha256').update(dataDir).digest('hex').slice(0, 8)}`;
  return {
    ...c,
    OUTBOUND_ALLOW_PRIVATE_URLS: (OUTBOUND_ALLOW_PRIVATE_URLS ?? WEBHOOK_ALLOW_PRIVATE_URLS) === 'true',
    production: c.NODE_ENV === 'production',
    dataDir,
    nodeId,
  };
}
