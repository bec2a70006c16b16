import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.js';
import { AppError } from './app-error.js';

/**
 * The outbound-URL policy (docs/security.md "The outbound-URL policy"): every server-side
 * request to a URL a company typed (bot runners, the flow builder's Typebot node, a Dialogflow key's
 * token_uri, outgoing webhooks) goes through `outboundRequest`, which speaks only http(s), refuses
 * non-public addresses at connect time (each address a host name resolves to), re-checks every
 * redirect hop, and bounds time (ms) and answer size (bytes).
 */

/** One resolved address of a host name. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Where the policy applies and the seams tests use. */
export interface OutboundPolicy {
  /** Non-public addresses may be reached too (OUTBOUND_ALLOW_PRIVATE_URLS). */
  allowPrivate: boolean;
  /** Resolves a host name to all its addresses; the system resolver by default. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Whether an address may be reached; `isPublicAddress` by default. */
  isAllowedAddress?: (address: string) => boolean;
}

/** Why an outbound request failed. `refused`: the policy refused the URL or an address it resolved to. */
export type OutboundFailure = 'refused' | 'timeout' | 'too-large' | 'unreachable';

/** An outbound request that failed before a complete answer; `kind` says how. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** A complete (or, with `truncate`, cut) answer. */
export interface OutboundResponse {
  status: number;
  ok: boolean;
  headers: http.IncomingHttpHeaders;
  /** The body's bytes, at most `maxBytes`. */
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  text(): string;
}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, redirects included, ms. */
  timeoutMs: number;
  /** Largest answer body read, bytes (default 1 MiB). */
  maxBytes?: number;
  /** Keep the first `maxBytes` of a larger answer instead of failing with `too-large`. */
  truncate?: boolean;
  /** Redirects followed, each hop checked again (default 0: a 3xx answer is returned as is). */
  maxRedirects?: number;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;

function embeddedIPv4(parts: number[]): ipaddr.IPv4 {
  const [hi = 0, lo = 0] = parts;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * Whether an IP address (v4 or v6, in any form `ipaddr.js` parses) is a public unicast address.
 * Loopback, private, link-local, CGNAT, documentation, benchmarking, multicast, broadcast, reserved
 * and unspecified ranges are not; IPv6 forms carrying an IPv4 address (mapped, compatible,
 * translated, NAT64 64:ff9b::/96, 6to4) are judged by that IPv4 address; Teredo and the local NAT64
 * prefix are not public. Anything that does not parse is not public.
 */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const p = v6.parts;
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145')
    return isPublicAddress(embeddedIPv4(p.slice(6)).toString());
  if (range === 'rfc6052') {
    // Only the well-known NAT64 prefix maps to the public IPv4 internet; 64:ff9b:1::/48 is local.
    if (p[2] !== 0) return false;
    return isPublicAddress(embeddedIPv4(p.slice(6)).toString());
  }
  if (range === '6to4') return isPublicAddress(embeddedIPv4(p.slice(1, 3)).toString());
  // IPv4-compatible ::a.b.c.d (deprecated): ipaddr.js calls it unicast.
  if (p.slice(0, 6).every((x) => x === 0)) return isPublicAddress(embeddedIPv4(p.slice(6)).toString());
  return range === 'unicast';
}

const systemResolve = (hostname: string): Promise<ResolvedAddress[]> =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * What the policy reads from the app's context (AppContext satisfies it): the configuration, and the
 * seams (a resolver, an address judge) that tests set to treat a local server as public.
 */
export interface OutboundContext {
  config: Pick<Config, 'OUTBOUND_ALLOW_PRIVATE_URLS'>;
  outbound?: Pick<OutboundPolicy, 'resolve' | 'isAllowedAddress'>;
}

/** The app's policy: OUTBOUND_ALLOW_PRIVATE_URLS, read at each call, and the context's test seams. */
export function outboundPolicy(ctx: OutboundContext): OutboundPolicy {
  return { allowPrivate: ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS, ...ctx.outbound };
}

/** A URL's host as an IP literal without brackets, or undefined for a host name. */
function literalHost(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : undefined;
}

/**
 * Parses `raw` and checks what can be checked without resolving: http(s) only, and an IP-literal
 * host (any notation the URL parser accepts: `2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`) must be
 * allowed. @throws OutboundError('refused').
 */
export function checkUrlSyntax(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('refused', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('refused', `scheme ${url.protocol} not allowed`);
  }
  const literal = literalHost(url);
  if (literal && !policy.allowPrivate && !(policy.isAllowedAddress ?? isPublicAddress)(literal)) {
    throw new OutboundError('refused', `${literal} is not a public address`);
  }
  return url;
}

/**
 * Checks a URL before it is saved or tried: `checkUrlSyntax`, then (unless `allowPrivate`) every
 * address its host name resolves to now. A name that does not resolve is not refused here (the
 * request will fail as unreachable); the connect-time check still applies to every request.
 * @throws OutboundError('refused').
 */
export async function assertOutboundUrl(raw: string, policy: OutboundPolicy): Promise<void> {
  const url = checkUrlSyntax(raw, policy);
  if (policy.allowPrivate || literalHost(url)) return;
  let addresses: ResolvedAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(url.hostname);
  } catch {
    return;
  }
  const allowed = policy.isAllowedAddress ?? isPublicAddress;
  const blocked = addresses.find((a) => !allowed(a.address));
  if (blocked) throw new OutboundError('refused', `${url.hostname} resolves to a non-public address`);
}

