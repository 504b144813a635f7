import { describe, expect, it } from 'vitest';
import { productList } from '../catalog/catalog.lists.js';
import {
  digitRunQuery,
  indexedPart,
  listStatement,
  STATEMENT_TEXTS_KEPT,
  statementTextsKept,
} from './list-statements.js';

const cursorOf = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

describe('list statements', () => {
  it(`keep at most ${STATEMENT_TEXTS_KEPT} statement texts and write a dropped one again the same`, () => {
    const first = listStatement(productList, { limit: 1 });
    // Every page size in every sort, direction and search: more variants than are kept.
    for (const sort of ['name', '-name', 'productId', '-productId', 'retailPrice', '-retailPrice']) {
      for (const q of [undefined, 'panel']) {
        for (let limit = 1; limit <= 100; limit++) listStatement(productList, { limit, sort, q });
      }
    }
    expect(statementTextsKept()).toBe(STATEMENT_TEXTS_KEPT);
    // A text dropped is written again, the same.
    expect(listStatement(productList, { limit: 1 })).toEqual(first);
  });

  it('read each cursor value by its key type, refusing a value of another type or an extra one', () => {
    const good = listStatement(productList, { limit: 2, cursor: cursorOf(['products name', 'Iron', 12]) });
    expect(good.values).toEqual(['Iron', 12]);
    const prices = listStatement(productList, {
      limit: 2,
      sort: '-retailPrice',
      cursor: cursorOf(['products -retailPrice', 12.5, 3]),
    });
    expect(prices.values).toEqual([12.5, 3]);
    for (const values of [
      ['products name', 'Iron', '12'],
      ['products name', 'Iron', 1.5],
      ['products name', 'Iron', 2 ** 31],
      ['products name', 7, 12],
      ['products name', 'Iron', 12, 13],
      ['products -name', 'Iron', 12],
      ['products retailPrice', '12.5; drop table products', 3],
    ]) {
      expect(() => listStatement(productList, { limit: 2, cursor: cursorOf(values) }), JSON.stringify(values)).toThrow(
        'The cursor is not one this list gave out',
      );
    }
  });

  it('give a trigram index the longest word of a search holding a digit and 4 characters, else the whole search', () => {
    for (const [search, pattern] of [
      ['number 123457', '%123457%'],
      ['Entity 4321', '%4321%'],
      ['order 12345 or 1234567', '%1234567%'],
      // The mail domain's words are in most rows; the numbered local part is rare and keeps all its trigrams.
      ['jsmith1985@gmail.com', '%jsmith1985%'],
      // Words of 3 characters or less have too few trigrams: the whole search, with %, _ and \ as text.
      ['alice@163.com', '%alice@163.com%'],
      ['192.168.1.10', '%192.168.1.10%'],
      ['member 12', '%member 12%'],
      ['100%_\\', '%100\\%\\_\\\\%'],
      ['lot_12345', '%12345%'],
      ['Müller1985 x', '%Müller1985%'],
      // The first of equal words.
      ['a 1234 5678', '%1234%'],
      // Lower-cased alone, "12ΑΣ" ends in a final sigma, which the whole search lower-cased does not hold.
      ['12ΑΣ.Β', '%12ΑΣ.Β%'],
    ]) {
      expect(indexedPart(search!), search).toBe(pattern);
    }
  });

  it('look a search up by its longest run of 5 ASCII digits or more, cut to 32, and by no shorter or other digits', () => {
    for (const [search, query] of [
      ['number 123457', '123457:*'],
      ['Entity 54321', '54321:*'],
      ['order 12345 or 1234567', '1234567:*'],
      ['ab12345cd', '12345:*'],
      ['+44 20 7946 0958', null],
      ['number 1234', null],
      // The first of equal runs.
      ['12345 67890', '12345:*'],
      // Digits of other scripts are not ASCII digits: the trigram index finds them.
      ['\u0661\u0662\u0663\u0664\u0665\u0666', null],
      ['1'.repeat(40), `${'1'.repeat(32)}:*`],
    ] as const) {
      expect(digitRunQuery(search), search).toBe(query);
    }
  });
});
