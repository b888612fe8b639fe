import { describe, expect, it } from 'vitest';
import { runQuickstart } from '../../examples/quickstart.js';
import { useExampleEnv, type ExampleEnv } from './sandbox.js';

describe('examples/quickstart.ts', () => {
  let env: ExampleEnv;
  const startExampleEnv = useExampleEnv();

  it('enrolls three stores, acknowledges every booking of a simulated week and shows typed errors', async () => {
    env = await startExampleEnv({ seed: 42, visitsPerWeek: 8 });
    const lines: string[] = [];
    await runQuickstart(env.client, {
      print: (line) => lines.push(line),
      letTimePass: (days) => void env.sandbox.clock.advance({ days }),
    });
    const output = lines.join('\n');

    expect(output).toMatch(/enrolled\s+sf-mission-01/);
    expect(output).toMatch(/sea-pike-03 is paused/);
    expect(output).toMatch(/NotFoundError \(404 not_found\), request req_/);
    expect(output).toMatch(/ProhibitedRuleError on rules\./);
    expect(output).toMatch(/ValidationError on preferred_language/);
    const [, seen, acknowledged] = /(\d+) bookings in all; acknowledged (\d+)/.exec(output) ?? [];
    expect(Number(seen)).toBeGreaterThan(0);
    expect(Number(acknowledged)).toBeGreaterThan(0);
    const open = env.sandbox.inspect.reservations(env.apiKey).filter((b) => b.acknowledged_kind === null);
    expect(open).toEqual([]);
  });
});
