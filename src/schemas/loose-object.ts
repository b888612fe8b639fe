import * as z from 'zod/mini';
import type { $loose, $ZodLooseShape } from 'zod/v4/core';
import { IN_PLACE, compile } from './response-check.js';
import type { SchemaNode } from './schema-def.js';

/**
 * A response object: `z.looseObject` (fields this version does not know are kept), with its
 * in-place check made once, here (see `parseResponse`): a response that passes is used as
 * JSON.parse built it, without zod's copy. zod itself parses only what fails the check (to say
 * what is wrong) and what the check does not cover, so its compiled object parser (~2.5 kB of
 * bundle) is not needed for speed.
 */
export function looseObject<Shape extends $ZodLooseShape>(shape: Shape): z.ZodMiniObject<Shape, $loose> {
  const schema = z.looseObject(shape);
  Object.defineProperty(schema, IN_PLACE, { value: compile(schema as unknown as SchemaNode) });
  return schema;
}
