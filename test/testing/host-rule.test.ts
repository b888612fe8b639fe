import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hostRule } from '../../src/testing/transports/allowed-hosts.js';

/** This machine's interfaces as the rule sees them: set per test, so a wildcard bind is checked without depending on the host's network. */
const interfaces = vi.hoisted(() => ({ current: {} as Record<string, Array<{ address: string }>> }));
vi.mock('node:os', async (original) => ({
  ...(await original<typeof import('node:os')>()),
  networkInterfaces: () => interfaces.current,
}));

const LOOPBACK = { lo: [{ address: '127.0.0.1' }, { address: '::1' }] };
const ETH0 = { eth0: [{ address: '192.0.2.2' }, { address: 'FD00::2' }] };

/**
 * The Host rule of a sandbox on a real port, case by case (test/testing/host-and-origin.test.ts
 * drives it over HTTP): which names pass, and what a refusal tells the developer.
 */
describe('hostRule', () => {
  beforeEach(() => {
    interfaces.current = { ...LOOPBACK, ...ETH0 };
  });

  const onLoopback = (allowedHosts: string[] = []) =>
    hostRule({ boundHost: '127.0.0.1', address: '127.0.0.1', port: 4010, allowedHosts });

  it('lets through the loopback names on any port, whatever the bind address, trimmed and in any case', () => {
    const rule = hostRule({ boundHost: 'sandbox.local', address: '10.1.2.3', port: 4010, allowedHosts: [] });
    for (const host of [
      'localhost',
      'localhost:1',
      ' LocalHost:4010 ',
      '127.0.0.1:80',
      '[::1]',
      '[::1]:4010',
      'sandbox.local.:4010',
      '10.1.2.3',
    ]) {
      expect(rule.refusal(host), host).toBeUndefined();
    }
  });

  it('refuses a name that only contains a local one, a malformed port, or an IPv6 address without brackets', () => {
    const rule = onLoopback();
    for (const host of [
      'attacker:localhost',
      'localhost:80x',
      'localhost:123456',
      'local[host',
      'local]host',
      'localhost:80:80',
      '[::1]x',
      '::1',
      '::1:4010',
      '0:0:0:0:0:0:0:1',
    ]) {
      expect(rule.refusal(host), host).toMatch(/is not an address of this sandbox/);
    }
  });

  it('answers to the interface addresses only when bound to a wildcard, looking them up on each request', () => {
    expect(onLoopback().refusal('192.0.2.2:4010')).toBeDefined();
    for (const address of ['0.0.0.0', '::']) {
      const rule = hostRule({ boundHost: address, address, port: 4010, allowedHosts: [] });
      expect(rule.refusal('192.0.2.2:4010'), address).toBeUndefined();
      expect(rule.refusal('[fd00::2]'), address).toBeUndefined();
      expect(rule.refusal('192.0.2.3'), address).toBeDefined();
      interfaces.current = { ...LOOPBACK, vpn: [{ address: '192.0.2.3' }] };
      expect(rule.refusal('192.0.2.3'), address).toBeUndefined();
      expect(rule.refusal('192.0.2.2'), address).toBeDefined();
      interfaces.current = { ...LOOPBACK, ...ETH0 };
    }
  });

  it('says which Host was refused (at most 100 characters of it) and the names it answers to, without a wildcard address', () => {
    expect(onLoopback(['sandbox', 'proxy.internal:8080']).refusal('attacker.example:4010')).toMatch(
      /^Host "attacker\.example:4010" is not an address of this sandbox, which answers to localhost, 127\.0\.0\.1, \[::1\], sandbox, proxy\.internal:8080\. .*DNS rebinding.*--allow-host NAME/,
    );
    expect(hostRule({ boundHost: '::', address: '::', port: 1, allowedHosts: [] }).refusal('x')).toMatch(
      /which answers to localhost, 127\.0\.0\.1, \[::1\]\. /,
    );
    expect(hostRule({ boundHost: '0.0.0.0', address: '0.0.0.0', port: 1, allowedHosts: [] }).refusal('x')).toMatch(
      /which answers to localhost, 127\.0\.0\.1, \[::1\]\. /,
    );
    expect(hostRule({ boundHost: 'box', address: '10.1.2.3', port: 1, allowedHosts: [] }).refusal('x')).toMatch(
      /which answers to localhost, 127\.0\.0\.1, \[::1\], box, 10\.1\.2\.3\. /,
    );
    expect(onLoopback().refusal(undefined)).toMatch(
      /^A request without a Host header is not an address of this sandbox/,
    );
    const long = onLoopback().refusal(`${'a'.repeat(150)}.example`);
    expect(long).toContain(`Host "${'a'.repeat(100)}" is not`);
  });
});
