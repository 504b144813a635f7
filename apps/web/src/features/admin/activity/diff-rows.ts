import type { AuditEntry } from '@ums/contracts/audit';
import { formatUsd } from '../../../lib/format.js';
import { ACTIVITY as T } from './messages.js';

/** One line of an entry's change, as a person reads it. */
export interface DiffRow {
  key: string;
  field: string;
  before: string;
  after: string;
}

type State = Record<string, unknown>;
const isObject = (value: unknown): value is State =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A product or package by the name it had when the change was made, else by its id. */
function named(entry: AuditEntry, kind: 'product' | 'discountPackage', id: unknown) {
  const name = entry.labels[`${kind}:${String(id)}`];
  return name ? `${name} (#${String(id)})` : `#${String(id)}`;
}

function scalar(entry: AuditEntry, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') {
    return field === 'discountPackageId' || field === 'groups' ? T.none : T.noValue;
  }
  if (field === 'productId') return named(entry, 'product', value);
  if (field === 'discountPackageId') return named(entry, 'discountPackage', value);
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : T.none;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function packagePrice(value: unknown): string {
  if (!isObject(value)) return T.notInPackage;
  return typeof value['price'] === 'number' ? formatUsd(value['price']) : T.noPackagePrice;
}

/**
 * The rows of an entry's change: each field with its value before and after, and a row per product whose package
 * price or promotional standing changed. Where the entity was created or removed, every field is a row.
 */
export function diffRows(entry: AuditEntry, after: State | null = entry.after): DiffRow[] {
  const before = entry.before;
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.flatMap((field): DiffRow[] => {
    const was = before?.[field];
    const now = after?.[field];
    if (field === 'products' || field === 'promotionalProducts') {
      const ids = [...new Set([...Object.keys(isObject(was) ? was : {}), ...Object.keys(isObject(now) ? now : {})])];
      return ids.map((id) => {
        const wasItem = isObject(was) ? was[id] : undefined;
        const nowItem = isObject(now) ? now[id] : undefined;
        const product = named(entry, 'product', id);
        return field === 'products'
          ? {
              key: `${field}:${id}`,
              field: T.priceOf(product),
              before: packagePrice(wasItem),
              after: packagePrice(nowItem),
            }
          : {
              key: `${field}:${id}`,
              field: T.promotionalProduct(product),
              before: wasItem ? T.promoted : T.notPromoted,
              after: nowItem ? T.promoted : T.notPromoted,
            };
      });
    }
    return [
      {
        key: field,
        field: T.fields[field] ?? field,
        before: before === null ? T.noValue : scalar(entry, field, was),
        after: after === null ? T.noValue : scalar(entry, field, now),
      },
    ];
  });
}