/** A `lookup` for net.connect that resolves through the policy and fails on any refused address. */
function guardedLookup(policy: OutboundPolicy): LookupFunction {
  const resolve = policy.resolve ?? systemResolve;
  const allowed = policy.isAllowedAddress ?? isPublicAddress;
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const blocked = addresses.find((a) => !policy.allowPrivate && !allowed(a.address));
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = addresses.filter((a) => family === undefined || a.family === family);
        if (blocked) {
          callback(new OutboundError('refused', `${hostname} resolves to a non-public address`), '', 0);
        } else if (!usable.length) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        } else if (options.all) {
          (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}

/** One request, no redirects. */
function requestOnce(
  url: URL,
  init: OutboundInit,
  policy: OutboundPolicy,
  signal: AbortSignal,
): Promise<OutboundResponse> {
  const maxBytes = init.maxBytes ?? DEFAULT_MAX_BYTES;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: init.method ?? 'GET',
      headers: {
        ...init.headers,
        ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}),
      },
      // A fresh connection per request: a pooled socket would skip the connect-time check.
      agent: false,
      lookup: guardedLookup(policy),
      signal,
    });
    req.on('error', (error) => {
      if (error instanceof OutboundError) reject(error);
      else if (signal.aborted) reject(new OutboundError('timeout', 'timeout'));
      else {
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof OutboundError) reject(cause);
        else reject(new OutboundError('unreachable', (error as NodeJS.ErrnoException).code ?? error.message));
      }
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        const body = Buffer.concat(chunks).subarray(0, maxBytes);
        const status = res.statusCode ?? 0;
        resolve({
          status,
          ok: status >= 200 && status <= 299,
          headers: res.headers,
          body,
          url: url.toString(),
          text: () => body.toString('utf8'),
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > maxBytes) {
          if (init.truncate) finish();
          else {
            settled = true;
            reject(new OutboundError('too-large', `answer over ${maxBytes} bytes`));
          }
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', (error) => {
        if (settled) return;
        settled = true;
        reject(
          signal.aborted
            ? new OutboundError('timeout', 'timeout')
            : new OutboundError('unreachable', error.message),
        );
      });
      res.on('close', () => {
        // A connection closed before the end of the answer (a reset, or the deadline).
        if (settled) return;
        settled = true;
        reject(
          signal.aborted
            ? new OutboundError('timeout', 'timeout')
            : new OutboundError('unreachable', 'connection closed'),
        );
      });
    });
    req.end(init.body);
  });
}

/**
 * Sends one request to a URL a company supplied, under the policy: http(s) only; an IP-literal
 * host and every address a host name resolves to (checked as the connection opens, so a name that
 * resolves to a private address is refused) must be public unless `policy.allowPrivate`; up to
 * `init.maxRedirects` redirects followed, each hop checked the same way (301/302/303 become a GET
 * without body); the whole exchange within `init.timeoutMs` (ms); at most `init.maxBytes` bytes of
 * answer read.
 * @throws OutboundError — `refused` (policy), `timeout`, `too-large`, `unreachable` (network, too
 *   many redirects).
 */
export async function outboundRequest(
  raw: string,
  init: OutboundInit,
  policy: OutboundPolicy,
): Promise<OutboundResponse> {
  const signal = AbortSignal.timeout(init.timeoutMs);
  let url = checkUrlSyntax(raw, policy);
  let current = init;
  for (let hop = 0; ; hop++) {
    const response = await requestOnce(url, current, policy, signal);
    const location = response.headers.location;
    if (response.status < 300 || response.status > 399 || !location || (init.maxRedirects ?? 0) === 0) {
      return response;
    }
    if (hop >= (init.maxRedirects ?? 0)) throw new OutboundError('unreachable', 'too many redirects');
    let next: string;
    try {
      next = new URL(location, url).toString();
    } catch {
      throw new OutboundError('unreachable', 'invalid redirect');
    }
    const previous = url;
    url = checkUrlSyntax(next, policy);
    if (url.origin !== previous.origin && current.headers?.authorization) {
      const { authorization: _a, ...headers } = current.headers;
      current = { ...current, headers };
    }
    if (response.status === 301 || response.status === 302 || response.status === 303) {
      const { 'content-type': _t, ...headers } = current.headers ?? {};
      current = { ...current, method: 'GET', body: undefined, headers };
    }
  }
}

/**
 * Refuses, as a client error, a URL the company asks the server to call (saving or testing a bot
 * integration, a webhook, a key's token_uri, a flow's Typebot node): `assertOutboundUrl` under the
 * app's policy. `extra` joins the answer (e.g. the flow `node`).
 * @throws AppError ERR_URL_NOT_ALLOWED (400) with `field`.
 */
export async function assertUrlAllowed(
  ctx: OutboundContext,
  url: string,
  field: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  try {
    await assertOutboundUrl(url, outboundPolicy(ctx));
  } catch (error) {
    if (error instanceof OutboundError) {
      throw new AppError('ERR_URL_NOT_ALLOWED', { extra: { ...extra, field } });
    }
    throw error;
  }
}
