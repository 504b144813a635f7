/** A whole number of at least 1 from the environment, or the default; anything else stops the script saying so. */
export function count(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (Number.isInteger(value) && value >= 1) return value;
  console.error(`${name} must be a whole number of at least 1, not "${text}"`);
  process.exit(1);
}
