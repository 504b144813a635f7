import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkDpopProof, jwkThumbprint, MAX_REMEMBERED, rememberedDpop } from './dpop.js';

const URL_CALLED = 'https://members.example.com/api/userdetails/';
// Ed25519: its public key is imported in a twentieth of a P-256 key's time, and the test imports ten thousand.
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const jwk = publicKey.export({ format: 'jwk' });
const jkt = jwkThumbprint(jwk as Record<string, unknown>);
const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A valid EdDSA proof of the one key; `kid` makes its header text (what the memo is keyed by) a new one. */
function proof(kid: string, token: string) {
  const header = encoded({ typ: 'dpop+jwt', alg: 'EdDSA', jwk, kid });
  const payload = encoded({
    jti: randomUUID(),
    htm: 'GET',
    htu: URL_CALLED,
    iat: Math.floor(Date.now() / 1000),
    ath: hashOf(token),
  });
  const signature = sign(null, Buffer.from(`${header}.${payload}`), privateKey);
  return { header, text: `${header}.${payload}.${signature.toString('base64url')}` };
}
const BROWSER_TOKEN = `browser.${'t'.repeat(1000)}`;
const request = { method: 'GET', url: URL_CALLED, accessToken: BROWSER_TOKEN, jkt };

describe('what DPoP remembers per key and token', () => {
  it('still remembers the browser in use and the most recent other keys when full, instead of forgetting them all', () => {
    // The memos belong to the process: test files run before this one in the same worker may have filled them.
    for (const memo of [rememberedDpop.tokens, rememberedDpop.headers]) for (const key of memo.keys()) memo.delete(key);
    const browser = proof('browser', BROWSER_TOKEN);
    checkDpopProof(browser.text, request);
    const flood: string[] = [];
    // As many as the memo holds, after the browser: a memo emptied when full would have forgotten them all once. Each
    // made-up header is checked and remembered before the proof is refused (here for naming another key).
    for (let i = 0; i < MAX_REMEMBERED; i++) {
      const header = encoded({ typ: 'dpop+jwt', alg: 'EdDSA', jwk, kid: `flood-${i}` });
      flood.push(header);
      expect(() => checkDpopProof(`${header}.e30.AA`, { ...request, jkt: 'another-key' })).toThrow(
        'proof is signed by another key than the token is bound to',
      );
      // The browser goes on calling meanwhile, with a new proof each time.
      if (i % 100 === 0) checkDpopProof(proof('browser', BROWSER_TOKEN).text, request);
    }
    const headers = new Set(rememberedDpop.headers.keys());
    expect(rememberedDpop.headers.size.entries).toBe(MAX_REMEMBERED);
    expect(headers.has(browser.header)).toBe(true);
    expect(rememberedDpop.tokens.keys()).toEqual([hashOf(BROWSER_TOKEN)]);
    const recent = flood.slice(-(MAX_REMEMBERED - 200));
    expect(recent.filter((header) => !headers.has(header))).toEqual([]);
  });
});
