import {
  PASSWORD_HELPER_TEXT,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULES,
  PASSWORD_SPECIAL_CHARACTERS,
} from '@ums/contracts/password-policy';
import {
  PASSKEY_SIGN_IN_TEXTS as P,
  PASSWORD_RESET_TEXTS as R,
  SECOND_FACTOR_TEXTS as F,
  ENROLMENT_TEXTS as E,
} from '@ums/contracts/security';
import { ACCOUNT_DELETION_TEXTS, EMAIL_CHANGE_TEXTS as M } from '@ums/contracts/self-service';

/** Server-rendered pages of the embedded provider: no inline script, brand colours, labelled fields. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** Font files served by the provider itself (no font CDN). */
export const FONT_FILES = [
  'figtree-latin-400-normal.woff2',
  'figtree-latin-600-normal.woff2',
  'antonio-latin-600-normal.woff2',
] as const;

const STYLE = `
  @font-face { font-family: Figtree; font-weight: 400; font-display: swap;
    src: url(/oidc-assets/figtree-latin-400-normal.woff2) format("woff2"); }
  @font-face { font-family: Figtree; font-weight: 600; font-display: swap;
    src: url(/oidc-assets/figtree-latin-600-normal.woff2) format("woff2"); }
  @font-face { font-family: Antonio; font-weight: 600; font-display: swap;
    src: url(/oidc-assets/antonio-latin-600-normal.woff2) format("woff2"); }
  :root { color-scheme: light; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f6efe9;
    font-family: Figtree, "Segoe UI", system-ui, sans-serif; color: #2b1d14; }
  main { width: min(92vw, 400px); background: #fff; border-radius: 12px; padding: 32px;
    box-shadow: 0 8px 24px rgba(66, 40, 24, 0.15); }
  h1 { font-family: Antonio, "Arial Narrow", sans-serif; font-size: 28px; margin: 0 0 4px; color: #5c3a24; }
  p { margin: 0 0 20px; }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { box-sizing: border-box; width: 100%; padding: 10px 12px; font: inherit; border: 1px solid #8a6a55;
    border-radius: 6px; }
  input:focus { outline: 3px solid #c0895e; outline-offset: 1px; }
  button { margin-top: 24px; width: 100%; padding: 12px; font: inherit; font-weight: 600; color: #fff;
    background: #6f4428; border: 0; border-radius: 6px; cursor: pointer; }
  button:hover { background: #5a361f; }
  button.secondary { color: #6f4428; background: #fff; border: 1px solid #6f4428; }
  button.secondary:hover { background: #f6efe9; }
  form#passkey-form { margin: 8px 0 0; }
  form#passkey-form button { margin-top: 12px; }
  .remember { display: flex; align-items: center; gap: 8px; margin: 16px 0 0; font-weight: 400; }
  .remember input { width: 20px; height: 20px; margin: 0; accent-color: #6f4428; }
  .error { background: #fde7e7; color: #8a1c1c; border-radius: 6px; padding: 10px 12px; margin: 0 0 8px; }
  a { color: #6f4428; font-weight: 600; }
  a:focus-visible { outline: 3px solid #c0895e; outline-offset: 2px; }
  .links { margin: 20px 0 0; text-align: center; }
  .hint { margin: 6px 0 0; font-size: 14px; color: #5e4636; }
  .rules { list-style: none; margin: 10px 0 0; padding: 0; display: grid; gap: 4px; font-size: 14px; color: #5e4636; }
  .rules li { display: flex; gap: 8px; }
  .rules li.met { color: #0e6b2f; }
  .qr { margin: 0 auto 12px; width: 200px; }
  .qr svg { width: 200px; height: 200px; }
  .codes { columns: 2; padding: 0; list-style: none; font-size: 16px; }
  code { font-size: 16px; letter-spacing: 0.05em; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
    white-space: nowrap; }`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** Confirms the sign-out form the provider rendered; a file because the CSP allows no inline script. */
export const SIGN_OUT_SCRIPT = 'sign-out.js';
export const SIGN_OUT_SCRIPT_SOURCE = `const form = document.getElementById('op.logoutForm');
if (form) form.requestSubmit(form.querySelector('button[name="logout"]'));
`;

/** The provider's error page (bad authorization request and the like); the message is escaped, not trusted. */
export function errorPage(message: string): string {
  return page('Sign-in problem', `<h1>Something went wrong</h1><p>${escapeHtml(message)}</p>`);
}

export const SIGN_IN_ERROR = 'The email or password is incorrect.';
export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts. Please wait a few minutes and try again.';
/** When a process has more identity requests waiting than it holds (decision 038). */
export const IDENTITY_BUSY = 'The sign-in service is busy. Please try again in a moment.';

export const KEEP_SIGNED_IN = 'Keep me signed in';

