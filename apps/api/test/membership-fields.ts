import type { Membership } from '@ums/contracts';

/** A membership's fields as its save takes them (the body of `PUT /api/membership/{id}`). */
export const membershipFieldsOf = (m: Membership) => ({
  name: m.name,
  description: m.description,
  productId: m.productId,
  discountPackageId: m.discountPackageId,
  numberOfFreeEligibleItems: m.numberOfFreeEligibleItems,
  membershipLengthInMonths: m.membershipLengthInMonths,
});
