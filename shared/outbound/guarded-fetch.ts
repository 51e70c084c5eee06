import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ipv6Form, kindOf } from './ipv6-forms';

/**
 * Requests to URLs a user gave (webhook deliveries, feed imports): never to this machine, its network
 * or the cloud's metadata service. Only public unicast addresses are reached (ipaddr.js classifies
 * them), checked on the address the connection actually uses, so a name that resolves to a public
 * address when a URL is saved and to 10.0.0.1 when it is fetched (DNS rebinding) is refused too.
 * Redirects are never followed, and time and size are bounded.
 */

export interface OutboundPolicy {
  /** The local stack: loopback addresses and plain http allowed too (never when deployed). */
  local: boolean;
}

/** Resolves a host name to every address it has (dns.lookup's shape; tests give their own). */
export type Resolve = (
  hostname: string,
  options: { all: true; family?: number },
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export class OutboundRefused extends Error {
  readonly reason = 'refused';
}

export class OutboundFailed extends Error {
  constructor(
    readonly reason: 'timeout' | 'network',
    message: string,
  ) {
    super(message);
  }
}

/** Why an address may not be reached, or undefined when it may. */
export function addressRefusal(address: string, policy: OutboundPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = ipaddr.parse(canonical(address));
  const form = ip instanceof ipaddr.IPv6 ? ipv6Form(ip) : undefined;
  if (form) {
    // The IPv4 address it carries first, so the refusal names the real reason ("link-local").
    for (const ipv4 of form.ipv4) {
      const why = rangeRefusal(ipv4, policy);
      if (why) return `${address} is ${kindOf(form.name)} of ${ipv4.toString()}, ${why}`;
    }
    return form.refused ? `${address} is ${kindOf(form.name)}` : undefined;
  }
  const why = rangeRefusal(ip, policy);
  return why && `${address} is ${why}`;
}

/**
 * An IPv6 address with a dotted IPv4 tail as the URL parser writes it (`::169.254.169.254` is
 * `::a9fe:a9fe`): ipaddr.js 2 reads any such tail as IPv4-mapped, whatever the bits before it.
 */
function canonical(address: string): string {
  if (!address.includes(':') || !address.includes('.')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** "a private address" when an address's own range may not be reached. */
function rangeRefusal(ip: ipaddr.IPv4 | ipaddr.IPv6, policy: OutboundPolicy): string | undefined {
  const range = ip.range();
  if (range === 'unicast' || (range === 'loopback' && policy.local)) return undefined;
  return kindOf(range);
}

/** Why a URL may not be fetched, as far as it says by itself (host names are checked when resolved). */
export function urlRefusal(raw: string, policy: OutboundPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'it is not a URL';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Node connects to an address literal without looking it up: check it here, first, so that the
  // refusal of `http://169.254.169.254/` names the real reason (link-local), not the scheme.
  const refused = ipaddr.isValid(host) ? addressRefusal(host, policy) : undefined;
  if (refused) return refused;
  if (url.protocol !== 'https:' && !(policy.local && url.protocol === 'http:'))
    return policy.local ? 'only http and https URLs are allowed' : 'only https URLs are allowed';
  if (url.username || url.password) return 'a URL with a user name or password is not allowed';
  return undefined;
}

/** dns.lookup for the connection, refusing every name that has any address the policy refuses. */
function guardedLookup(policy: OutboundPolicy, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    const family =
      options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : options.family || undefined;
    resolve(hostname, { all: true, family }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.map((a) => addressRefusal(a.address, policy)).find(Boolean);
      if (refused || !addresses.length)
        return callback(new OutboundRefused(`${hostname}: ${refused ?? 'no address'}`), '', 0);
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export interface GuardedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Whole request, body read included. */
  timeoutMs: number;
  /** Bytes of the response body kept; the rest is not read. */
  maxBytes: number;
  policy: OutboundPolicy;
  resolve?: Resolve;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body went on past maxBytes: what is here is its start. */
  truncated: boolean;
}

/**
 * One request, no redirect followed (a 3xx is answered as it came). Rejects with OutboundRefused before
 * anything is sent to an address the policy refuses, or OutboundFailed on a timeout or network error.
 */
export function guardedFetch(raw: string, r: GuardedRequest): Promise<GuardedResponse> {
  const refusal = urlRefusal(raw, r.policy);
  if (refusal) return Promise.reject(new OutboundRefused(`${raw}: ${refusal}`));
  const url = new URL(raw);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: r.method ?? 'GET',
      headers: r.headers,
      lookup: guardedLookup(r.policy, r.resolve ?? (dnsLookup as unknown as Resolve)),
      agent: false,
    });
    const timer = setTimeout(
      () => req.destroy(new OutboundFailed('timeout', `no answer within ${r.timeoutMs} ms`)),
      r.timeoutMs,
    );
    const fail = (e: Error) => {
      clearTimeout(timer);
      // A late socket error after the answer was read changes nothing (a settled promise stays so).
      reject(
        e instanceof OutboundRefused || e instanceof OutboundFailed
          ? e
          : new OutboundFailed('network', e.message),
      );
    };
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          truncated,
        });
      };
      res.on('data', (chunk: Buffer) => {
        const room = r.maxBytes - size;
        chunks.push(chunk.subarray(0, Math.max(room, 0)));
        size += chunk.length;
        if (size > r.maxBytes) {
          truncated = true;
          res.destroy();
          done();
        }
      });
      res.on('end', done);
      res.on('error', fail);
    });
    req.end(r.body);
  });
}

/**
 * Why a URL may not be a destination, checked when it is saved: its own form, then every address its
 * host name resolves to (deliveries check the addresses again when they connect, against rebinding).
 */
export async function destinationRefusal(
  raw: string,
  policy: OutboundPolicy,
  resolve: Resolve = dnsLookup as unknown as Resolve,
): Promise<string | undefined> {
  const refusal = urlRefusal(raw, policy);
  if (refusal) return refusal;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return undefined;
  const addresses = await new Promise<LookupAddress[] | undefined>((done) =>
    resolve(host, { all: true }, (err, found) => done(err ? undefined : found)),
  );
  if (!addresses?.length) return `its host ${host} does not resolve`;
  return addresses.map((a) => addressRefusal(a.address, policy)).find(Boolean);
}