export function signInPage(
  action: string,
  options: { email?: string; error?: string; remember?: boolean; forgotUrl?: string; passkey?: PasskeyForm } = {},
): string {
  // With passkeys on, the email field also offers the browser's saved passkeys (conditional mediation).
  const autocomplete = options.passkey ? 'username webauthn' : 'username';
  return page(
    'Sign in',
    `<h1>Sign in</h1><p>to your membership account</p>
${options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : ''}
<form method="post" action="${escapeHtml(action)}" novalidate>
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="${autocomplete}" required value="${escapeHtml(options.email ?? '')}" ${options.email ? '' : 'autofocus'}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required ${options.email ? 'autofocus' : ''}>
  <label class="remember" for="remember"><input id="remember" name="remember" type="checkbox" value="yes"${options.remember ? ' checked' : ''}>${KEEP_SIGNED_IN}</label>
  <button type="submit">Sign in</button>
</form>
${options.passkey ? passkeyForm(options.passkey, P.signInWithPasskey, true) : ''}
${options.forgotUrl ? `<p class="links"><a href="${escapeHtml(options.forgotUrl)}">${R.link}</a></p>` : ''}`,
  );
}

/** Where a page's passkey ceremony gets its options and posts the browser's answer. */
export interface PasskeyForm {
  options: string;
  action: string;
}

/** The scripts a passkey ceremony needs: @simplewebauthn/browser, then ours (files: the CSP allows no inline code). */
export const WEBAUTHN_SCRIPT = 'webauthn-browser.js';
export const PASSKEY_SCRIPT = 'passkey.js';

/**
 * A passkey button (shown by the script when the browser has WebAuthn) and the form the browser's answer is posted
 * with, as a page navigation, so the sign-in goes on exactly as a password's does. `autofill` also offers passkeys
 * in the email field.
 */
function passkeyForm(form: PasskeyForm, label: string, autofill: boolean): string {
  return `<form id="passkey-form" method="post" action="${escapeHtml(form.action)}" data-options="${escapeHtml(form.options)}"${autofill ? ' data-autofill="yes"' : ''}>
  <input type="hidden" name="response"><input type="hidden" name="remember">
  <button type="button" id="passkey-button" class="secondary" hidden>${label}</button>
  <p id="passkey-error" class="error" role="alert" hidden>${P.failed}</p>
</form>
<script src="/oidc-assets/${WEBAUTHN_SCRIPT}" defer></script>
<script src="/oidc-assets/${PASSKEY_SCRIPT}" defer></script>`;
}

export const PASSKEY_SCRIPT_SOURCE = `const form = document.getElementById('passkey-form');
const webauthn = globalThis.SimpleWebAuthnBrowser;
if (form && webauthn && webauthn.browserSupportsWebAuthn()) {
  const button = document.getElementById('passkey-button');
  const failed = document.getElementById('passkey-error');
  const options = async () => (await fetch(form.dataset.options, { credentials: 'same-origin' })).json();
  const submit = (answer) => {
    form.elements.response.value = JSON.stringify(answer);
    const remember = document.getElementById('remember');
    form.elements.remember.value = remember && remember.checked ? 'yes' : '';
    form.submit();
  };
  button.hidden = false;
  button.addEventListener('click', async () => {
    failed.hidden = true;
    try {
      submit(await webauthn.startAuthentication({ optionsJSON: await options() }));
    } catch (error) {
      if (error && error.name !== 'AbortError') failed.hidden = false;
    }
  });
  if (form.dataset.autofill === 'yes') {
    webauthn.browserSupportsWebAuthnAutofill().then(async (autofill) => {
      if (!autofill) return;
      try {
        submit(await webauthn.startAuthentication({ optionsJSON: await options(), useBrowserAutofill: true }));
      } catch {
        // Another ceremony (the button) took over, or the member chose their password.
      }
    });
  }
}
`;

const alert = (error: string | undefined) =>
  error ? `<div class="error" role="alert">${escapeHtml(error)}</div>` : '';
const backLink = (href: string) => `<p class="links"><a href="${escapeHtml(href)}">${R.backToSignIn}</a></p>`;

/** "Forgot your password?": one email field; what follows is the same whether the account exists or not. */
export function forgotPasswordPage(
  action: string,
  signInUrl: string,
  options: { email?: string; error?: string } = {},
): string {
  return page(
    R.title,
    `<h1>${R.title}</h1><p>${R.intro}</p>
${alert(options.error)}
<form method="post" action="${escapeHtml(action)}" novalidate>
  <label for="email">${R.email}</label>
  <input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(options.email ?? '')}">
  <button type="submit">${R.send}</button>
</form>
${backLink(signInUrl)}`,
  );
}

