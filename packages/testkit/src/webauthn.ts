import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

// A software passkey authenticator for API tests (the browser journeys use Chromium's virtual authenticator): it
// answers WebAuthn options as a platform authenticator would, with user verification, 'none' attestation and ES256.

type Cbor = number | Buffer | string | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const bytes = Buffer.alloc(3);
  bytes[0] = (major << 5) | 25;
  bytes.writeUInt16BE(length, 1);
  return bytes;
}

/** CBOR (RFC 8949) for what WebAuthn needs: small integers, byte and text strings, maps. */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k as Cbor), cbor(v)])]);
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface SoftAuthenticatorOptions {
  /** The page's origin, as a browser would put it in clientDataJSON. */
  origin: string;
  /** A synced passkey (backup eligible and backed up) rather than one bound to this device. */
  synced?: boolean;
  /** Whether the "user" verifies (PIN or biometrics); off to test that verification is required. */
  userVerified?: boolean;
}

/** A platform authenticator holding passkeys in memory. */
export function softAuthenticator({ origin, synced = false, userVerified = true }: SoftAuthenticatorOptions) {
  const credentials: Credential[] = [];
  const flags = (extra: number) => FLAG_UP | (userVerified ? FLAG_UV : 0) | (synced ? FLAG_BE | FLAG_BS : 0) | extra;
  const clientData = (type: string, challenge: string, at = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }));

  return {
    credentials,
    /** navigator.credentials.create(): a new passkey for the options' relying party and user. */
    create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, at = origin) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const id = randomBytes(16);
      credentials.push({ id, privateKey, userHandle: options.user.id, counter: 0 });
      const coseKey = new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(id.length);
      const authData = Buffer.concat([
        sha256(options.rp.id ?? new URL(origin).hostname),
        Buffer.from([flags(FLAG_AT)]),
        Buffer.alloc(4),
        Buffer.alloc(16),
        length,
        id,
        cbor(coseKey),
      ]);
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key' as const,
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, at)),
          attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
          transports: ['internal'],
        },
      };
    },
    /** navigator.credentials.get(): an assertion by the given passkey (default: the newest one). */
    get(options: { challenge: string; rpId?: string }, credential = credentials.at(-1)!, at = origin) {
      credential.counter += 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authData = Buffer.concat([
        sha256(options.rpId ?? new URL(origin).hostname),
        Buffer.from([flags(0)]),
        counter,
      ]);
      const data = clientData('webauthn.get', options.challenge, at);
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), credential.privateKey);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
      };
    },
  };
}
export type SoftAuthenticator = ReturnType<typeof softAuthenticator>;
