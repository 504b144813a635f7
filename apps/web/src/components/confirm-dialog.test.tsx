import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render.js';
import { ConfirmDialog } from './confirm-dialog.js';

function Asking({ onConfirm }: { onConfirm: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <ConfirmDialog
      open={open}
      title="Sign Out"
      message="Are you sure you want to sign out?"
      cancelLabel="Cancel"
      confirmLabel="Sign Out"
      onCancel={() => setOpen(false)}
      onConfirm={() => {
        onConfirm();
        setOpen(false);
      }}
    />
  );
}

describe('the confirm dialog', () => {
  it('moves the focus into the dialog when it opens, so the keyboard reaches its buttons without the mouse', async () => {
    renderWithProviders(<Asking onConfirm={vi.fn()} />);
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign Out' });
    expect(within(dialog).getByText('Are you sure you want to sign out?')).toBeTruthy();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    // Both answers are native buttons in the tab order (Enter and Space press them).
    for (const name of ['Cancel', 'Sign Out']) {
      const button = within(dialog).getByRole('button', { name });
      expect(button.tagName).toBe('BUTTON');
      expect(button.tabIndex).toBe(0);
    }
  });

  it('closes without confirming when Escape is pressed', async () => {
    const confirmed = vi.fn();
    renderWithProviders(<Asking onConfirm={confirmed} />);
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign Out' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(confirmed).not.toHaveBeenCalled();
  });
});
