import type { PromotionalProduct } from '@ums/contracts';
import { usePagedList, type ListView } from '../../../lib/paged-list.js';

export const promotionalProductKeys = {
  all: ['admin', 'promotional-products'] as const,
};

/** Which memberships promote which products, a page at a time; `membershipId` ("" for all) narrows it to one. */
export const usePromotionalProductList = (membershipId: string, view: ListView) =>
  usePagedList<PromotionalProduct>(
    promotionalProductKeys.all,
    membershipId ? `/promotionalProduct/${membershipId}` : '/promotionalProduct',
    view,
  );