/** The answer to every well-formed request, known address or not. */
export function resetSentPage(signInUrl: string): string {
  return page(
    R.sentTitle,
    `<h1>${R.sentTitle}</h1><p role="status">${R.sent}</p><p>${R.sentDetail}</p>${backLink(signInUrl)}`,
  );
}

/** A link that was used, expired or never existed. */
export function resetInvalidPage(forgotUrl: string): string {
  return page(
    R.invalidTitle,
    `<h1>${R.invalidTitle}</h1><p>${R.invalid}</p><p class="links"><a href="${escapeHtml(forgotUrl)}">${R.askAgain}</a></p>`,
  );
}

/** Ticks the password rules off as the member types; a file because the CSP allows no inline script. */
export const PASSWORD_CHECKLIST_SCRIPT = 'password-checklist.js';

/**
 * The password rules' tests in plain browser JavaScript (the provider's pages load no bundle). A test checks them
 * against the contracts' rules, which the server applies when the form is sent.
 */
export const PASSWORD_TESTS_SOURCE = `const special = ${JSON.stringify(PASSWORD_SPECIAL_CHARACTERS)};
const tests = {
  'min-length': (p) => [...p].length >= ${PASSWORD_MIN_LENGTH},
  'max-length': (p) => [...p].length <= ${PASSWORD_MAX_LENGTH},
  lowercase: (p) => /[a-z]/.test(p),
  uppercase: (p) => /[A-Z]/.test(p),
  number: (p) => /[0-9]/.test(p),
  special: (p) => [...p].some((ch) => special.includes(ch)),
  repeats: (p) => !/(.)\\1\\1/su.test(p),
};`;

export const PASSWORD_CHECKLIST_SOURCE = `${PASSWORD_TESTS_SOURCE}
const input = document.getElementById('password');
const update = () => {
  for (const item of document.querySelectorAll('[data-rule]')) {
    const met = tests[item.dataset.rule](input.value);
    item.classList.toggle('met', met);
    item.querySelector('.mark').textContent = met ? '\u2713' : '\u25cb';
    item.querySelector('.state').textContent = met ? ' (${R.met})' : ' (${R.notMet})';
  }
};
input.addEventListener('input', update);
update();
`;

/** Setting a new password from a link: the policy's helper text and its rules as a live checklist. */
export function resetPasswordPage(
  action: string,
  token: string,
  email: string,
  options: { error?: string } = {},
): string {
  const rules = PASSWORD_RULES.map(
    (rule) =>
      `<li data-rule="${rule.id}"><span class="mark" aria-hidden="true">\u25cb</span><span>${escapeHtml(rule.message)}<span class="visually-hidden state"> (${R.notMet})</span></span></li>`,
  ).join('');
  return page(
    R.resetTitle,
    `<h1>${R.resetTitle}</h1><p>for ${escapeHtml(email)}</p>
${alert(options.error)}
<form method="post" action="${escapeHtml(action)}" novalidate>
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <input type="email" name="username" autocomplete="username" value="${escapeHtml(email)}" hidden readonly>
  <label for="password">${R.newPassword}</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required autofocus aria-describedby="password-hint">
  <p class="hint" id="password-hint">${PASSWORD_HELPER_TEXT}</p>
  <ul class="rules" aria-label="${R.rules}">${rules}</ul>
  <label for="confirm">${R.confirmPassword}</label>
  <input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
  <button type="submit">${R.save}</button>
</form>
<script src="/oidc-assets/${PASSWORD_CHECKLIST_SCRIPT}" defer></script>`,
  );
}

const D = ACCOUNT_DELETION_TEXTS;

const DELETION_DAY = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
/**
 * The day a closed account will be deleted, as the pages and the account section say it ("December 23, 2026"). One
 * formatter for the process: each new one leaves ICU's memory behind in the malloc heap (decision 034).
 */
export const deletionDay = (at: Date) => DELETION_DAY.format(at);

/** Signing in to a closed account during its grace period: keep it (and go on), or leave it to be deleted. */
export function deletionPendingPage(keepAction: string, leaveUrl: string, deleteAfter: Date): string {
  return page(
    D.pageTitle,
    `<h1>${D.pageTitle}</h1><p>${escapeHtml(D.pageText(deletionDay(deleteAfter)))}</p>
<form method="post" action="${escapeHtml(keepAction)}">
  <button type="submit">${D.keep}</button>
</form>
<p class="links"><a href="${escapeHtml(leaveUrl)}">${D.leave}</a></p>`,
  );
}

/** The member left their closed account to be deleted. */
export function deletionLeftPage(deleteAfter: Date): string {
  return page(D.leftTitle, `<h1>${D.leftTitle}</h1><p>${escapeHtml(D.leftText(deletionDay(deleteAfter)))}</p>`);
}

/**
 * "Two-step verification", after the password of an account with a second factor: the authenticator code, or (with
 * `recovery`) one of the recovery codes. The other way is a link.
 */
