import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  assertOutboundUrl,
  isPublicAddress,
  OutboundError,
  type OutboundPolicy,
  outboundRequest,
} from './outbound-url.js';

describe('isPublicAddress', () => {
  const notPublic = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback /8'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['10.1.2.3', 'private'],
    ['172.16.0.9', 'private'],
    ['172.31.255.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.9', 'documentation TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'bracketed'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'link-local with zone'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['2001::1', 'Teredo'],
    ['100::1', 'discard'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, hex'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a00:1', 'NAT64 of private'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:c0a8:101::1', '6to4 of private'],
    ['localhost', 'not an address'],
    ['', 'empty'],
    ['2130706433', 'not an address (URL notation is for the URL parser)'],
  ] as const;
  const publicOnes = [
    ['8.8.8.8', 'public IPv4'],
    ['200.147.67.142', 'public IPv4'],
    ['203.0.114.7', 'next to documentation'],
    ['100.128.0.1', 'next to CGNAT'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['64:ff9b::808:808', 'NAT64 of public'],
    ['2002:808:808::1', '6to4 of public'],
  ] as const;
  it.each(notPublic)('%s (%s) is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
  it.each(publicOnes)('%s (%s) is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('outboundRequest', () => {
  /** Requests each local server received, by name. */
  const hits: Record<string, string[]> = { internal: [], public: [] };
  const internal = http.createServer((req, res) => {
    hits.internal!.push(req.url ?? '');
    res.end('internal secret');
  });
  const publicServer = http.createServer((req, res) => {
    hits.public!.push(req.url ?? '');
    if (req.url === '/to-internal') {
      res.writeHead(302, { location: internalUrl('/metadata') }).end();
    } else if (req.url === '/to-self') {
      res.writeHead(307, { location: '/ok' }).end();
    } else if (req.url === '/big') {
      res.end('x'.repeat(5000));
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 2000);
    } else res.end('hello');
  });
  let internalPort = 0;
  let publicPort = 0;
  const internalUrl = (p: string) => `http://127.0.0.1:${internalPort}${p}`;
  /**
   * The test's "internet": public.test resolves to 127.0.0.2, which this policy judges public (it
   * is the public server); every other address is judged as in production.
   */
  const policy: OutboundPolicy = {
    allowPrivate: false,
    resolve: async (hostname) =>
      hostname === 'public.test'
        ? [{ address: '127.0.0.2', family: 4 }]
        : hostname === 'internal.test'
          ? [{ address: '127.0.0.1', family: 4 }]
          : [],
    isAllowedAddress: (address) => address === '127.0.0.2' || isPublicAddress(address),
  };
  const publicUrl = (p: string) => `http://public.test:${publicPort}${p}`;

  beforeAll(async () => {
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    internalPort = (internal.address() as AddressInfo).port;
    await new Promise<void>((resolve) => publicServer.listen(0, '127.0.0.2', resolve));
    publicPort = (publicServer.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => internal.close(resolve));
    await new Promise((resolve) => publicServer.close(resolve));
  });
  beforeEach(() => {
    hits.internal = [];
    hits.public = [];
  });

  const refusal = async (url: string, p: OutboundPolicy = policy) => {
    const error = await outboundRequest(url, { timeoutMs: 2000, maxRedirects: 3 }, p).catch((e) => e);
    return error instanceof OutboundError ? error.kind : error;
  };

  it('refuses loopback in every notation, and never reaches the internal server', async () => {
    const port = internalPort;
    for (const url of [
      internalUrl('/a'),
      `http://localhost:${port}/a`,
      `http://internal.test:${port}/a`,
      `http://[::1]:${port}/a`,
      `http://[::ffff:127.0.0.1]:${port}/a`,
      `http://2130706433:${port}/a`,
      `http://0x7f.1:${port}/a`,
      `http://0177.0.0.1:${port}/a`,
      `http://127.1:${port}/a`,
      'http://192.0.2.1/a',
      'http://100.64.0.1/a',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00::1]/a',
      'ftp://public.test/a',
      'file:///etc/passwd',
    ]) {
      // localhost goes through the system resolver; the others through the injected one.
      const p = url.includes('localhost') ? { allowPrivate: false } : policy;
      expect(await refusal(url, p), url).toBe('refused');
    }
    expect(hits.internal).toEqual([]);
  });

  it('checks the addresses at connect time: a name resolving to loopback is refused by the request itself', async () => {
    // assertOutboundUrl would refuse it too; the request does without it.
    await expect(assertOutboundUrl(`http://internal.test:${internalPort}/`, policy)).rejects.toThrow(
      OutboundError,
    );
    expect(await refusal(`http://internal.test:${internalPort}/x`)).toBe('refused');
    // A resolver that answers a public address first, then loopback (rebinding) is still refused.
    let calls = 0;
    const rebinding: OutboundPolicy = {
      ...policy,
      resolve: async () => [{ address: calls++ === 0 ? '8.8.8.8' : '127.0.0.1', family: 4 }],
    };
    await expect(
      assertOutboundUrl(`http://rebind.test:${internalPort}/`, rebinding),
    ).resolves.toBeUndefined();
    expect(await refusal(`http://rebind.test:${internalPort}/x`, rebinding)).toBe('refused');
    expect(hits.internal).toEqual([]);
  });

  it('refuses a redirect from a public URL to a private one; follows one to a public URL', async () => {
    expect(await refusal(publicUrl('/to-internal'))).toBe('refused');
    expect(hits.public).toEqual(['/to-internal']);
    expect(hits.internal).toEqual([]);
    // Positive control: a redirect within the public server is followed.
    const ok = await outboundRequest(publicUrl('/to-self'), { timeoutMs: 2000, maxRedirects: 3 }, policy);
    expect(ok.text()).toBe('hello');
    // Without redirects allowed, the 3xx is the answer.
    const raw = await outboundRequest(publicUrl('/to-internal'), { timeoutMs: 2000 }, policy);
    expect(raw.status).toBe(302);
    expect(hits.internal).toEqual([]);
  });

  it('bounds the answer size (bytes) and the time (ms)', async () => {
    const tooBig = await outboundRequest(publicUrl('/big'), { timeoutMs: 2000, maxBytes: 100 }, policy).catch(
      (e) => e,
    );
    expect(tooBig).toMatchObject({ kind: 'too-large' });
    const cut = await outboundRequest(
      publicUrl('/big'),
      { timeoutMs: 2000, maxBytes: 100, truncate: true },
      policy,
    );
    expect(cut.body.length).toBe(100);
    const slow = await outboundRequest(publicUrl('/slow'), { timeoutMs: 200 }, policy).catch((e) => e);
    expect(slow).toMatchObject({ kind: 'timeout' });
    // Positive control: within the limits.
    const fine = await outboundRequest(publicUrl('/big'), { timeoutMs: 2000, maxBytes: 10_000 }, policy);
    expect(fine.body.length).toBe(5000);
  });

  it('reaches private addresses when allowPrivate (the switch), localhost included', async () => {
    const open: OutboundPolicy = { allowPrivate: true };
    const direct = await outboundRequest(internalUrl('/open'), { timeoutMs: 2000 }, open);
    expect(direct.text()).toBe('internal secret');
    const byName = await outboundRequest(
      `http://localhost:${internalPort}/byname`,
      { timeoutMs: 2000 },
      open,
    );
    expect(byName.ok).toBe(true);
    expect(hits.internal).toEqual(['/open', '/byname']);
    // Still http(s) only.
    expect(await refusal('file:///etc/passwd', open)).toBe('refused');
  });
});
