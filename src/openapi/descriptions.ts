import ts from 'typescript';
import type { JsonSchema } from './json-schema.js';

/**
 * Field descriptions for the document, read from the TSDoc written on the schemas' shapes (the same
 * lines the public interfaces and the TypeDoc reference show), so a description is written once.
 * The TypeScript checker follows each interface (`Location`, `EnrollLocationBody`) to its fields'
 * comments; zod's JSON Schema output carries no comments of its own.
 */
export class FieldDocs {
  readonly #checker: ts.TypeChecker;
  readonly #exports: Map<string, ts.Symbol>;

  constructor(entry: string) {
    const program = ts.createProgram([entry], {
      strict: true,
      exactOptionalPropertyTypes: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      noEmit: true,
    });
    this.#checker = program.getTypeChecker();
    const source = program.getSourceFile(entry);
    const module = source && this.#checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`FieldDocs: cannot read the module ${entry}`);
    this.#exports = new Map(this.#checker.getExportsOfModule(module).map((symbol) => [symbol.name, symbol]));
  }

  /** Annotate `schema` (the JSON Schema of the exported type `typeName`) with its fields' descriptions. */
  annotate(schema: JsonSchema, typeName: string): void {
    const symbol = this.#exports.get(typeName);
    if (!symbol) throw new Error(`FieldDocs: src/schemas exports no type ${typeName}`);
    this.#walk(schema, this.#checker.getDeclaredTypeOfSymbol(symbol));
  }

  #walk(schema: JsonSchema, type: ts.Type): void {
    if (schema.$ref) return;
    for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) this.#walk(branch, type);
    const known = knownValues(type);
    if (schema.type === 'string' && !schema.enum && known.length > 1) schema.examples ??= known;
    if (schema.items) {
      const element =
        this.#checker.getIndexTypeOfType(type, ts.IndexKind.Number) ?? arrayBranchElement(this.#checker, type);
      if (element) this.#walk(schema.items, this.#checker.getNonNullableType(element));
    }
    if (typeof schema.additionalProperties === 'object' && Object.keys(schema.additionalProperties).length > 0) {
      const value = this.#checker.getIndexTypeOfType(type, ts.IndexKind.String);
      if (value) this.#walk(schema.additionalProperties, this.#checker.getNonNullableType(value));
    }
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const field = type.getProperty(name);
      if (!field) continue;
      const text = ts.displayPartsToString(field.getDocumentationComment(this.#checker)).trim();
      if (text && !property.$ref)
        property.description = property.description ? `${text} ${property.description}` : text;
      this.#walk(property, this.#checker.getNonNullableType(this.#checker.getTypeOfSymbol(field)));
    }
  }
}

/** The string literals of an open enum's type (`'active' | 'paused' | (string & {})`). */
function knownValues(type: ts.Type): string[] {
  if (!type.isUnion()) return [];
  return type.types.filter((t): t is ts.StringLiteralType => t.isStringLiteral()).map((t) => t.value);
}

/** The element type of the array member of a union (`Status | Status[]`). */
function arrayBranchElement(checker: ts.TypeChecker, type: ts.Type): ts.Type | undefined {
  if (!type.isUnion()) return undefined;
  for (const member of type.types) {
    const element = checker.getIndexTypeOfType(member, ts.IndexKind.Number);
    if (element) return element;
  }
  return undefined;
}
