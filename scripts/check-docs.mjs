#!/usr/bin/env node
/**
 * Fails when the public API has a symbol without documentation, or a namespace method without an
 * example. Reads TypeDoc's JSON model (written by `npm run docs` to docs/api/api.json).
 *
 *   node scripts/check-docs.mjs [docs/api/api.json]
 *
 * Rules, for every entry point (`@crp/partner-sdk`, `@crp/partner-sdk/testing`, `@crp/partner-sdk/redis`):
 *  - every exported class, interface, function, type alias and variable has a summary;
 *  - every public member a class or interface declares (property, method, accessor, constructor)
 *    has one; inherited members count as documented where they are declared;
 *  - every method of the namespaces (client.locations, .reservations, …) has an `@example`.
 *  - every field of every interface and object type, the wire types included: Location, Reservation,
 *    … are interfaces derived from the zod schemas' shapes (src/schemas), and each field's one-line
 *    description is the comment on that field in the shape, so an undocumented field fails here.
 * `--only <entry>` limits the check to one entry point (e.g. `--only .`).
 *
 * scripts/docs-baseline.json lists symbols known to lack documentation (debt owned elsewhere):
 * they are reported but do not fail the check, and an entry that gets documented must be removed
 * from the list (the check fails on a stale entry), so the list only shrinks.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : undefined;
const file = args[0] ?? 'docs/api/api.json';
const project = JSON.parse(readFileSync(file, 'utf8'));

const KIND = {
  Module: 2,
  Variable: 32,
  Function: 64,
  Class: 128,
  Interface: 256,
  Constructor: 512,
  Property: 1024,
  Method: 2048,
  Accessor: 262144,
  TypeAlias: 2097152,
  Reference: 4194304,
};
const NAMESPACES = new Set([
  'Locations',
  'Reservations',
  'Content',
  'Creators',
  'Reports',
  'SettingsResource',
  'Pricing',
]);

const hasSummary = (comment) => Boolean(comment && (comment.summary ?? []).some((part) => part.text.trim()));
const hasTag = (comment, tag) => Boolean(comment && (comment.blockTags ?? []).some((t) => t.tag === tag));
/** A declaration's comment may sit on it or, for callables and accessors, on its signatures. */
function comments(reflection) {
  return [
    reflection.comment,
    ...(reflection.signatures ?? []).map((s) => s.comment),
    reflection.getSignature?.comment,
    reflection.setSignature?.comment,
  ].filter(Boolean);
}
const documented = (reflection) => comments(reflection).some(hasSummary);

const missing = [];
const noExample = [];
let checked = 0;
let examples = 0;

const modules = project.children?.some((c) => c.kind === KIND.Module)
  ? project.children
  : [{ name: '.', children: project.children }];
for (const module of modules) {
  const entry = module.name === 'index' ? '.' : module.name;
  if (only && only !== entry && only !== module.name) continue;
  for (const symbol of module.children ?? []) {
    if (symbol.kind === KIND.Reference) continue; // a re-export of something checked where it is declared
    checked++;
    if (!documented(symbol)) missing.push(`${module.name}: ${symbol.name}`);
    // An object type alias (`type X = { … }`) has fields like an interface.
    const declaration =
      symbol.kind === KIND.TypeAlias && symbol.type?.type === 'reflection' ? symbol.type.declaration : undefined;
    if (symbol.kind !== KIND.Class && symbol.kind !== KIND.Interface && !declaration) continue;
    for (const member of (declaration ?? symbol).children ?? []) {
      // A class's inherited members are checked where they are declared. An interface's are checked
      // here too: the wire types inherit every field from their schema's shape (src/schemas/fields.ts),
      // which is not itself a documented symbol.
      if (member.inheritedFrom && symbol.kind === KIND.Class) continue;
      if (member.flags?.isPrivate || member.flags?.isProtected || member.name.startsWith('[')) continue;
      if (![KIND.Property, KIND.Method, KIND.Accessor, KIND.Constructor].includes(member.kind)) continue;
      checked++;
      if (!documented(member)) missing.push(`${module.name}: ${symbol.name}.${member.name}`);
      if (NAMESPACES.has(symbol.name) && member.kind === KIND.Method) {
        examples++;
        if (!comments(member).some((c) => hasTag(c, '@example'))) noExample.push(`${symbol.name}.${member.name}`);
      }
    }
  }
}

const baselineFile = new URL('./docs-baseline.json', import.meta.url);
const baseline = new Set(JSON.parse(readFileSync(baselineFile, 'utf8')).undocumented);
const known = missing.filter((name) => baseline.has(name));
const fresh = missing.filter((name) => !baseline.has(name));
const stale = only ? [] : [...baseline].filter((name) => !missing.includes(name));
if (known.length) console.log(`known gaps (scripts/docs-baseline.json, ${known.length}): ${known.join(', ')}`);
for (const name of fresh) console.error(`not documented: ${name}`);
for (const name of noExample) console.error(`no @example:    ${name}`);
for (const name of stale) console.error(`documented now, remove from scripts/docs-baseline.json: ${name}`);
if (fresh.length || noExample.length || stale.length) {
  console.error(
    `check-docs: FAILED: ${fresh.length} public symbol(s) without documentation, ${noExample.length} namespace method(s) without an example, ${stale.length} stale baseline entr(y/ies) (of ${checked} checked)`,
  );
  process.exit(1);
}
console.log(
  `check-docs: ${checked - known.length} of ${checked} public symbols documented (${known.length} known gaps), every namespace method (${examples}) has an example`,
);
