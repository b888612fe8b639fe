/**
 * `npm run demo`: start the sandbox emulator on a real port and run the quickstart against it.
 */
import { PartnerClient } from '@crp/partner-sdk';
import { createSandbox } from '@crp/partner-sdk/testing';
import { runQuickstart } from './quickstart.js';

const sandbox = createSandbox({ seed: 42, visitsPerWeek: 8 });
const apiKey = sandbox.issueKey();
const { url, close } = await sandbox.listen(0);
console.log(`Sandbox emulator listening at ${url} (a simulated service; nothing leaves this machine).`);

const client = new PartnerClient({ apiKey, baseUrl: url });
try {
  await runQuickstart(client, { letTimePass: (days) => void sandbox.clock.advance({ days }) });
  console.log('\nDone. Next: read README.md, or run `npx -p @crp/partner-sdk crp-sandbox` and point your own code at it.');
} finally {
  await client.close();
  await close();
}
