import type { Membership, MembershipInput } from '@ums/contracts';
import {
  FREE_ITEMS_DEFAULT,
  MEMBERSHIP_LENGTH_DEFAULT,
  MEMBERSHIP_LENGTH_MAX,
  MEMBERSHIP_LENGTH_MIN,
} from '@ums/contracts/constants';
import { descriptionProblem, nameProblem, PRODUCT_REQUIRED } from '@ums/contracts/form-rules';

/** The form's fields as typed: numbers stay text until saved. */
export interface MembershipDraft {
  name: string;
  description: string;
  productId: string;
  discountPackageId: string;
  freeItems: string;
  length: string;
  promotional: number[];
}

export function toDraft(membership: Membership | null): MembershipDraft {
  return {
    name: membership?.name ?? '',
    description: membership?.description ?? '',
    productId: membership ? String(membership.productId) : '',
    discountPackageId: membership?.discountPackageId ? String(membership.discountPackageId) : '',
    freeItems: String(membership?.numberOfFreeEligibleItems ?? FREE_ITEMS_DEFAULT),
    length: String(membership?.membershipLengthInMonths ?? MEMBERSHIP_LENGTH_DEFAULT),
    promotional: membership?.promotionalProducts.map((p) => p.productId) ?? [],
  };
}

const wholeNumber = (raw: string) => (/^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN);

/** 1-120 months; anything else falls back to 12 (SPEC section 5). */
export function normalizeLength(raw: string): number {
  const value = wholeNumber(raw);
  return value >= MEMBERSHIP_LENGTH_MIN && value <= MEMBERSHIP_LENGTH_MAX ? value : MEMBERSHIP_LENGTH_DEFAULT;
}

/** A whole number, 0 or more; anything else is 0. */
export function normalizeFreeItems(raw: string): number {
  const value = wholeNumber(raw);
  return Number.isFinite(value) && value >= 0 ? value : FREE_ITEMS_DEFAULT;
}

/** The form's fields that can carry a message: the browser's checks, or the server's word on that field. */
export type MembershipField = 'name' | 'description' | 'productId' | 'discountPackageId' | 'freeItems' | 'length';
export type MembershipErrors = Partial<Record<MembershipField, string>>;

/** The API's names for the form's fields, for putting its field errors back on them. */
export const MEMBERSHIP_API_FIELDS: Readonly<Record<string, MembershipField>> = {
  name: 'name',
  description: 'description',
  productId: 'productId',
  discountPackageId: 'discountPackageId',
  numberOfFreeEligibleItems: 'freeItems',
  membershipLengthInMonths: 'length',
};

/** The API's own rules (the contracts' checks behind its schema), run before anything is sent. */
export function validate(draft: MembershipDraft): MembershipErrors {
  const found: MembershipErrors = {
    name: nameProblem(draft.name) ?? undefined,
    description: descriptionProblem(draft.description) ?? undefined,
    productId: draft.productId ? undefined : PRODUCT_REQUIRED,
  };
  return Object.fromEntries(Object.entries(found).filter(([, message]) => message)) as MembershipErrors;
}

export function toInput(draft: MembershipDraft): MembershipInput {
  return {
    name: draft.name.trim(),
    description: draft.description.trim() || null,
    productId: Number(draft.productId),
    discountPackageId: draft.discountPackageId ? Number(draft.discountPackageId) : null,
    numberOfFreeEligibleItems: normalizeFreeItems(draft.freeItems),
    membershipLengthInMonths: normalizeLength(draft.length),
  };
}
