import { createContext, lazy, Suspense, useContext, useState, type ReactNode } from 'react';

// Fetched on the first "Sign Out": dialogs are not part of the account page's first load.
const SignOutDialog = lazy(() => import('./sign-out-confirm.js').then((m) => ({ default: m.SignOutDialog })));

const SignOutContext = createContext<(() => void) | null>(null);

/**
 * Holds the dialog above the routes: it must outlive the page that opened it, or its closing never finishes
 * and the next page stays hidden from assistive technology.
 */
export function SignOutProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const show = () => {
    setUsed(true);
    setOpen(true);
  };
  return (
    <SignOutContext.Provider value={show}>
      {children}
      {used ? (
        <Suspense fallback={null}>
          <SignOutDialog open={open} onOpenChange={setOpen} />
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
