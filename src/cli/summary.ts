/** `crp summary`: the account at a glance (`client.reports.summary()`). */
import type { Summary } from '../index.js';
import { COMMON_HELP, EXIT, UsageError, clientFrom, parse, type Command } from './command.js';

export const summary: Command = {
  usage: `Usage: crp summary [--json]

Stores by state, bookings by state and videos published, for the whole account.

${COMMON_HELP}

Example:
  crp summary --json | jq .reservations.unacknowledged`,
  async run(args, io) {
    const { values, positionals } = parse(args, {});
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const client = clientFrom(values, io);
    try {
      const s = await client.reports.summary();
      io.stdout.write(values.json ? `${JSON.stringify(s)}\n` : describe(s));
      return EXIT.ok;
    } finally {
      await client.close();
    }
  },
};

function describe(s: Summary): string {
  const l = s.locations;
  const r = s.reservations;
  return [
    `As of ${s.generated_at}`,
    `Stores:   ${l.total} (${l.active} active, ${l.paused} paused, ${l.terminated} terminated; ${l.hours_missing} without opening hours)`,
    `Bookings: ${r.pending} pending, ${r.confirmed} confirmed, ${r.completed} completed, ${r.no_show} no-shows; ${r.unacknowledged} not acknowledged`,
    `Videos:   ${s.videos_published} published`,
    '',
  ].join('\n');
}
