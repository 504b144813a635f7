import { describe, expect, it } from 'vitest';
import { turns } from './turns.js';

/** A piece of work that ends when the test says so, and says when it started. */
function held(started: string[], name: string) {
  let finish!: (fail?: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = (fail) => (fail ? reject(fail) : resolve(name));
  });
  return {
    work: () => {
      started.push(name);
      return done;
    },
    finish,
  };
}

describe('turns', () => {
  it('runs at most so many at once and the others in the order they came, each when a turn is free', async () => {
    const started: string[] = [];
    const queue = turns(2);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => held(started, name));
    const results = [a, b, c, d].map((piece) => queue.run(piece!.work));
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    expect(queue.waiting).toBe(2);
    b!.finish();
    await expect(results[1]).resolves.toBe('b');
    expect(started).toEqual(['a', 'b', 'c']);
    a!.finish(new Error('refused'));
    await expect(results[0]).rejects.toThrow('refused');
    // A failure frees its turn like a success.
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(queue.waiting).toBe(0);
    c!.finish();
    d!.finish();
    await expect(Promise.all(results.slice(2))).resolves.toEqual(['c', 'd']);
    // All turns are free again: two more start at once.
    const [e, f] = ['e', 'f'].map((name) => held(started, name));
    void queue.run(e!.work);
    void queue.run(f!.work);
    expect(started.slice(4)).toEqual(['e', 'f']);
  });

  it('refuses a number of turns that is not a whole number of at least one', () => {
    expect(() => turns(0)).toThrow('turns: atOnce must be a whole number >= 1, not 0');
    expect(() => turns(1.5)).toThrow('not 1.5');
  });
});
