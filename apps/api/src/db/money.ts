/** numeric(10,2) arrives as text; the API answers numbers rounded to cents. */
export const toMoney = (value: string | number): number => Math.round(Number(value) * 100) / 100;
export const toMoneyOrNull = (value: string | number | null): number | null => (value === null ? null : toMoney(value));
/** Money goes back to PostgreSQL as exact text, never through floating-point arithmetic. */
export const moneyText = (value: number): string => value.toFixed(2);
