import { networkInterfaces } from 'node:os';

/**
 * Which `Host` headers a sandbox on a real port answers. A web page can make a browser send
 * requests to 127.0.0.1 under the page's own name (DNS rebinding): such a request carries that
 * name as its Host, so only the names this server is reached by are let through: localhost,
 * 127.0.0.1, [::1], the address it was asked to bind and the one it bound (with a wildcard
 * bind, this machine's interface addresses), on any port; and names the caller allowed
 * (`allowedHosts`: `name` for any port, `name:port` for that port only). The port of the machine's
 * own names is not checked: rebinding changes the name, not the port, and a port published under
 * another number (a container's `-p 8080:4010`, a local proxy) must keep working.
 */
export interface HostRule {
  /** undefined when `host` is allowed; otherwise why not, for the error's message. */
  refusal(host: string | undefined): string | undefined;
}

export function hostRule(options: {
  boundHost: string;
  address: string;
  port: number;
  allowedHosts: readonly string[];
}): HostRule {
  const local = new Set(['localhost', '127.0.0.1', '::1', bare(options.boundHost), bare(options.address)]);
  const wildcard = options.address === '0.0.0.0' || options.address === '::';
  // createSandbox checked each entry's form, so every one parses.
  const allowed = options.allowedHosts.map(parseHost).filter((a) => a !== undefined);
  const known = [...local]
    .filter((name) => name !== '0.0.0.0' && name !== '::')
    .map((name) => (name.includes(':') ? `[${name}]` : name));
  const names = [...known, ...options.allowedHosts];

  return {
    refusal(header) {
      const given = header === undefined ? undefined : parseHost(header);
      if (given !== undefined) {
        if (local.has(given.name) || (wildcard && interfaceAddresses().has(given.name))) return undefined;
        if (allowed.some((a) => a.name === given.name && (a.port === undefined || a.port === (given.port ?? 80))))
          return undefined;
      }
      const what =
        header === undefined ? 'A request without a Host header' : `Host ${JSON.stringify(header.slice(0, 100))}`;
      return (
        `${what} is not an address of this sandbox, which answers to ${names.join(', ')}. Requests ` +
        `under another name are refused: a web page could otherwise reach it by pointing its own name at ` +
        `this machine (DNS rebinding). To serve it under another name (docker compose, a proxy), start it ` +
        `with --allow-host NAME (createSandbox({ allowedHosts: ['NAME'] })).`
      );
    },
  };
}

/**
 * `name`, `name:port`, `[v6]` or `[v6]:port`, lower case, without a trailing dot; undefined for
 * anything else (an IPv6 address without brackets is no Host a client sends, so none is let through).
 */
function parseHost(text: string): { name: string; port: number | undefined } | undefined {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  return { name: bare(match[1] as string), port: match[2] === undefined ? undefined : Number(match[2]) };
}

function bare(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

/** Looked up on each request that needs it: interfaces come and go (a VPN, a container network). */
function interfaceAddresses(): Set<string> {
  const found = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const entry of list ?? []) found.add(entry.address.toLowerCase());
  return found;
}
