// `npm run bench:per-request` (decision 049): the CPU this process spends, all its threads counted, on two things
// every identity request does: a token request's DPoP proof check as oidc-provider makes it through jose (the
// signature, then the key's thumbprint), with WebCrypto's jobs sent to libuv's pool and back or answered in place;
// and the security headers, with Helmet's middleware built for each request or once.
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';
import { rememberPublicKeyImports } from '../apps/api/src/identity/public-key-imports.js';
import { loadConfig } from '../apps/api/src/config/env.js';
import { answerWebCryptoInPlace } from '../apps/api/src/identity/webcrypto-in-place.js';
import { securityHeaderOptions } from '../apps/api/src/plugins/security-headers.js';
import { paths } from '../apps/api/src/runtime.js';
import { count } from './count.js';

const PROOFS = count('BENCH_PROOFS', 20000);
const ANSWERS = count('BENCH_ANSWERS', 50000);

/** CPU microseconds of this process (every thread) per unit of `work`'s `units`. */
async function cpuPer(units: number, work: () => Promise<void> | void): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(before);
  return Number(((user + system) / units).toFixed(1));
}

async function proofChecks() {
  const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const header = base64url(JSON.stringify({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty, crv, x, y } }));
  // One browser's proofs, as its refreshes send them: one key (remembered, decision 044), a new proof each time.
  const proofs = Array.from({ length: PROOFS }, () => {
    const claims = { jti: randomUUID(), htm: 'POST', htu: 'http://localhost:8080/oidc/token', iat: 1 };
    const input = `${header}.${base64url(JSON.stringify(claims))}`;
    const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    return `${input}.${base64url(signature)}`;
  });
  const check = async (proof: string) => {
    const { protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { algorithms: ['ES256'], typ: 'dpop+jwt' });
    await calculateJwkThumbprint(protectedHeader.jwk!, 'sha256');
  };
  /** Every proof checked, `atOnce` at a time, as that many token requests in flight would. */
  const all = (atOnce: number) => async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: atOnce }, async () => {
        while (next < proofs.length) await check(proofs[next++]!);
      }),
    );
  };
  rememberPublicKeyImports();
  await all(1)();
  const sent = { one: await cpuPer(PROOFS, all(1)), ten: await cpuPer(PROOFS, all(10)) };
  answerWebCryptoInPlace();
  await all(1)();
  const inPlace = { one: await cpuPer(PROOFS, all(1)), ten: await cpuPer(PROOFS, all(10)) };
  console.log(
    `A DPoP proof's check (ES256 signature, key thumbprint), µs of CPU each, one at a time / ten at a time: ` +
      `through libuv's pool ${sent.one} / ${sent.ten}, in place ${inPlace.one} / ${inPlace.ten}`,
  );
}

async function securityHeaders() {
  // The app's own options, as a start with the defaults builds them.
  const options = securityHeaderOptions(loadConfig({}, { catalogFile: paths.catalogFile }));
  const built = helmet(options);
  const answers = (middleware: () => ReturnType<typeof helmet>) => () => {
    for (let i = 0; i < ANSWERS; i++) {
      const request = new IncomingMessage(new Socket());
      middleware()(request, new ServerResponse(request), () => {});
    }
  };
  const madeOnly = answers(() => () => {});
  const eachTime = answers(() => helmet(options));
  const once = answers(() => built);
  for (const warm of [madeOnly, eachTime, once]) warm();
  const base = await cpuPer(ANSWERS, madeOnly);
  const perRequest = await cpuPer(ANSWERS, eachTime);
  const builtOnce = await cpuPer(ANSWERS, once);
  console.log(
    `Security headers, µs of CPU per answer beyond making its request and response (that alone: ${base} µs): ` +
      `Helmet built for each request ${(perRequest - base).toFixed(1)}, built once ${(builtOnce - base).toFixed(1)}`,
  );
}

await proofChecks();
await securityHeaders();
