import { createContext, lazy, Suspense, useContext, type ReactNode } from 'react';
import { useLazyDialog } from '../../lib/use-lazy-dialog.js';

// Fetched on the first "Sign Out": dialogs are not part of the account page's first load.
const SignOutDialog = lazy(() => import('./sign-out-confirm.js').then((m) => ({ default: m.SignOutDialog })));

const SignOutContext = createContext<(() => void) | null>(null);

/**
 * Holds the dialog above the routes: it must outlive the page that opened it, or its closing never finishes
 * and the next page stays hidden from assistive technology.
 */
export function SignOutProvider({ children }: { children: ReactNode }) {
  const dialog = useLazyDialog();
  return (
    <SignOutContext.Provider value={dialog.show}>
      {children}
      {dialog.mounted ? (
        <Suspense fallback={null}>
          <SignOutDialog open={dialog.open} onOpenChange={dialog.setOpen} />
        </Suspense>
      ) : null}
    </SignOutContext.Provider>
  );
}

export function useSignOut(): () => void {
  const open = useContext(SignOutContext);
  if (!open) throw new Error('useSignOut must be used inside SignOutProvider');
  return open;
}
