import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError, StepUpRequiredError } from './api-client.js';
import {
  dropStepUpDraft,
  keepStepUpDraft,
  peekStepUpDraft,
  STEP_UP_DRAFT_LIFETIME_MS,
  useStepUpDraft,
  type StepUpDraft,
} from './step-up-draft.js';

const asText = (stored: unknown) => (typeof stored === 'string' ? stored : null);

describe('a step-up draft in the tab', () => {
  it('is kept under its action, read back as its type, and dropped', () => {
    keepStepUpDraft('groups.m1', 'Admin, Support');
    keepStepUpDraft('groups.m2', 'Support');
    expect(peekStepUpDraft('groups.m1', asText)).toBe('Admin, Support');
    // A peek leaves it there: a second render reads the same.
    expect(peekStepUpDraft('groups.m1', asText)).toBe('Admin, Support');
    dropStepUpDraft('groups.m1');
    expect(peekStepUpDraft('groups.m1', asText)).toBeNull();
    expect(peekStepUpDraft('groups.m2', asText)).toBe('Support');
  });

  it('is not brought back when it is older than the lifetime, of another shape, or not JSON', () => {
    let now = 1_000_000;
    keepStepUpDraft('groups.m1', 'Admin', { now: () => now });
    now += STEP_UP_DRAFT_LIFETIME_MS;
    expect(peekStepUpDraft('groups.m1', asText, { now: () => now })).toBe('Admin');
    now += 1;
    expect(peekStepUpDraft('groups.m1', asText, { now: () => now })).toBeNull();

    keepStepUpDraft('groups.m1', { groups: ['Admin'] });
    expect(peekStepUpDraft('groups.m1', asText)).toBeNull();
    sessionStorage.setItem('ums.step-up-draft.groups.m1', '{not json');
    expect(peekStepUpDraft('groups.m1', asText)).toBeNull();
  });
});

describe('useStepUpDraft', () => {
  function Screen({ onDraft }: { onDraft: (draft: StepUpDraft<string>) => void }) {
    const draft = useStepUpDraft('groups.m1', asText);
    onDraft(draft);
    return <output aria-label="restored">{draft.restored ?? 'nothing'}</output>;
  }

  it('brings a kept draft back once when the screen opens after the sign-in, even under StrictMode', () => {
    keepStepUpDraft('groups.m1', 'Admin, Support');
    const first = render(
      <StrictMode>
        <Screen onDraft={() => undefined} />
      </StrictMode>,
    );
    expect(screen.getByLabelText('restored').textContent).toBe('Admin, Support');
    // Opening the screen again later starts afresh.
    first.unmount();
    render(<Screen onDraft={() => undefined} />);
    expect(screen.getByLabelText('restored').textContent).toBe('nothing');
  });

  it('keeps the draft through a step-up refusal and drops it on success or any other refusal', () => {
    let draft: StepUpDraft<string> | undefined;
    render(<Screen onDraft={(d) => (draft = d)} />);
    draft!.keep('Admin, Support');
    draft!.settle(new StepUpRequiredError('For your security, sign in again to do this.', null, 300));
    expect(peekStepUpDraft('groups.m1', asText)).toBe('Admin, Support');
    draft!.settle(new ApiError(409, 'You cannot remove your own Admin group: ask another administrator.'));
    expect(peekStepUpDraft('groups.m1', asText)).toBeNull();
    draft!.keep('Admin');
    draft!.settle(null);
    expect(peekStepUpDraft('groups.m1', asText)).toBeNull();
    draft!.keep('Admin');
    draft!.drop();
    expect(peekStepUpDraft('groups.m1', asText)).toBeNull();
  });
});
