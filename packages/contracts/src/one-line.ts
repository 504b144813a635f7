/** Control and format characters (bidirectional overrides, zero-width marks) and line or paragraph breaks. */
const NOT_ONE_PRINTABLE_LINE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

// Apart from common.ts, free of any schema library: the browser checks names with the same rule as the API.

/** Names and addresses are one line of printable characters: they are shown in lists, headings and mail. */
export const isOneLine = (value: string) => !NOT_ONE_PRINTABLE_LINE.test(value);
export const oneLineMessage = (label: string) => `${label} must be one line of printable characters`;

/** What requiredText (common.ts) says about a required one-line text, or null when the text passes. */
export function requiredTextProblem(label: string, max: number, value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return `${label} is required`;
  if (trimmed.length > max) return `${label} must be at most ${max} characters`;
  return isOneLine(trimmed) ? null : oneLineMessage(label);
}
