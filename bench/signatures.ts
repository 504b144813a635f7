// `npm run bench:signatures` (decision 043): what one token signature and one verification cost this process, for each
// algorithm the provider could sign with, through jose (as oidc-provider signs and the API verifies) and through
// node:crypto alone, on an access token's usual claims.
import { generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { count } from './count.js';

const TIMES = count('BENCH_SIGNATURES', 2000);

/** An access token's claims as the provider makes them (a DPoP-bound token for the web client). */
const CLAIMS = {
  sub: '3f0c2d4e-8a1b-4c5d-9e6f-7a8b9c0d1e2f',
  aud: 'ums-api',
  iss: 'http://localhost:8080/oidc',
  client_id: 'ums-web',
  scope: 'openid email profile',
  grant_id: 'Xb2Qm5gk0a9nq1Y7vO3rLz8eW4tHcJ6pS2dF0uA1iKx',
  cnf: { jkt: 'Sc1s0R3Qj0l1yOq9mBvC2Vd7wXkYpL5uN4tH8eG6fA3' },
};

/** Each algorithm: a fresh key pair, and how node:crypto hashes and encodes its signature for JOSE. */
const ALGORITHMS: {
  alg: string;
  keys: () => { privateKey: KeyObject; publicKey: KeyObject };
  hash: string | null;
  dsaEncoding?: 'ieee-p1363';
}[] = [
  { alg: 'RS256', keys: () => generateKeyPairSync('rsa', { modulusLength: 2048 }), hash: 'sha256' },
  {
    alg: 'ES256',
    keys: () => generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    hash: 'sha256',
    dsaEncoding: 'ieee-p1363',
  },
  { alg: 'EdDSA', keys: () => generateKeyPairSync('ed25519'), hash: null },
];

/** Microseconds per call of `work`, after as many unmeasured. */
async function perCall(work: () => unknown): Promise<number> {
  for (let i = 0; i < TIMES; i++) await work();
  const started = performance.now();
  for (let i = 0; i < TIMES; i++) await work();
  return Math.round(((performance.now() - started) * 1000) / TIMES);
}

console.log(`One signature and one verification of an access token, ${TIMES} of each in a row after ${TIMES} more:\n`);
console.log('| Algorithm | Sign, jose | Verify, jose | Sign, node:crypto | Verify, node:crypto |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const { alg, keys, hash, dsaEncoding } of ALGORITHMS) {
  const { privateKey, publicKey } = keys();
  const encoding = dsaEncoding ? { dsaEncoding } : {};
  const token = () =>
    new SignJWT(CLAIMS)
      .setProtectedHeader({ alg, typ: 'at+jwt' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
  const signed = await token();
  const data = Buffer.from(signed.slice(0, signed.lastIndexOf('.')));
  const signature = sign(hash, data, { key: privateKey, ...encoding });
  // What is timed must be what JOSE accepts: a signature node:crypto makes verifies as jose's does.
  await jwtVerify(signed, publicKey);
  if (
    !verify(
      hash,
      data,
      { key: publicKey, ...encoding },
      Buffer.from(signed.slice(signed.lastIndexOf('.') + 1), 'base64url'),
    )
  ) {
    throw new Error(`node:crypto does not verify jose's ${alg} signature`);
  }
  const row = [
    await perCall(token),
    await perCall(() => jwtVerify(signed, publicKey)),
    await perCall(() => sign(hash, data, { key: privateKey, ...encoding })),
    await perCall(() => verify(hash, data, { key: publicKey, ...encoding }, signature)),
  ];
  console.log(`| ${alg} | ${row.map((us) => `${us} µs`).join(' | ')} |`);
}
