import type { DiscountPackage } from '@ums/contracts';
import { and, eq, notInArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { insertSelect, namedStatement, placeholders, statementBuilder as builder } from '../../db/client.js';
import { moneyText } from '../../db/money.js';
import { discountPackageProducts, discountPackages, memberships, products } from '../../db/schema/index.js';
import type { PackageTx, Queryable } from '../audit/audit.js';
import { applyState, type State } from '../audit/states.js';
import { jsonObject } from '../lists/list-statements.js';
import { packageFrom, packageItem, packageItemTable, packageKey } from './discount-packages.lists.js';

/** A package's fields as the administrator saves them. */
export interface PackageFields {
  name: string;
  description: string | null;
}

/** One product's package price (null: none set). */
export interface PackagePrice {
  discountPackageId: number;
  productId: number;
  price: number | null;
}

/** A package as the audit trail records it: its fields and its products with their package prices. */
export interface DiscountPackageState extends State, PackageFields {
  /** Product id -> its package price (null: none set). */
  products: Record<string, { price: number | null }>;
}

const priceText = (price: number | null) => (price === null ? null : moneyText(price));
/** A package's audit state with one product's entry set (null: the product removed). */
const withProduct = (state: DiscountPackageState, productId: number, entry: { price: number | null } | null) =>
  applyState(state, { products: { [String(productId)]: entry } });
const isProductOf = (key: { discountPackageId: number | Placeholder; productId: number | SQL }) =>
  and(
    eq(discountPackageProducts.discountPackageId, key.discountPackageId),
    eq(discountPackageProducts.productId, key.productId),
  );

/**
 * The package's products as the audit's collection (product id -> its price), aggregated over the joined rows. Money
 * comes back as JSON numbers (10.50 reads as 10.5): the audit compares numbers.
 */
const productsState = sql<DiscountPackageState['products']>`coalesce(
  json_object_agg(${discountPackageProducts.productId}::text, json_build_object('price', ${discountPackageProducts.price})
                  order by ${discountPackageProducts.productId})
    filter (where ${discountPackageProducts.productId} is not null), '{}'::json)`;

/**
 * The package's whole state for the audit trail, as one JSON value (one row, none when there is no package): a
 * statement's scalar subquery as it is. A join, not a subquery: drizzle writes a single table's columns unqualified in
 * selected expressions.
 */
const stateQuery = (q: Pick<Queryable, 'select'>, id: number | Placeholder) =>
  q
    .select({
      state: jsonObject<DiscountPackageState>({
        name: discountPackages.name,
        description: discountPackages.description,
        products: productsState,
      }),
    })
    .from(discountPackages)
    .leftJoin(
      discountPackageProducts,
      eq(discountPackageProducts.discountPackageId, discountPackages.discountPackageId),
    )
    .where(eq(discountPackages.discountPackageId, id))
    .groupBy(discountPackages.discountPackageId);

/**
 * A price save (`savePrice`) as one named prepared statement, its text generated once from the typed statement and
 * planned once per connection (decision 027's exception). The update is a CTE: the statement's own reads do not see
 * it, so they read the package as it was. (An embedded query comes in parentheses, as a CTE's body must.)
 */
const packageId = sql.placeholder('discountPackageId');
const given = placeholders('price', 'productId', 'name', 'description');
const saved = sql.identifier('saved');
const savedPrice = sql`${saved}.${sql.identifier(discountPackageProducts.price.name)}`;
const savePrice = namedStatement<{
  price: { price: number | null } | null;
  before: DiscountPackageState | null;
  answer: DiscountPackage | null;
}>(
  'package_price_save',
  sql`with ${saved} as ${builder
    .update(discountPackageProducts)
    .set({ price: given.price, updatedAt: sql`now()` })
    .where(isProductOf({ discountPackageId: packageId, productId: given.productId }))
    .returning({ price: discountPackageProducts.price })}
  select (select json_build_object('price', ${savedPrice}) from ${saved}) as price,
         ${stateQuery(builder, packageId)} as before,
         (select ${packageItem} from ${packageFrom} where ${packageKey} = ${packageId}) as answer`,
);

/**
 * A package's fields saved (`saveFields`), as one named prepared statement: the update is a CTE named as the answer's
 * table (`packageItemTable`), so the answer is read from the row it returns, and the state before from the table as
 * it was.
 */
const saveFields = namedStatement<{ before: DiscountPackageState | null; answer: DiscountPackage | null }>(
  'package_fields_save',
  sql`with ${packageItemTable} as ${builder
    .update(discountPackages)
    .set({ name: given.name, description: given.description, updatedAt: sql`now()` })
    .where(eq(discountPackages.discountPackageId, packageId))
    .returning()}
  select ${stateQuery(builder, packageId)} as before,
         (select ${packageItem} from ${packageItemTable}) as answer`,
);

/**
 * A package created (`createAnswered`), as one named prepared statement (decision 039): the insert is a CTE named as
 * the answer's table, so the answer is read from the row it returns.
 */
const createPackage = namedStatement<{ answer: DiscountPackage }>(
  'package_create',
  sql`with ${packageItemTable} as ${builder
    .insert(discountPackages)
    .values({ name: given.name, description: given.description })
    .returning()}
  select ${packageItem} as answer from ${packageItemTable}`,
);

const packageExists = sql`exists (select 1 from ${discountPackages}
  where ${discountPackages.discountPackageId} = ${packageId})`;
const productExists = sql`exists (select 1 from ${products} where ${products.productId} = ${given.productId})`;
/**
 * A product added to a package (`addProduct`), as one named prepared statement (decision 039): the insert is a CTE,
 * made only when the package and the product exist and the product is not in the package yet; the statement reads
 * the package's state as it was.
 */
const addProduct = namedStatement<{
  package: boolean;
  product: boolean;
  added: { price: number | null } | null;
  before: DiscountPackageState | null;
}>(
  'package_product_add',
  sql`with added as (
    ${insertSelect(discountPackageProducts, [
      [discountPackageProducts.discountPackageId, packageId],
      [discountPackageProducts.productId, given.productId],
      [discountPackageProducts.price, given.price],
    ])}
    where ${packageExists} and ${productExists}
    on conflict do nothing
    returning ${discountPackageProducts.price})
  select ${packageExists} as package, ${productExists} as product,
         (select json_build_object('price', price) from added) as added,
         ${stateQuery(builder, packageId)} as before`,
);

/**
 * A product removed from a package (`removeProduct`), as one named prepared statement (decision 039): the delete is a
 * CTE, so the statement reads the package's state as it was.
 */
const removeProduct = namedStatement<{ removed: boolean; before: DiscountPackageState | null }>(
  'package_product_remove',
  sql`with removed as ${builder
    .delete(discountPackageProducts)
    .where(isProductOf({ discountPackageId: packageId, productId: given.productId }))
    .returning({ id: discountPackageProducts.productId })}
  select exists (select 1 from removed) as removed, ${stateQuery(builder, packageId)} as before`,
);

/**
 * A package removed (`removeAnswered`), as one named prepared statement (decision 039): the delete is a CTE, made only
 * when no membership uses the package, and the statement reads the names of those that do and the package's state as
 * it was. The caller holds the package's stripe (decision 045): a membership that takes the package up after the
 * statement's snapshot makes the delete fail on the memberships' foreign key (ON DELETE RESTRICT).
 */
const removePackage = namedStatement<{ users: string[]; before: DiscountPackageState | null }>(
  'package_remove',
  sql`with users as (
    select ${memberships.name} as name from ${memberships} where ${memberships.discountPackageId} = ${packageId}),
  removed as ${builder
    .delete(discountPackages)
    .where(and(eq(discountPackages.discountPackageId, packageId), sql`not exists (select 1 from users)`))
    .returning({ id: discountPackages.discountPackageId })}
  select (select coalesce(array_agg(name order by name), '{}') from users) as users,
         case when exists (select 1 from removed) then ${stateQuery(builder, packageId)} end as before`,
);

/** A package's answer and its audit state, read by id: named prepared statements, planned once (decision 039). */
const byId = sql.placeholder('id');
const findById = namedStatement<{ item: DiscountPackage }>(
  'package_by_id',
  sql`select ${packageItem} as item from ${packageFrom} where ${packageKey} = ${byId}`,
);
const readState = namedStatement<{ state: DiscountPackageState }>(
  'package_state',
  sql`select ${stateQuery(builder, byId)} as state`,
);

/**
 * Every read and write of the discount packages and their products' package prices, and the audit trail's reads and
 * restores of a package. Each takes the executor it runs on (the caller's transaction); rules live in the service.
 */
export const discountPackageRepository = {
  /** One package as the contract answers it (the list's item), or null. */
  async findById(q: Queryable, id: number): Promise<DiscountPackage | null> {
    const [row] = await findById(q, { id });
    return row?.item ?? null;
  },

  async exists(q: Queryable, id: number): Promise<boolean> {
    const found = await q
      .select({ id: discountPackages.discountPackageId })
      .from(discountPackages)
      .where(eq(discountPackages.discountPackageId, id));
    return found.length > 0;
  },

  /** Whether the package and the product exist, in one statement. */
  async packageAndProductExist(
    q: Queryable,
    key: { discountPackageId: number; productId: number },
  ): Promise<{ pkg: boolean; product: boolean }> {
    const { rows } = await q.execute<{ pkg: boolean; product: boolean }>(sql`
      select exists (select 1 from ${discountPackages}
                     where ${discountPackages.discountPackageId} = ${key.discountPackageId}) as pkg,
             exists (select 1 from ${products} where ${products.productId} = ${key.productId}) as product`);
    return rows[0]!;
  },

  /** Creates a package in one statement: its answer and its audit state. */
  async createAnswered(
    q: Queryable,
    fields: PackageFields,
  ): Promise<{ state: DiscountPackageState; answer: DiscountPackage }> {
    const [row] = await createPackage(q, { name: fields.name, description: fields.description });
    const { answer } = row!;
    return { state: { name: answer.name, description: answer.description, products: {} }, answer };
  },

  /**
   * Saves a package's fields and answers its state before and after and its answer after, from one statement (the
   * caller holds the package's stripe of the catalog's lock, the type says so); null when there is no such package.
   */
  async saveFields(
    q: PackageTx,
    id: number,
    fields: PackageFields,
  ): Promise<{ before: DiscountPackageState; after: DiscountPackageState; answer: DiscountPackage } | null> {
    const [row] = await saveFields(q, { discountPackageId: id, name: fields.name, description: fields.description });
    const { before, answer } = row!;
    if (before === null || answer === null) return null;
    return { before, after: { ...before, name: answer.name, description: answer.description }, answer };
  },

  /** False when there is no such package. */
  async update(q: Queryable, id: number, fields: PackageFields): Promise<boolean> {
    const updated = await q
      .update(discountPackages)
      .set({ name: fields.name, description: fields.description, updatedAt: sql`now()` })
      .where(eq(discountPackages.discountPackageId, id))
      .returning({ id: discountPackages.discountPackageId });
    return updated.length > 0;
  },

  /**
   * Removes a package no membership uses, in one statement (the caller holds the package's stripe, decision 045): the
   * names of the memberships that use it (nothing is removed then), and its state as it was (null when there was none).
   */
  async removeAnswered(q: Queryable, id: number): Promise<{ users: string[]; before: DiscountPackageState | null }> {
    const [row] = await removePackage(q, { discountPackageId: id });
    return row!;
  },

  /**
   * Sets a product's package price and reads, in the same statement, the package as it was: its audit state and its
   * answer. Null when the product is not in the package. It runs in a transaction that took the package's lock first
   * (its stripe, decisions 036 and 040: the type says so), so nothing else changes the package in between: the state
   * and the answer after are the ones before with this one price changed, to the value the row now holds (decision
   * 039).
   */
  async savePrice(
    q: PackageTx,
    change: PackagePrice,
  ): Promise<{ before: DiscountPackageState; after: DiscountPackageState; answer: DiscountPackage } | null> {
    const [row] = await savePrice(q, {
      price: priceText(change.price),
      discountPackageId: change.discountPackageId,
      productId: change.productId,
    });
    const { price, before, answer } = row!;
    if (price === null || before === null || answer === null) return null;
    return {
      before,
      after: withProduct(before, change.productId, price),
      answer: {
        ...answer,
        products: answer.products.map((p) => (p.productId === change.productId ? { ...p, price: price.price } : p)),
      },
    };
  },

  /**
   * Adds a product with its price when the package and the product exist, in one statement (the caller holds the
   * package's lock): whether each exists, and the package's state before and after (null when the product was in the
   * package already).
   */
  async addProduct(
    q: PackageTx,
    change: PackagePrice,
  ): Promise<{
    package: boolean;
    product: boolean;
    states: { before: DiscountPackageState; after: DiscountPackageState } | null;
  }> {
    const [row] = await addProduct(q, {
      discountPackageId: change.discountPackageId,
      productId: change.productId,
      price: priceText(change.price),
    });
    const { package: pkg, product, added, before } = row!;
    const states =
      added === null || before === null ? null : { before, after: withProduct(before, change.productId, added) };
    return { package: pkg, product, states };
  },

  /**
   * Removes a product from a package in one statement (the caller holds the package's lock): the package's state
   * before and after, or null when the product was not in it.
   */
  async removeProduct(
    q: PackageTx,
    key: { discountPackageId: number; productId: number },
  ): Promise<{ before: DiscountPackageState; after: DiscountPackageState } | null> {
    const [row] = await removeProduct(q, { discountPackageId: key.discountPackageId, productId: key.productId });
    const { removed, before } = row!;
    if (!removed || before === null) return null;
    return { before, after: withProduct(before, key.productId, null) };
  },

  /** The package's whole state for the audit trail (one statement), or null when there is none. */
  async readState(q: Queryable, id: number): Promise<DiscountPackageState | null> {
    const [row] = await readState(q, { id });
    return row?.state ?? null;
  },

  /**
   * Makes the package look like `target` (null: removes it), `current` being its state now: a package removed since
   * comes back under its own id, its products become exactly the target's, and only the prices that differ are
   * written.
   */
  async restoreState(
    q: Queryable,
    id: number,
    target: DiscountPackageState | null,
    current: DiscountPackageState | null,
  ): Promise<void> {
    if (target === null) {
      await q.delete(discountPackages).where(eq(discountPackages.discountPackageId, id));
      return;
    }
    if (current === null) {
      await q
        .insert(discountPackages)
        .overridingSystemValue()
        .values({ discountPackageId: id, name: target.name, description: target.description });
    } else {
      await discountPackageRepository.update(q, id, target);
    }
    const wanted = Object.entries(target.products ?? {});
    await q.delete(discountPackageProducts).where(
      and(
        eq(discountPackageProducts.discountPackageId, id),
        notInArray(
          discountPackageProducts.productId,
          wanted.map(([productId]) => Number(productId)),
        ),
      ),
    );
    const had = current?.products ?? {};
    for (const [productId, { price }] of wanted) {
      if (productId in had && had[productId]?.price === price) continue;
      await q
        .insert(discountPackageProducts)
        .values({ discountPackageId: id, productId: Number(productId), price: priceText(price) })
        .onConflictDoUpdate({
          target: [discountPackageProducts.discountPackageId, discountPackageProducts.productId],
          set: { price: sql`excluded.price`, updatedAt: sql`now()` },
        });
    }
  },
};
