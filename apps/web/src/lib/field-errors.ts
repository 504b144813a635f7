import { ApiError, flattenErrors, isObject } from './api-client.js';
import { errorText } from './error-text.js';

/** A failed save as a form shows it: each field's messages under that field, and the banner for the rest. */
export interface FormFailure<F extends string> {
  fields: Partial<Record<F, string>>;
  /** The banner's text: the messages no field of the form shows, or the screen's fallback when every one is shown. */
  banner: string;
}

/**
 * Puts the server's field errors (the envelope's `errors: { field: [messages] }`) back on the form's fields, as
 * Keycloak's account console does with `setError`. `fields` maps the API's field names to the form's (a name the
 * form uses as is maps to itself); a field the form does not show, or an answer without `errors`, goes to the banner
 * (`errorText`: the API's message for a refused request, `fallback` otherwise).
 */
export function formFailure<F extends string>(
  error: unknown,
  fields: Readonly<Record<string, F>>,
  fallback: string,
): FormFailure<F> {
  const errors = error instanceof ApiError && isObject(error.body) ? error.body['errors'] : undefined;
  if (!isObject(errors)) return { fields: {}, banner: errorText(error, fallback) };
  const placed: Partial<Record<F, string>> = {};
  const rest: string[] = [];
  for (const [name, value] of Object.entries(errors)) {
    const messages = flattenErrors(value);
    // An item's error (`groups.0`) belongs to its list's field.
    const key = Object.hasOwn(fields, name) ? name : name.split('.')[0];
    const field = key !== undefined && Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (field === undefined) rest.push(...messages);
    else placed[field] = [placed[field], ...messages].filter(Boolean).join('. ');
  }
  return { fields: placed, banner: rest.length > 0 ? rest.join('. ') : fallback };
}
