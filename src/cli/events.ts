/** `crp events tail`: bookings and videos as JSON lines, from `watchEvents()` of `@crp/partner-sdk/events`. */
import { fileCheckpoint, memoryCheckpoint, watchEvents } from '../events/index.js';
import { COMMON_HELP, EXIT, UsageError, clientFrom, oneOf, parse, stopOnSignal, type Command } from './command.js';
import { lineWriter } from './line-writer.js';

export const events: Command = {
  usage: `Usage: crp events tail [--checkpoint FILE] [--from now|beginning]

Every new booking, booking change and published video, one JSON object per line on stdout,
until Ctrl-C. With --checkpoint the position is kept in FILE, so the next run goes on where
this one stopped (each event at least once); without it, a run starts from now.

  --checkpoint FILE     keep the position there (created if missing)
  --from now|beginning  where a new checkpoint starts: only changes from now on (default without
                        --checkpoint), or first everything that exists (default with it)

${COMMON_HELP}

Example:
  crp events tail --checkpoint crp-events.checkpoint | jq -c 'select(.type == "reservation.created")'`,
  async run(args, io) {
    const { values, positionals } = parse(args, { checkpoint: { type: 'string' }, from: { type: 'string' } });
    const [verb, ...extra] = positionals;
    if (verb !== 'tail') throw new UsageError(`crp events takes one command: tail${verb ? ` (got ${verb})` : ''}.`);
    if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
    const from = oneOf('--from', values.from ?? (values.checkpoint ? 'beginning' : 'now'), ['now', 'beginning']);
    const client = clientFrom(values, io);
    const out = lineWriter(undefined, io.stdout);
    const controller = new AbortController();
    const unhook = stopOnSignal(controller, io, 'watching');
    try {
      const checkpoint = values.checkpoint ? fileCheckpoint(values.checkpoint) : memoryCheckpoint();
      for await (const event of watchEvents(client, { checkpoint, startFrom: from, signal: controller.signal })) {
        // id and type first: what a reader of the stream (or jq, or grep) looks at before the rest.
        const { id, type, ...rest } = event;
        await out.write(`${JSON.stringify({ id, type, ...rest })}\n`);
      }
      return EXIT.ok;
    } finally {
      unhook();
      await client.close();
    }
  },
};
