import { describe, expect, it } from 'vitest';
import { PartnerApiError, NotFoundError } from '../../src/index.js';
import { recordOf } from '../../src/cli/enroll-report.js';
import type { EnrollOutcome } from '../../src/bulk/index.js';

const run = { file: 'stores.csv', lineOf: (index: number) => index + 2, resume: undefined };
const failed = (error: PartnerApiError): EnrollOutcome =>
  ({
    status: 'failed',
    index: 0,
    partner_location_id: 's-1',
    row: {},
    contentHash: 'h',
    error,
    message: error.message,
  }) as unknown as EnrollOutcome;

describe("crp enroll's report code column", () => {
  it("shows the service's own code for a code this version has no class for", () => {
    const error = new PartnerApiError({
      status: 418,
      code: 'unknown_api_error',
      serviceCode: 'teapot_mode',
      message: 'I am a teapot.',
    });
    expect(recordOf(failed(error), run)).toMatchObject({ line: 2, status: 'failed', code: 'teapot_mode' });
  });

  it('shows the catch-all code when the answer carried no code of the service (a proxy page)', () => {
    const error = new PartnerApiError({ status: 418, code: 'unknown_api_error', message: 'An HTML page.' });
    expect(recordOf(failed(error), run)).toMatchObject({ code: 'unknown_api_error' });
  });

  it("keeps a known class's code", () => {
    const error = new NotFoundError({ status: 404, code: 'not_found', serviceCode: 'not_found', message: 'No store.' });
    expect(recordOf(failed(error), run)).toMatchObject({ code: 'not_found' });
  });
});
