/**
 * Work that takes turns: at most `atOnce` run at the same time, the others wait in the order they came. A finished
 * piece of work, failed or not, hands its turn straight to the next one waiting.
 */
export function turns(atOnce: number) {
  if (!Number.isInteger(atOnce) || atOnce < 1)
    throw new RangeError(`turns: atOnce must be a whole number >= 1, not ${atOnce}`);
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running < atOnce) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    /** How many wait for a turn now. */
    get waiting() {
      return waiting.length;
    },
  };
}
