import { describe, expect, it } from 'vitest';
import { PartnerClient } from '../../src/client.js';
import { APIPromise } from '../../src/core/api-promise.js';
import type { CallInput, Operation } from '../../src/core/operation.js';
import type { Transport } from '../../src/core/transport.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import type { ResourceContext } from '../../src/resources/resource.js';

/** Methods of the namespaces that are built on others rather than a row of their own. */
const BUILT_ON_OTHERS = new Set(['locations.enrollMany']);

type Namespace = Record<string, (...args: unknown[]) => unknown>;

/** The client's namespaces, each rebuilt on a transport that records the row each call names and answers nothing. */
function recordingNamespaces() {
  const calls: Array<{ operation: Operation; input: CallInput }> = [];
  const transport = {
    call(operation: Operation, input: CallInput) {
      calls.push({ operation, input });
      return new APIPromise(new Promise<never>(() => undefined));
    },
  } as unknown as Transport;
  const context: ResourceContext = { transport, prefetchPages: false };
  const client = new PartnerClient({ apiKey: 'crp_test_operations', baseUrl: 'http://127.0.0.1:9' });
  const namespaces: Record<string, Namespace> = {};
  for (const [key, value] of Object.entries(client)) {
    if (typeof value !== 'object' || value === null || !('constructor' in value) || value.constructor === Object)
      continue;
    const type = value.constructor as new (context: ResourceContext) => Namespace;
    if (Object.getPrototypeOf(type.prototype)?.constructor?.name !== 'Resource') continue;
    namespaces[key] = new type(context);
  }
  void client.close();
  return { calls, namespaces };
}

const rows = Object.entries(OPERATIONS).map(([key, row]) => [key, row as Operation] as const);

describe('the operation table', () => {
  it.each(rows)('%s: its client method names this row and nothing else', async (key, row) => {
    expect(row.name).toBe(key);
    const { calls, namespaces } = recordingNamespaces();
    const [namespace, method] = key.split('.') as [string, string];
    const call = namespaces[namespace]?.[method];
    expect(call, `client.${key}()`).toBeTypeOf('function');
    const result = call?.call(namespaces[namespace], 'id-1', 'id-2', 'approve') as { then?: unknown };
    // A list sends its first page when awaited.
    if (result instanceof Object && !(result instanceof APIPromise) && typeof result.then === 'function')
      void (result as Promise<unknown>).then(() => undefined);
    await Promise.resolve();
    expect(calls.map((c) => c.operation)).toEqual([row]);
  });

  it.each(rows)("%s: its route's placeholders are its path ids, each with a schema", (_key, row) => {
    const placeholders = [...row.route.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
    expect(Object.keys(row.path ?? {})).toEqual(placeholders);
  });

  it.each(rows)('%s: a list has a query and an item, a GET is retry-safe, a GET or list sends no body', (_key, row) => {
    if (row.item) expect(row.query, 'a paged list takes cursor and limit').toBeDefined();
    if (row.method === 'GET') {
      expect(row.retry).toBe('safe');
      expect(row.body).toBeUndefined();
    }
  });

  it('every method that sends a request has a row', () => {
    const { namespaces } = recordingNamespaces();
    const methods = Object.entries(namespaces).flatMap(([namespace, instance]) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(instance))
        .filter((name) => name !== 'constructor')
        .map((name) => `${namespace}.${name}`)
        .filter((name) => !BUILT_ON_OTHERS.has(name)),
    );
    expect(methods.length).toBeGreaterThan(0);
    expect(methods.sort()).toEqual(Object.keys(OPERATIONS).sort());
  });
});
