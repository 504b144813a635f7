import { describe, expect, it } from 'vitest';
import { testConfig } from '../test/render.js';
import { CONFIG_ERROR } from '../lib/messages.js';
import { CONFIG_ELEMENT_ID, loadClientConfig } from './env.js';

const answer =
  (body: unknown, status = 200) =>
  async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the run-time configuration', () => {
  it('is read from /api/config when the page does not carry it', async () => {
    expect(await loadClientConfig(answer(testConfig))).toEqual(testConfig);
  });

  it('is read from the page the server wrote it into, without a request', async () => {
    const element = document.createElement('script');
    element.id = CONFIG_ELEMENT_ID;
    element.type = 'application/json';
    element.textContent = JSON.stringify(testConfig);
    document.head.append(element);
    try {
      const refuse = () => Promise.reject(new Error('no request expected'));
      expect(await loadClientConfig(refuse)).toEqual(testConfig);
    } finally {
      element.remove();
    }
  });

  it('names what is missing, and says so when the server fails', async () => {
    const partial: Partial<typeof testConfig> = { ...testConfig };
    delete partial.clientId;
    delete partial.authority;
    await expect(loadClientConfig(answer(partial))).rejects.toThrow(`${CONFIG_ERROR} (missing authority, clientId)`);
    await expect(loadClientConfig(answer({}, 503))).rejects.toThrow(`${CONFIG_ERROR} (status 503)`);
  });
});
