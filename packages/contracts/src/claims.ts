// Token claims as both the API and the web app read them; free of any schema library.

/**
 * The groups a token's groups claim names: a JSON array of strings (the embedded provider, Cognito's
 * `cognito:groups`) or one string of names separated by spaces or commas (some providers).
 */
export function groupsFromClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((group): group is string => typeof group === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}
