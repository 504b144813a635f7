/** One cookie's value from a Cookie header, if the browser sent it in the expected shape; null otherwise. */
export function cookieValue(cookieHeader: string | undefined, name: string, shape: RegExp): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [key, value] = part.trim().split('=');
    if (key === name && value && shape.test(value)) return value;
  }
  return null;
}
