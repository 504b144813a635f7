import { SECOND_FACTOR_UI_TEXTS as T } from '@ums/contracts/security';
import { errorText } from '../../lib/error-text.js';

const DEVICES: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

/** "Passkey on Mac", then "Passkey on Mac 2" when the member already has one of that name. */
export function suggestPasskeyName(existing: readonly string[], userAgent: string): string {
  const base = T.passkeySuggestedName(DEVICES.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null);
  const taken = new Set(existing.map((name) => name.toLowerCase()));
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} ${n}`;
  return name;
}

/**
 * What a person reads when adding a passkey failed: a closed or timed-out browser prompt and a device that already
 * holds one are said plainly (the browser's own error names them); the API's refusals in its words.
 */
export function passkeyAddProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return T.passkeyCancelled;
  if (name === 'InvalidStateError') return T.passkeyAlreadyHere;
  return errorText(error, T.passkeyAddFailed);
}
