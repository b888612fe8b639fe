import { validation } from '../api-error.js';
import { arrayOf, integer, object, optional, string } from '../validation/rules.js';
import { type ControlRoute, noParams, readObject } from './control-route.js';

const keyOptions = object({
  allowIps: optional(arrayOf(string({ min: 1 }))),
  rateLimit: optional(object({ limit: optional(integer(1)), windowMs: optional(integer(1)) })),
  account: optional(string({ min: 1 })),
});

export const keyRoutes: ControlRoute[] = [
  {
    method: 'POST',
    path: '/keys',
    summary: 'issue a crp_test_ key: the fields of sandbox.issueKey() → { key, account_id }',
    handler: async ({ deps, world, query, request }) => {
      noParams(query);
      const options = keyOptions(await readObject(request), '');
      if (options.account !== undefined && !world.keys.find(options.account)) {
        throw validation('account', 'account must be a key this sandbox issued (the new key joins its account).');
      }
      let key: string;
      try {
        key = deps.issueKey(options);
      } catch (error) {
        if (error instanceof RangeError)
          throw validation(/allowIps/.test(error.message) ? 'allowIps' : 'rateLimit', `${error.message}.`);
        throw error;
      }
      return { status: 201, body: { key, account_id: world.keys.find(key)?.account.id } };
    },
  },
];
