import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client.js';
import { formFailure } from './field-errors.js';

const refusal = (errors: unknown) =>
  new ApiError(400, 'Invalid request. name: Name must be at most 120 characters', null, {
    isError: true,
    message: 'Invalid request. name: Name must be at most 120 characters',
    errors,
  });

describe('formFailure', () => {
  const fields = { name: 'name', membershipLengthInMonths: 'length', groups: 'groups' } as const;

  it("puts each field's messages on the form's field (renamed where the API names it otherwise) and the fallback in the banner", () => {
    expect(
      formFailure(
        refusal({ name: ['Name must be at most 120 characters'], membershipLengthInMonths: ['Too long', 'Too odd'] }),
        fields,
        'Failed to save membership',
      ),
    ).toEqual({
      fields: { name: 'Name must be at most 120 characters', length: 'Too long. Too odd' },
      banner: 'Failed to save membership',
    });
  });

  it("shows in the banner the messages of fields the form does not have, and a list item's error on its list", () => {
    expect(
      formFailure(refusal({ email: ['Email must be a valid email address'], 'groups.1': ['Bad'] }), fields, 'x'),
    ).toEqual({ fields: { groups: 'Bad' }, banner: 'Email must be a valid email address' });
  });

  it("gives an answer without field errors to the banner, in the API's words for a refused request", () => {
    expect(formFailure(new ApiError(409, 'Already exists'), fields, 'Failed to save')).toEqual({
      fields: {},
      banner: 'Already exists',
    });
    expect(formFailure(new ApiError(500, 'boom'), fields, 'Failed to save')).toEqual({
      fields: {},
      banner: 'Failed to save',
    });
  });
});
