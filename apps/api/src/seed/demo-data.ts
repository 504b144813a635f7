import { hasRows, type Database } from '../db/client.js';
import {
  discountPackageProducts,
  discountPackages,
  memberships,
  orderItems,
  orders,
  products,
  promotionalProducts,
  subscriptionProducts,
  subscriptions,
  userDetails,
} from '../db/schema/index.js';
import { SYSTEM_ACTOR } from '../modules/audit/audit.js';
import { createCatalogService } from '../modules/catalog/catalog.service.js';

/** The demo member's identity subject; the identity provider creates its account with this id. */
export const DEMO_MEMBER_SUBJECT = 'a6f3c2e0-5d1b-4c47-9a8e-2f6b1d0c7e11';

export async function isEmpty(db: Database): Promise<boolean> {
  return !(await hasRows(db, products)) && !(await hasRows(db, memberships));
}

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** Demo catalog, packages, memberships and the demo member's orders and subscriptions, in one transaction. */
export async function seedDemoData(db: Database, catalogFile: string, memberSubject = DEMO_MEMBER_SUBJECT) {
  await createCatalogService({ db, catalogFile }).refresh(SYSTEM_ACTOR);
  await db.transaction(async (tx) => {
    if (await hasRows(tx, memberships)) return;
    const [essentials, family] = await tx
      .insert(discountPackages)
      .values([
        { name: 'Essentials Savings', description: 'Member prices on the everyday panels.' },
        { name: 'Family Wellness', description: 'Deeper discounts for households testing together.' },
      ])
      .returning();
    await tx.insert(discountPackageProducts).values([
      { discountPackageId: essentials!.discountPackageId, productId: 1001, price: '39.00' },
      { discountPackageId: essentials!.discountPackageId, productId: 1003, price: '29.00' },
      { discountPackageId: essentials!.discountPackageId, productId: 1005, price: '25.00' },
      { discountPackageId: essentials!.discountPackageId, productId: 1006, price: null },
      { discountPackageId: family!.discountPackageId, productId: 1002, price: '45.00' },
      { discountPackageId: family!.discountPackageId, productId: 1004, price: '59.00' },
      { discountPackageId: family!.discountPackageId, productId: 1010, price: '119.00' },
    ]);
    const [basic, plus, premium] = await tx
      .insert(memberships)
      .values([
        {
          name: 'Basic Health',
          description: 'Yearly essentials with member pricing.',
          productId: 1001,
          discountPackageId: essentials!.discountPackageId,
          numberOfFreeEligibleItems: 1,
          membershipLengthInMonths: 12,
        },
        {
          name: 'Health Plus',
          description: 'Quarterly check-ins and family savings.',
          productId: 1002,
          discountPackageId: family!.discountPackageId,
          numberOfFreeEligibleItems: 3,
          membershipLengthInMonths: 12,
        },
        {
          name: 'Premium Longevity',
          description: 'Every panel we offer, twice a year.',
          productId: 1011,
          discountPackageId: null,
          numberOfFreeEligibleItems: 6,
          membershipLengthInMonths: 24,
        },
      ])
      .returning();
    const promo = (m: typeof basic, ids: number[]) =>
      ids.map((productId) => ({ membershipId: m!.membershipId, productId }));
    await tx
      .insert(promotionalProducts)
      .values([
        ...promo(basic, [1003, 1005]),
        ...promo(plus, [1003, 1004, 1006, 1007]),
        ...promo(premium, [1004, 1006, 1008, 1009, 1010, 1012]),
      ]);

    await tx
      .insert(userDetails)
      .values({
        subject: memberSubject,
        firstName: 'Morgan',
        lastName: 'Lee',
        email: 'member@example.com',
        biologicalSex: 'Female',
        birthdate: '1988-06-14',
        phoneNumber: '(555) 201-7788',
        streetAddress: '42 Cedar Lane',
        city: 'Portland',
        stateProvince: 'OR',
        countryRegion: 'United States',
        postalCode: '97205',
      })
      .onConflictDoNothing();
    // [days ago, total charged, status, [product, price before discounts]]: an order whose items cost more than its
    // total had a package discount.
    const history: [number, string, string, [string, string][]][] = [
      [3, '49.00', 'Paid', [['Complete Blood Count', '49.00']]],
      [
        17,
        '118.00',
        'Paid',
        [
          ['Lipid Panel', '59.00'],
          ['Thyroid Panel (TSH, Free T4)', '79.00'],
        ],
      ],
      [34, '55.00', 'Refunded', [['Vitamin D, 25-Hydroxy', '55.00']]],
      [62, '149.00', 'Paid', [['Food Sensitivity Panel', '149.00']]],
      [75, '35.00', 'Failed', [['Hemoglobin A1c', '35.00']]],
      [
        91,
        '74.00',
        'Pending',
        [
          ['Hemoglobin A1c', '35.00'],
          ['Lipid Panel', '59.00'],
        ],
      ],
      [120, '129.00', 'Paid', [['Heart Health Panel', '129.00']]],
      [160, '65.00', 'Cancelled', [['Iron and Ferritin Panel', '65.00']]],
      [
        200,
        '144.00',
        'Paid',
        [
          ['Omega-3 Index', '89.00'],
          ['Kidney Function Panel', '69.00'],
        ],
      ],
    ];
    for (const [ago, total, status, items] of history) {
      const [order] = await tx
        .insert(orders)
        .values({ subject: memberSubject, totalAmount: total, orderedAt: daysAgo(ago), status })
        .returning();
      await tx
        .insert(orderItems)
        .values(
          items.map(([productName, price], position) => ({ orderId: order!.orderId, position, productName, price })),
        );
    }
    const [monthly, quarterly] = await tx
      .insert(subscriptions)
      .values([
        { subject: memberSubject, pricePerInterval: '35.00', billingInterval: 1, billingPeriod: 'month' },
        { subject: memberSubject, pricePerInterval: '89.00', billingInterval: 3, billingPeriod: 'month' },
      ])
      .returning();
    await tx.insert(subscriptionProducts).values([
      { subscriptionId: monthly!.subscriptionId, productId: 1005, position: 0 },
      { subscriptionId: quarterly!.subscriptionId, productId: 1003, position: 0 },
      { subscriptionId: quarterly!.subscriptionId, productId: 1004, position: 1 },
    ]);
  });
}
