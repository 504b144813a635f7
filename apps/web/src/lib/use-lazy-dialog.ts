import { useState } from 'react';

/**
 * A dialog whose code loads on first use: `mounted` turns true at the first `show` (render the lazy dialog only
 * then, so it stays out of the page's first load) and stays true, so closing it can finish its animation.
 */
export function useLazyDialog() {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  return {
    open,
    mounted,
    show: () => {
      setMounted(true);
      setOpen(true);
    },
    hide: () => setOpen(false),
    setOpen,
  };
}
