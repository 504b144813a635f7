import type { Membership, MembershipInput } from '@ums/contracts';
import {
  FREE_ITEMS_DEFAULT,
  MEMBERSHIP_LENGTH_DEFAULT,
  MEMBERSHIP_LENGTH_MAX,
  MEMBERSHIP_LENGTH_MIN,
} from '@ums/contracts/constants';
import { MEMBERSHIPS as T } from './messages.js';

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

export interface MembershipErrors {
  name?: string;
  productId?: string;
  discountPackageId?: string;
}

export function validate(draft: MembershipDraft): MembershipErrors {
  const errors: MembershipErrors = {};
  if (!draft.name.trim()) errors.name = T.nameRequired;
  if (!draft.productId) errors.productId = T.productRequired;
  return errors;
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
