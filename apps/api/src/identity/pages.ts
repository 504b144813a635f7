/** Server-rendered pages of the embedded provider: no script, brand colours, labelled fields. */
const escapeHtml = (text: string) =>
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
  .remember { display: flex; align-items: center; gap: 8px; margin: 16px 0 0; font-weight: 400; }
  .remember input { width: 20px; height: 20px; margin: 0; accent-color: #6f4428; }
  .error { background: #fde7e7; color: #8a1c1c; border-radius: 6px; padding: 10px 12px; margin: 0 0 8px; }`;

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

export const KEEP_SIGNED_IN = 'Keep me signed in';

export function signInPage(
  action: string,
  options: { email?: string; error?: string; remember?: boolean } = {},
): string {
  return page(
    'Sign in',
    `<h1>Sign in</h1><p>to your membership account</p>
${options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : ''}
<form method="post" action="${escapeHtml(action)}" novalidate>
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}" ${options.email ? '' : 'autofocus'}>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required ${options.email ? 'autofocus' : ''}>
  <label class="remember" for="remember"><input id="remember" name="remember" type="checkbox" value="yes"${options.remember ? ' checked' : ''}>${KEEP_SIGNED_IN}</label>
  <button type="submit">Sign in</button>
</form>`,
  );
}
