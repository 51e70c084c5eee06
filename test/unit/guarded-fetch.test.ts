import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addressRefusal,
  guardedFetch,
  urlRefusal,
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
    ['https://169.254.169.254/latest/meta-data/', /link-local/],
    ['https://[fd00:ec2::254]/', /unique local/],
    ['https://100.64.0.1/', /carrier-grade NAT/],
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
    expect(addressRefusal('169.254.169.254', local)).toMatch(/link-local/);
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

/**
 * Issue 43: every IPv6 form that carries an IPv4 address is checked on that address, and the refusal
 * names the real reason. `[::169.254.169.254]` passed as a webhook and feed URL, deployed too.
 */
describe('IPv6 addresses that carry an IPv4 address', () => {
  it.each([
    // IPv4-compatible, ::/96 (deprecated): refused whatever it carries.
    ['::169.254.169.254', /IPv4-compatible address of 169\.254\.169\.254, a link-local address/],
    ['::a9fe:a9fe', /IPv4-compatible address of 169\.254\.169\.254, a link-local address/],
    ['::127.0.0.1', /IPv4-compatible address of 127\.0\.0\.1, a loopback address/],
    ['::10.1.2.3', /IPv4-compatible address of 10\.1\.2\.3, a private address/],
    ['::8.8.8.8', /is an IPv4-compatible address$/],
    // IPv4-mapped, ::ffff:0:0/96: the IPv4 address itself.
    ['::ffff:169.254.169.254', /IPv4-mapped address of 169\.254\.169\.254, a link-local address/],
    ['::ffff:7f00:1', /IPv4-mapped address of 127\.0\.0\.1, a loopback address/],
    // IPv4-translated (SIIT), ::ffff:0:0:0/96.
    ['::ffff:0:a9fe:a9fe', /IPv4-translated address of 169\.254\.169\.254, a link-local address/],
    ['::ffff:0:808:808', /is an IPv4-translated address$/],
    // NAT64, 64:ff9b::/96 and local-use 64:ff9b:1::/48.
    ['64:ff9b::169.254.169.254', /NAT64 address of 169\.254\.169\.254, a link-local address/],
    ['64:ff9b::10.0.0.1', /NAT64 address of 10\.0\.0\.1, a private address/],
    ['64:ff9b::8.8.8.8', /is a NAT64 address$/],
    ['64:ff9b:1::a9fe:a9fe', /local-use NAT64 address of 169\.254\.169\.254, a link-local address/],
    ['64:ff9b:1:7f00:0:100::', /local-use NAT64 address of 127\.0\.0\.1, a loopback address/], // a /48 prefix
    ['64:ff9b:1::808:808', /is a local-use NAT64 address$/],
    // 6to4, 2002::/16: the relay's address in bits 16-47.
    ['2002:a9fe:a9fe::1', /6to4 address of 169\.254\.169\.254, a link-local address/],
    ['2002:c0a8:101::1', /6to4 address of 192\.168\.1\.1, a private address/],
    ['2002:808:808::1', /is a 6to4 address$/],
    // Teredo, 2001::/32: the client's address inverted in the last 32 bits, the server's in bits 32-63.
    ['2001:0:808:808::5601:5601', /Teredo address of 169\.254\.169\.254, a link-local address/],
    ['2001:0:808:808::80ff:fffe', /Teredo address of 127\.0\.0\.1, a loopback address/],
    ['2001:0:a00:1::f7f7:f7f7', /Teredo address of 10\.0\.0\.1, a private address/],
    ['2001:0:808:808::f7f7:f7f7', /is a Teredo address$/],
  ])('refuses %s, naming why', (address, why) => {
    expect(addressRefusal(address, deployed)).toMatch(why);
    expect(urlRefusal(`https://[${address}]/`, deployed)).toMatch(/ is an? /);
    // The loopback the local stack may reach is never one inside another form.
    if (address !== '::ffff:7f00:1') expect(addressRefusal(address, local)).toBeDefined();
  });

  it('still reaches a public address, directly or IPv4-mapped, and keeps :: and ::1 their own ranges', () => {
    expect(addressRefusal('2606:4700:4700::1111', deployed)).toBeUndefined();
    expect(addressRefusal('::ffff:8.8.8.8', deployed)).toBeUndefined();
    expect(addressRefusal('::', deployed)).toBe(':: is an unspecified address');
    expect(addressRefusal('::1', deployed)).toBe('::1 is a loopback address');
    expect(addressRefusal('::1', local)).toBeUndefined();
  });

  it('refuses the URLs of the report, as the URL parser writes them', () => {
    // The address first, then the scheme: the refusal names the real reason (issue 40).
    expect(urlRefusal('http://[::169.254.169.254]/', deployed)).toMatch(/link-local/);
    expect(urlRefusal('http://169.254.169.254/', deployed)).toBe('169.254.169.254 is a link-local address');
    expect(urlRefusal('http://[::169.254.169.254]/', local)).toMatch(/link-local/);
    expect(urlRefusal('https://[::127.0.0.1]/', local)).toMatch(/IPv4-compatible address$/);
    expect(urlRefusal('https://[::127.0.0.1]/', deployed)).toMatch(
      /IPv4-compatible address of 127\.0\.0\.1, a loopback/,
    );
  });
});