export function secondFactorPage(
  action: string,
  options: {
    recovery?: boolean;
    error?: string;
    otherWay: string;
    signInUrl: string;
    /** The account has an authenticator app (else the code field is left out). */
    totp: boolean;
    passkey?: PasskeyForm;
  },
): string {
  if (!options.recovery && !options.totp) {
    return page(
      F.title,
      `<h1>${F.title}</h1><p>${F.passkeyIntro}</p>
${alert(options.error)}
${options.passkey ? passkeyForm(options.passkey, F.usePasskey, false) : ''}
<p class="links"><a href="${escapeHtml(options.otherWay)}">${F.useRecoveryCode}</a></p>
${backLink(options.signInUrl)}`,
    );
  }
  const field = options.recovery
    ? `<label for="recovery">${F.recoveryLabel}</label>
  <input id="recovery" name="recovery" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" required autofocus>`
    : `<label for="code">${F.codeLabel}</label>
  <input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9 ]*" maxlength="7" autocomplete="one-time-code" required autofocus>`;
  return page(
    F.title,
    `<h1>${F.title}</h1><p>${options.recovery ? F.recoveryIntro : F.intro}</p>
${alert(options.error)}
<form method="post" action="${escapeHtml(action)}" novalidate>
  ${field}
  <button type="submit">${F.verify}</button>
</form>
${options.passkey && !options.recovery ? passkeyForm(options.passkey, F.usePasskey, false) : ''}
<p class="links"><a href="${escapeHtml(options.otherWay)}">${options.recovery ? (options.totp ? F.useAuthenticator : F.usePasskey) : F.useRecoveryCode}</a></p>
${backLink(options.signInUrl)}`,
  );
}

/** An authenticator key as a person types it: groups of four characters. */
export const groupsOfFour = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');

/** "Set up two-step verification": the QR code (inline SVG), the key as text, and the first code. */
export function enrolmentPage(action: string, options: { qrSvg: string; secret: string; error?: string }): string {
  return page(
    E.title,
    `<h1>${E.title}</h1><p>${E.intro}</p>
${alert(options.error)}
<figure class="qr" aria-label="QR code of the key">${options.qrSvg}</figure>
<p><strong>${E.keyLabel}:</strong> <code id="key">${escapeHtml(groupsOfFour(options.secret))}</code></p>
<form method="post" action="${escapeHtml(action)}" novalidate>
  <label for="code">${E.codeLabel}</label>
  <input id="code" name="code" type="text" inputmode="numeric" pattern="[0-9 ]*" maxlength="7" autocomplete="one-time-code" required autofocus>
  <button type="submit">${E.confirm}</button>
</form>`,
  );
}

/** The recovery codes of a new second factor, shown once, and the way on. */
export function recoveryCodesPage(action: string, codes: string[]): string {
  return page(
    E.codesTitle,
    `<h1>${E.codesTitle}</h1><p>${E.codesIntro}</p>
<ul class="codes">${codes.map((code) => `<li><code>${escapeHtml(code)}</code></li>`).join('')}</ul>
<form method="post" action="${escapeHtml(action)}">
  <button type="submit">${E.continue}</button>
</form>`,
  );
}

/** The link from the new address: one button that confirms (a mail scanner opening the link changes nothing). */
export function emailConfirmPage(action: string, token: string, newEmail: string): string {
  return page(
    M.confirmTitle,
    `<h1>${M.confirmTitle}</h1><p>${escapeHtml(M.confirmText(newEmail))}</p>
<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <button type="submit">${M.confirm}</button>
</form>`,
  );
}

/** The change is made: the member signs in with the new address from now on. */
export function emailConfirmedPage(newEmail: string, appUrl: string): string {
  return page(
    M.confirmedTitle,
    `<h1>${M.confirmedTitle}</h1><p role="status">${escapeHtml(M.confirmedText(newEmail))}</p>
<p class="links"><a href="${escapeHtml(appUrl)}">${M.continue}</a></p>`,
  );
}

/** A link of either kind that cannot do what it was sent for, with the sentence that says why. */
export function emailLinkInvalidPage(reason: string, appUrl: string): string {
  return page(
    M.invalidTitle,
    `<h1>${M.invalidTitle}</h1><p>${escapeHtml(reason)}</p>
<p class="links"><a href="${escapeHtml(appUrl)}">${M.continue}</a></p>`,
  );
}

/** "This wasn't me", from the old address: what restoring does, and one button that does it. */
export function emailRevertPage(action: string, token: string, oldEmail: string, newEmail: string): string {
  return page(
    M.revertTitle,
    `<h1>${M.revertTitle}</h1><p>${escapeHtml(M.revertText(oldEmail, newEmail))}</p>
<form method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <button type="submit">${M.revert}</button>
</form>`,
  );
}
