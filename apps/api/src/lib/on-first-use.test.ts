import { describe, expect, it, vi } from 'vitest';
import { onFirstUse } from './on-first-use.js';

describe('onFirstUse', () => {
  it('imports once however many requests ask at the same time, and not before the first asks', async () => {
    const load = vi.fn(async () => ({ name: 'module' }));
    const module = onFirstUse(load);
    expect(load).not.toHaveBeenCalled();
    const [first, second] = await Promise.all([module(), module()]);
    expect(await module()).toBe(first);
    expect(second).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries the import again after one that failed', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('ENOENT'))
      .mockResolvedValueOnce('loaded');
    const module = onFirstUse(load);
    await expect(module()).rejects.toThrow('ENOENT');
    await expect(module()).resolves.toBe('loaded');
  });
});
