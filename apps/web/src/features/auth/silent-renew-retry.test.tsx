import { act, render } from '@testing-library/react';
import { AuthContext } from 'react-oidc-context';
import { describe, expect, it, vi } from 'vitest';
import { fakeAuth } from '../../test/render.js';
import { useSilentRenewRetry } from './silent-renew-retry.js';

function setup() {
  let listener: ((error: Error) => void) | undefined;
  const unsubscribe = vi.fn();
  const auth = fakeAuth({
    events: {
      addSilentRenewError: (cb: (error: Error) => void) => {
        listener = cb;
        return unsubscribe;
      },
    } as never,
  });
  function Probe() {
    useSilentRenewRetry();
    return null;
  }
  const view = render(
    <AuthContext.Provider value={auth}>
      <Probe />
    </AuthContext.Provider>,
  );
  return { auth, fire: (error: Error) => listener!(error), unsubscribe, view };
}

const timeout = () => Object.assign(new Error('IFrame timed out without a response'), { name: 'ErrorTimeout' });

describe('silent renew', () => {
  it('tries again 5 s after a renewal timed out', async () => {
    vi.useFakeTimers();
    const { auth, fire } = setup();
    fire(timeout());
    await act(async () => vi.advanceTimersByTime(4999));
    expect(auth.signinSilent).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(auth.signinSilent).toHaveBeenCalledOnce();
  });

  it('does not retry errors other than a time-out, such as login_required', async () => {
    vi.useFakeTimers();
    const { auth, fire } = setup();
    fire(new Error('login_required'));
    await act(async () => vi.advanceTimersByTime(10_000));
    expect(auth.signinSilent).not.toHaveBeenCalled();
  });

  it('stops listening and cancels a pending retry when the app unmounts', async () => {
    vi.useFakeTimers();
    const { auth, fire, unsubscribe, view } = setup();
    fire(timeout());
    view.unmount();
    await act(async () => vi.advanceTimersByTime(5000));
    expect(unsubscribe).toHaveBeenCalled();
    expect(auth.signinSilent).not.toHaveBeenCalled();
  });
});
