import type { Page } from './lists.js';

/** Every API answer: `data` is always an array, a single object being a one-element array. */
export interface Envelope<T> {
  isError: boolean;
  message: string;
  data: T[];
  /** On list calls asked for a page (`limit`): where the next page starts and the filtered list's size. */
  page?: Page;
  /** Only on validation failures: field name -> messages. */
  errors?: Record<string, string[]>;
}

export function ok<T>(data: T | T[], message = ''): Envelope<T> {
  return { isError: false, message, data: Array.isArray(data) ? data : [data] };
}

function isEnvelope(value: unknown): value is { data: unknown } {
  return typeof value === 'object' && value !== null && 'data' in value;
}

/** The data array of an envelope, or an empty list when the answer has no array. */
export function envelopeList<T>(value: unknown): T[] {
  return isEnvelope(value) && Array.isArray(value.data) ? (value.data as T[]) : [];
}

/** The first element of an envelope's data, or null. */
export function envelopeFirst<T>(value: unknown): T | null {
  const list = envelopeList<T>(value);
  return list.length > 0 ? (list[0] as T) : null;
}
