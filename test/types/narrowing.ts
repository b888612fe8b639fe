// Type tests, checked by `npm run typecheck`: each @ts-expect-error fails the check if the line compiles.
import { isPartnerError, type PartnerClient } from '../../src/index.js';

declare const error: unknown;
declare const client: PartnerClient;

if (isPartnerError(error)) {
  switch (error.code) {
    case 'validation_error': {
      const field: string | undefined = error.field;
      void field;
      break;
    }
    case 'rate_limited': {
      const wait: number | undefined = error.retryAfterMs;
      void wait;
      break;
    }
    case 'connection_error': {
      const reached: boolean = error.mayHaveReachedServer;
      // @ts-expect-error: a connection error has no HTTP status
      void error.status;
      void reached;
      break;
    }
  }
}

async function calls() {
  // @ts-expect-error: unknown fields are refused by the type too
  await client.locations.update('x', { colour: 'red' });
  // @ts-expect-error: preferred_language is 'en' or 'zh'
  await client.locations.update('x', { preferred_language: 'fr' });
  // @ts-expect-error: acknowledged_kind is one of two values
  await client.reservations.acknowledge('r', 'seen');
  const store = await client.locations.get('x');
  const status: 'active' | 'paused' | 'terminated' | (string & {}) = store.status;
  void status;
}
void calls;
