export interface LogoutUrlValues {
  clientId: string;
  returnTo: string;
  idTokenHint: string | null;
}

/**
 * Fills the provider's logout address form. A placeholder without a value (no ID token known)
 * takes its whole query parameter with it.
 */
export function buildLogoutUrl(template: string, values: LogoutUrlValues): string {
  const filled: Record<string, string | null> = {
    clientId: values.clientId,
    returnTo: values.returnTo,
    idTokenHint: values.idTokenHint,
  };
  let url = template;
  for (const [name, value] of Object.entries(filled)) {
    const placeholder = `{${name}}`;
    if (value === null) {
      url = url.replace(new RegExp(`[?&][^?&=]+=\\{${name}\\}`), (match) => (match.startsWith('?') ? '?' : ''));
    } else {
      url = url.replaceAll(placeholder, encodeURIComponent(value));
    }
  }
  return url.replace('?&', '?').replace(/\?$/, '');
}
