/** The sandbox's committed copy of the document (served at GET /openapi.json). */
export const SANDBOX_DOCUMENT_PATH = 'src/testing/http/openapi.json';

/** The document as written to disk: stable, indented, ending in a newline (diffs stay readable). */
export function serialize(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
