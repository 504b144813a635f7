import type { MembershipInput } from '@ums/contracts';
import type { MembershipCalls } from './api.js';

export interface PromotionPlan {
  added: number[];
  removed: number[];
}

/** Newly checked products are added; unchecked ones removed (SPEC section 4). */
export function planPromotions(saved: readonly number[], selected: readonly number[]): PromotionPlan {
  const before = new Set(saved);
  const after = new Set(selected);
  return {
    added: selected.filter((id) => !before.has(id)),
    removed: saved.filter((id) => !after.has(id)),
  };
}

/** What is on the server after a save attempt, so a retry sends only what is still missing. */
export interface SavedState {
  membershipId: number | null;
  promotional: number[];
}

export class MembershipSaveError extends Error {
  constructor(
    readonly failure: unknown,
    readonly saved: SavedState,
    /** Whether the membership itself was saved and only promotional products failed. */
    readonly membershipSaved: boolean,
  ) {
    super('Membership save failed');
    this.name = 'MembershipSaveError';
  }
}

/**
 * Create or update, then reconcile the promotional products: the added ones in one batch call, each removed one
 * in its own call. A failure part-way throws what was saved so far.
 */
export async function saveMembership(
  calls: MembershipCalls,
  state: SavedState,
  input: MembershipInput,
  selected: readonly number[],
): Promise<SavedState> {
  let membershipId = state.membershipId;
  let promotional = [...state.promotional];
  let membershipSaved = false;
  try {
    if (membershipId === null) {
      const created = await calls.create(input);
      if (!created) throw new Error('The server did not return the new membership');
      membershipId = created.membershipId;
    } else {
      await calls.update(membershipId, input);
    }
    membershipSaved = true;
    const plan = planPromotions(promotional, selected);
    if (plan.added.length > 0) {
      await calls.addPromotionalProducts(plan.added.map((productId) => ({ productId, membershipId: membershipId! })));
      promotional = [...promotional, ...plan.added];
    }
    for (const productId of plan.removed) {
      await calls.removePromotionalProduct({ productId, membershipId });
      promotional = promotional.filter((id) => id !== productId);
    }
    return { membershipId, promotional };
  } catch (error) {
    throw new MembershipSaveError(error, { membershipId, promotional }, membershipSaved);
  }
}
