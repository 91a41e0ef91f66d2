/**
 * Which postback receivers count as local: loopback, private-network and similar addresses (the
 * address policy of docs/postbacks.md), and host names that can only mean this machine or the
 * shop's network. Shared by the HTTP sender (checked on resolved addresses) and by the rules for
 * a postback_url given to the API.
 */
import ipaddr from 'ipaddr.js';

const PRIVATE_RANGES = new Set([
  'private',
  'loopback',
  'linkLocal',
  'uniqueLocal',
  'unspecified',
  'carrierGradeNat',
  'reserved',
  'broadcast',
]);

/** True for an address in a loopback, private or otherwise non-public range (and for anything that is not an address). */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return PRIVATE_RANGES.has(parsed.range());
}

/**
 * The host of a URL names a receiver on this machine or the local network: an IP address in a
 * private range (`127.0.0.1`, `[::1]`, `192.168.1.20`), `localhost` or a name under `.localhost`
 * or `.local` (mDNS). Other names may resolve anywhere and do not count.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (ipaddr.isValid(host)) return isPrivateAddress(host);
  return host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local');
}
