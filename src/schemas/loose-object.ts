import * as z from 'zod/mini';
import { $constructor, $ZodObjectJIT, type $loose, type $ZodLooseShape, type $ZodObjectDef } from 'zod/v4/core';

/**
 * `z.looseObject` with zod's compiled object parser. zod/mini objects check each field through
 * generic code; the full `zod` package compiles a parser per shape, ~5× faster on a page of 200
 * bookings (~90 µs instead of ~460 µs), which was most of what a list walk cost over a
 * hand-written loop (bench case 4). The definition and the mini API are the same, and where
 * `new Function` is not allowed (some edge runtimes) zod falls back to the generic parser.
 *
 * Response schemas use it: they are loose (fields this version does not know are kept) and they
 * run on every item of every page.
 */
type Init = (inst: unknown, def: unknown) => void;
// Named as mini's own so that `instanceof z.ZodMiniObject` and zod's object helpers accept it.
// Named imports only: `zod/v4/core` as a namespace would pull its locales and utilities into
// every application bundle.
const ZodMiniObjectCompiled = /* @__PURE__ */ $constructor('ZodMiniObject', (inst: z.ZodMiniObject, def: $ZodObjectDef) => {
  ($ZodObjectJIT.init as Init)(inst, def);
  (z.ZodMiniType.init as Init)(inst, def);
  Object.defineProperty(inst, 'shape', { get: () => def.shape, enumerable: false, configurable: true });
});

export function looseObject<Shape extends $ZodLooseShape>(shape: Shape): z.ZodMiniObject<Shape, $loose> {
  const def = { type: 'object', shape, catchall: z.unknown() } as unknown as $ZodObjectDef;
  return new ZodMiniObjectCompiled(def) as unknown as z.ZodMiniObject<Shape, $loose>;
}
