/**
 * What published text (README, docs/, the declarations' TSDoc) must not cite: files outside the
 * repository (the service's specification, the wire contract, ../shared/) and section numbers of
 * documents partners cannot open ("spec §4", "(spec, §2)", "contract §3"). Used by the docs test
 * and by check-package, so both refuse the same things.
 */
export const OUTSIDE_REFERENCES = [
  /spec\/partner-api\.md/,
  /\bcontract\.md\b/,
  /\.\.\/shared\//,
  /\bspec §/,
  /\(spec\b[^)]*§/,
  /\bcontract §/,
];

/** Each line of `text` that cites one of them, as `where:line: text`. */
export function outsideReferences(text, where) {
  return text
    .split('\n')
    .flatMap((line, i) =>
      OUTSIDE_REFERENCES.some((re) => re.test(line)) ? [`${where}:${i + 1}: ${line.trim()}`] : [],
    );
}
