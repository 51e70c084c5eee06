import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressRefusal,
  guardedFetch,
  OutboundFailed,
  OutboundRefused,
  type Resolve,
} from '../../shared/outbound/guarded-fetch';

const local = { local: true };
const deployed = { local: false };
const limits = { timeoutMs: 1_000, maxBytes: 64 * 1024 };

let server: Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === '/redirect')
      return res.writeHead(302, { location: 'http://169.254.169.254/latest/' }).end();
    if (req.url === '/hang') return; // never answers
    if (req.url === '/close') return req.socket.destroy();
    if (req.url === '/big') return res.end(Buffer.alloc(200 * 1024, 'x'));
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`got ${req.method} ${body}`),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

/** A resolver that knows a few names, as DNS would answer them. */
const names: Record<string, string[]> = {
  'rebind.example': ['10.0.0.1'],
  'mixed.example': ['93.184.215.14', '192.168.1.5'],
  'here.example': ['127.0.0.1'],
};
const resolve: Resolve = (hostname, _options, callback) => {
  const found = names[hostname];
  if (!found)
    return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  callback(
    null,
    found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
};

describe('guarded fetch', () => {
  it('reaches a loopback receiver in the local stack, with method and body', async () => {
    const res = await guardedFetch(`${base}/hook`, { ...limits, policy: local, method: 'POST', body: 'hi' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('got POST hi');
  });

  it('resolves a name to loopback in the local stack', async () => {
    const port = (server.address() as AddressInfo).port;
    const res = await guardedFetch(`http://here.example:${port}/x`, { ...limits, policy: local, resolve });
    expect(res.status).toBe(200);
  });

  it.each([
    ['http://93.184.215.14/', /only https URLs/],
    ['https://127.0.0.1/', /127\.0\.0\.1 is a loopback address/],
    ['https://[::1]/', /::1 is a loopback address/],
    ['https://169.254.169.254/latest/meta-data/', /linkLocal/],
    ['https://[fd00:ec2::254]/', /uniqueLocal/],
    ['https://100.64.0.1/', /carrierGradeNat/],
    ['https://[::ffff:10.0.0.1]/', /private/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://user:pw@93.184.215.14/', /user name or password/],
    ['not a url', /not a URL/],
  ])('refuses %s when deployed, before sending anything', async (url, why) => {
    const before = hits;
    await expect(guardedFetch(url, { ...limits, policy: deployed })).rejects.toThrow(why);
    await expect(guardedFetch(url, { ...limits, policy: deployed })).rejects.toBeInstanceOf(OutboundRefused);
    expect(hits).toBe(before);
  });

  it('refuses a name that resolves to a private address, or to any private address among others', async () => {
    await expect(
      guardedFetch('https://rebind.example/', { ...limits, policy: deployed, resolve }),
    ).rejects.toThrow(/rebind\.example: 10\.0\.0\.1 is a private address/);
    await expect(
      guardedFetch('https://mixed.example/', { ...limits, policy: deployed, resolve }),
    ).rejects.toThrow(/192\.168\.1\.5 is a private address/);
  });

  it('allows loopback locally, never private or link-local addresses', async () => {
    expect(addressRefusal('127.0.0.1', local)).toBeUndefined();
    expect(addressRefusal('10.0.0.1', local)).toMatch(/private/);
    expect(addressRefusal('169.254.169.254', local)).toMatch(/linkLocal/);
  });

  it('answers a redirect as it came and never follows it', async () => {
    const before = hits;
    const res = await guardedFetch(`${base}/redirect`, { ...limits, policy: local });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('http://169.254.169.254/latest/');
    expect(hits).toBe(before + 1);
  });

  it('gives up on a receiver that never answers', async () => {
    const err = await guardedFetch(`${base}/hang`, { ...limits, timeoutMs: 300, policy: local }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(OutboundFailed);
    expect(err.reason).toBe('timeout');
  });

  it('reports a closed connection as a network error', async () => {
    const err = await guardedFetch(`${base}/close`, { ...limits, policy: local }).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundFailed);
    expect(err.reason).toBe('network');
  });

  it('reads at most maxBytes of a response', async () => {
    const res = await guardedFetch(`${base}/big`, { ...limits, policy: local });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(64 * 1024);
  });

  it('reports a name that does not resolve as a network error', async () => {
    const err = await guardedFetch('https://nowhere.example/', {
      ...limits,
      policy: deployed,
      resolve,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundFailed);
    expect(err.message).toMatch(/ENOTFOUND/);
  });
});
