import { describe, expect, it } from 'vitest';
import { passkeyRenameBodySchema } from './entities.js';
import { PASSKEY_NAME_MAX, passkeyNameProblem } from './security.js';

describe("a passkey's name", () => {
  it('is checked in the browser with the words and the rule of the API', () => {
    for (const name of [
      'Work laptop',
      '  Phone  ',
      'x'.repeat(PASSKEY_NAME_MAX),
      '',
      '   ',
      'x'.repeat(PASSKEY_NAME_MAX + 1),
      'Work\nlaptop',
      'Work\tlaptop',
      'Phone\u200b',
      'Łukasz’s iPhone',
    ]) {
      const result = passkeyRenameBodySchema.safeParse({ name });
      expect(passkeyNameProblem(name), JSON.stringify(name)).toBe(result.error?.issues[0]?.message ?? null);
    }
  });
});
