/** `crp events tail`: bookings and videos as JSON lines, from `watchEvents()` of `@crp/partner-sdk/events`. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  CheckpointInvalidError,
  fileCheckpoint,
  memoryCheckpoint,
  watchEvents,
  type Checkpoint,
  type Watcher,
} from '../events/index.js';
import { redisCheckpoint } from '../redis/index.js';
import {
  COMMON_HELP,
  EXIT,
  SetupError,
  UsageError,
  clientFrom,
  oneOf,
  parse,
  stopOnSignal,
  type Command,
} from './command.js';
import { startingPoint, tailNotices, type TailNotices } from './events-notices.js';
import { lineWriter } from './line-writer.js';

export const events: Command = {
  usage: `Usage: crp events tail [--checkpoint FILE|redis://…] [--checkpoint-key NAME] [--standby] [--from now|beginning]
                       [--previous-key FINGERPRINT]

Every new booking, booking change and published video, one JSON object per line on stdout,
until Ctrl-C. With --checkpoint the position is kept in FILE (or in Redis), so the next run goes
on where this one stopped (each event at least once); without it, a run starts from now.
stderr says where it starts from, a line while no event comes (at most one a minute), and
what it did when it ends.

  --checkpoint FILE     keep the position there (created if missing); a redis:// or rediss://
                        URL keeps it in Redis, locked by a lease, for replicas on several hosts
  --checkpoint-key NAME the checkpoint's name in Redis (default crp-events)
  --standby             while another run holds the checkpoint, wait and take over when it stops
                        or dies (instead of failing with checkpoint_locked)
  --from now|beginning  where a new checkpoint starts: only changes from now on (default without
                        --checkpoint), or first everything that exists (default with it)
  --previous-key FP     after a key rotation: go on from a checkpoint saved under the old key,
                        whose fingerprint the refusal names (repeatable; a fingerprint, not a key)

${COMMON_HELP}

Example:
  crp events tail --checkpoint crp-events.checkpoint | jq -c 'select(.type == "reservation.created")'
  crp events tail --checkpoint redis://redis.internal:6379 --standby   # on each replica`,
  async run(args, io) {
    const { values, positionals } = parse(args, {
      checkpoint: { type: 'string' },
      'checkpoint-key': { type: 'string' },
      standby: { type: 'boolean' },
      from: { type: 'string' },
      'previous-key': { type: 'string', multiple: true },
    });
    const [verb, ...extra] = positionals;
    if (verb !== 'tail') throw new UsageError(`crp events takes one command: tail${verb ? ` (got ${verb})` : ''}.`);
    if (extra.length) throw new UsageError(`unexpected argument ${extra[0]}`);
    const inRedis = /^rediss?:\/\//i.test(values.checkpoint ?? '');
    if (values['checkpoint-key'] !== undefined && !inRedis)
      throw new UsageError('--checkpoint-key names a checkpoint in Redis: give --checkpoint redis://… too.');
    if (values['previous-key'] && !values.checkpoint)
      throw new UsageError('--previous-key goes on from a checkpoint saved under an old key: give --checkpoint too.');
    if (values.standby && !values.checkpoint)
      throw new UsageError('--standby waits for a checkpoint another run holds: give --checkpoint too.');
    const from = oneOf('--from', values.from ?? (values.checkpoint ? 'beginning' : 'now'), ['now', 'beginning']);
    const client = clientFrom(values, io);
    const out = lineWriter(undefined, io.stdout, io.cwd);
    const controller = new AbortController();
    const unhook = stopOnSignal(controller, io, 'watching');
    let watcher: Watcher | undefined;
    let notices: TailNotices | undefined;
    try {
      const checkpoint = checkpointOf(values.checkpoint, values['checkpoint-key'], io.cwd);
      const hasPosition =
        values.checkpoint && !inRedis
          ? await stat(resolve(io.cwd, values.checkpoint)).then(
              (s) => s.size > 0,
              () => false,
            )
          : undefined;
      watcher = watchEvents(client, {
        checkpoint,
        startFrom: from,
        standby: values.standby ?? false,
        previousKeys: values['previous-key'] ?? [],
        signal: controller.signal,
      });
      const running = watcher;
      notices = tailNotices(io.stderr, startingPoint(values.checkpoint, from, hasPosition, values['checkpoint-key']), {
        stats: () => running.stats,
      });
      for await (const event of watcher) {
        // id and type first: what a reader of the stream (or jq, or grep) looks at before the rest.
        const { id, type, ...rest } = event;
        await out.write(`${JSON.stringify({ id, type, ...rest })}\n`);
        notices.event();
      }
      return EXIT.ok;
    } catch (error) {
      // The SDK's words name its option; an operator types the flag.
      if (error instanceof CheckpointInvalidError && error.message.includes('previousKeys: [')) {
        throw new SetupError(
          error.message.replace(/pass previousKeys: \['([0-9a-f]+)'\]/, 'run with --previous-key $1'),
          { cause: error },
        );
      }
      throw error;
    } finally {
      unhook();
      notices?.end(watcher?.stats);
      await client.close();
    }
  },
};

function checkpointOf(where: string | undefined, key: string | undefined, cwd: string): Checkpoint {
  if (!where) return memoryCheckpoint();
  return /^rediss?:\/\//i.test(where)
    ? redisCheckpoint({ redis: where, key: key ?? 'crp-events' })
    : fileCheckpoint(resolve(cwd, where));
}
