import { promises as dns, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent (server-side request forgery): outside the sandbox, only https to
 * public addresses. A host name is checked on every address it resolves to, at connection time
 * (see `send.ts`), so a name cannot pass the check and then connect somewhere private.
 */

export interface AddressPolicy {
  /** The sandbox's: http, and private, loopback and other non-public addresses, are allowed. */
  allowPrivateNetwork: boolean;
}

/** A host or address the policy refuses; `message` says why. */
export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
}

/**
 * Whether an address is on the public internet: only ipaddr.js's `unicast` range counts, so
 * private, loopback, link-local (169.254.169.254, the cloud metadata service), unique-local,
 * unspecified, carrier-grade NAT, multicast, broadcast, reserved, documentation, 6to4, Teredo and
 * the like are not. An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  return ipaddr.process(ip).range() === 'unicast';
}

/** An IP address written as a URL's host (IPv6 in brackets), or undefined for a name. */
function literalAddress(hostname: string): string | undefined {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(host) ? host : undefined;
}

/** Why an endpoint URL is refused, or undefined when it may be used. */
export function checkEndpointUrl(url: string, options: AddressPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return `only http and https URLs are allowed, not ${parsed.protocol}`;
  if (parsed.username || parsed.password) return 'credentials in the URL are not allowed';
  if (options.allowPrivateNetwork) return undefined;
  if (parsed.protocol === 'http:') return 'only https URLs are allowed';
  // A literal address is connected to without a DNS lookup, so it is checked here. The URL
  // parser has already turned forms like 0x7f.1 or 2130706433 into dotted decimal.
  const address = literalAddress(parsed.hostname);
  if (address !== undefined && !isPublicAddress(address)) return `${address} is not a public address`;
  return undefined;
}

/**
 * The addresses a host name resolves to. Unless private networks are allowed, throws
 * `AddressRefusedError` when any of them is not public: a name that also points inside is refused
 * outright rather than tried on its public addresses only.
 * DNS failures are thrown as `dns.lookup` throws them (code `ENOTFOUND` and the like).
 */
export async function resolvePublicAddress(hostname: string, options: AddressPolicy & { family?: 0 | 4 | 6 }): Promise<LookupAddress[]> {
  const addresses = await dns.lookup(hostname, { all: true, family: options.family ?? 0 });
  if (!options.allowPrivateNetwork) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) throw new AddressRefusedError(`${hostname} resolves to ${refused.address}, which is not a public address`);
  }
  return addresses;
}
