import { describe, expect, it } from 'vitest';
import { problemRefusedBeforeSending, refusedBeforeSending } from '../../src/core/refusal.js';
import { ProhibitedRuleError, ValidationError } from '../../src/index.js';

/** The one owner of "refused before sending": its shape, and telling it apart from the service's own refusals. */
describe('refusedBeforeSending', () => {
  it('builds the error the service would give, with the closing words', () => {
    const error = refusedBeforeSending('limit must be at most 200', 'limit');
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, code: 'validation_error', field: 'limit', requestId: undefined });
    expect(error.message).toBe('limit must be at most 200. Nothing was sent.');
  });

  it('builds a ProhibitedRuleError (422) for rules the service forbids', () => {
    const error = refusedBeforeSending('rules.age selects creators by age', 'rules.age', 'prohibited');
    expect(error).toBeInstanceOf(ProhibitedRuleError);
    expect(error).toMatchObject({ status: 422, code: 'prohibited_rule', field: 'rules.age' });
  });

  it('gives back the problem alone, and nothing for any other error', () => {
    expect(problemRefusedBeforeSending(refusedBeforeSending('from is not a real date', 'from'))).toEqual({
      problem: 'from is not a real date',
      field: 'from',
    });
    const fromService = new ValidationError({
      status: 400,
      code: 'validation_error',
      message: 'from is bad. Nothing was sent.',
      field: 'from',
      requestId: 'req_1',
    });
    expect(problemRefusedBeforeSending(fromService)).toBeUndefined();
    expect(
      problemRefusedBeforeSending(
        new ValidationError({ status: 400, code: 'validation_error', message: 'from is bad.', field: 'from' }),
      ),
    ).toBeUndefined();
    expect(problemRefusedBeforeSending(new Error('limit is bad. Nothing was sent.'))).toBeUndefined();
  });
});
