import { describe, expect, it } from 'vitest';
import { fillRoute, outgoing } from '../../src/core/operation.js';
import { OPERATIONS } from '../../src/resources/operations.js';
import { ValidationError } from '../../src/index.js';

/**
 * fillRoute is the last guard between an id and the path it lands in, for every route: the
 * resources check ids against their schemas first, so these cases cannot be reached through them.
 */
describe('fillRoute', () => {
  it('fills every {name} in order, percent-encoding each value so it stays one segment', () => {
    expect(
      fillRoute('/locations/{partner_location_id}/creator-samples/{batch_id}/decision', {
        partner_location_id: 'store 1/2',
        batch_id: 'b.1',
      }),
    ).toBe('/locations/store%201%2F2/creator-samples/b.1/decision');
    expect(fillRoute('/summary')).toBe('/summary');
    expect(fillRoute('/reservations/{reservation_id}', { reservation_id: '..foo' })).toBe('/reservations/..foo');
  });

  it('refuses a missing or empty value, naming its field, before anything is built', () => {
    for (const params of [{}, { reservation_id: '' }, { reservation_id: 42 as unknown as string }]) {
      const error = (() => {
        try {
          return fillRoute('/reservations/{reservation_id}/acknowledge', params);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error, JSON.stringify(params)).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({
        field: 'reservation_id',
        message: 'reservation_id is required. Nothing was sent.',
      });
    }
  });

  it('refuses "." and ".." in any spelling, naming its field and why', () => {
    for (const id of ['.', '..', '%2e%2e', '%2E', '..;x']) {
      expect(() => fillRoute('/locations/{partner_location_id}', { partner_location_id: id }), id).toThrow(
        expect.objectContaining({
          field: 'partner_location_id',
          message: expect.stringMatching(/^partner_location_id must not be "\." or "\.\." in any spelling.*climb/),
        }),
      );
    }
  });
});

describe('outgoing', () => {
  it('refuses a row whose path ids were not given at all, naming the id, with nothing sent', () => {
    const refusal = (() => {
      try {
        outgoing(OPERATIONS['locations.get'], {});
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ValidationError);
    expect(refusal).toMatchObject({ field: 'partner_location_id', sent: false });
  });
});
