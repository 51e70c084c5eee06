import ipaddr from 'ipaddr.js';

/**
 * The IPv6 forms that carry an IPv4 address, and where they carry it. A connection to one of them can
 * end at that IPv4 address (a host's dual stack, a NAT64 gateway, a 6to4 or Teredo relay), so the
 * outbound guard checks the IPv4 address too (issue 43: `[::169.254.169.254]` passed, because
 * ipaddr.js classes the deprecated IPv4-compatible block `::/96` as unicast).
 */
export interface Ipv6Form {
  /** The form's name, for the refusal message. */
  name: string;
  /** Whether an address of this form is refused whatever IPv4 address it carries. */
  refused: boolean;
  /** The IPv4 addresses it may reach (Teredo: the client's, then the server's). */
  ipv4: ipaddr.IPv4[];
}

const v4 = (bytes: number[]) => new ipaddr.IPv4(bytes);

/** The form of an IPv6 address that embeds IPv4, or undefined for any other address. */
export function ipv6Form(ip: ipaddr.IPv6): Ipv6Form | undefined {
  const b = ip.toByteArray();
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const last = v4(b.slice(12));
  // ::ffff:0:0/96, RFC 4291 §2.5.5.2: the IPv4 address itself on a dual-stack host.
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff)
    return { name: 'IPv4-mapped', refused: false, ipv4: [last] };
  // ::ffff:0:0:0/96, RFC 6145 (SIIT): translated to the IPv4 address.
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12))
    return { name: 'IPv4-translated', refused: true, ipv4: [last] };
  // ::/96, RFC 4291 §2.5.5.1 (deprecated IPv4-compatible); `::` and `::1` are their own ranges.
  if (zero(0, 12) && !(zero(12, 15) && b[15]! <= 1))
    return { name: 'IPv4-compatible', refused: true, ipv4: [last] };
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    // 64:ff9b::/96, RFC 6052: the well-known NAT64 prefix, the IPv4 address in the last 32 bits.
    if (zero(4, 12)) return { name: 'NAT64', refused: true, ipv4: [last] };
    // 64:ff9b:1::/48, RFC 8215: local-use NAT64, with any RFC 6052 prefix length from /48 to /96
    // (bits 64–71 are the zero `u` octet): every place the IPv4 address can be, /96's first. A place
    // whose first octet is 0 (0.0.0.0/8, never a destination) holds another place's bits.
    if (b[4] === 0 && b[5] === 1) {
      const places = [
        last,
        v4(b.slice(9, 13)),
        v4([b[7]!, b[9]!, b[10]!, b[11]!]),
        v4([b[6]!, b[7]!, b[9]!, b[10]!]),
      ];
      return { name: 'local-use NAT64', refused: true, ipv4: places.filter((p) => p.octets[0] !== 0) };
    }
  }
  // 2002::/16, RFC 3056: 6to4, the relay's IPv4 address in bits 16–47.
  if (b[0] === 0x20 && b[1] === 0x02) return { name: '6to4', refused: true, ipv4: [v4(b.slice(2, 6))] };
  // 2001::/32, RFC 4380: Teredo, the client's IPv4 address inverted in the last 32 bits, the
  // server's in bits 32–63.
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0)
    return { name: 'Teredo', refused: true, ipv4: [v4(b.slice(12).map((x) => x ^ 0xff)), v4(b.slice(4, 8))] };
  return undefined;
}

/** ipaddr.js's range names as a refusal says them. */
const WORDS: Record<string, string> = {
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique local',
  ipv4Mapped: 'IPv4-mapped',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  teredo: 'Teredo',
  deprecatedSiteLocal: 'site-local',
  as112: 'AS112',
  as112v6: 'AS112',
  amt: 'AMT',
  deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHIDv2',
  droneRemoteIdProtocolEntityTags: 'DRIP',
  segmentRouting: 'segment routing',
};

/** "a link-local address", "an IPv4-compatible address". */
export const kindOf = (range: string): string => {
  const word = WORDS[range] ?? range;
  return `${/^[aeiou]|^(IPv|AS|AMT|ORCHID)/i.test(word) ? 'an' : 'a'} ${word} address`;
};
