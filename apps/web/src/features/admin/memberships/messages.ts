export const MEMBERSHIPS = {
  title: 'Memberships',
  loading: 'Loading memberships...',
  loadFailed: 'Failed to load memberships',
  loadDataFailed: 'Failed to load data',
  saveFailed: 'Failed to save membership',
  empty: 'No memberships found. Create your first membership to get started.',
  create: 'Create New Membership',
  newTitle: 'New Membership',
  editTitle: 'Edit Membership',
  back: 'Back',
  save: 'Save',
  saving: 'Saving...',
  fields: {
    name: 'Name',
    description: 'Description',
    product: 'Product',
    discountPackage: 'Discount Package',
    freeItems: 'Number of Free Eligible Items',
    length: 'Membership Length (Months)',
  },
  selectProduct: 'Select a product',
  none: 'None',
  nameRequired: 'Name is required',
  productRequired: 'Product is required',
  promotionalProducts: 'Promotional Products',
  selected: (count: number) => `${count} selected`,
  card: {
    product: 'Product',
    discountPackage: 'Discount Package',
    freeItems: 'Free items',
    length: 'Length',
    months: (n: number) => `${n} ${n === 1 ? 'month' : 'months'}`,
    promotional: (n: number) => `${n} promotional ${n === 1 ? 'product' : 'products'}`,
    more: (n: number) => `... and ${n} more`,
  },
  partialSave: (reason: string) =>
    `The membership was saved, but not all of its promotional products (${reason}). Press Save to try again.`,
} as const;

/** Cards show the first 3 products (SPEC section 9). */
export const CARD_PRODUCT_LIMIT = 3;
