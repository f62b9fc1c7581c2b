/** @jest-environment jsdom */
// Issue 33: below lg the public header folds its links into a disclosure that Escape closes.
import { fireEvent, render, screen } from '@testing-library/react';
import { PublicMenu } from '@/components/public/PublicMenu';

function renderMenu() {
  render(
    <PublicMenu label="Menu">
      <nav aria-label="Site navigation">
        <a href="#faq">FAQ</a>
        <a href="#login">Log in</a>
      </nav>
    </PublicMenu>,
  );
  return screen.getByRole('button', { name: 'Menu' });
}

describe('the public menu button', () => {
  it('shows and hides the links it controls', () => {
    const button = renderMenu();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation')).toBeNull();
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const nav = screen.getByRole('navigation', { name: 'Site navigation' });
    expect(nav.parentElement).toHaveAttribute('id', button.getAttribute('aria-controls'));
    expect(screen.getByRole('link', { name: 'Log in' })).toBeVisible();
  });

  it('closes on Escape with focus back on the button, on a chosen link and on a click outside', () => {
    const button = renderMenu();
    fireEvent.click(button);
    screen.getByRole('link', { name: 'FAQ' }).focus();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    fireEvent.click(screen.getByRole('link', { name: 'FAQ' }));
    expect(button).toHaveAttribute('aria-expanded', 'false');

    fireEvent.click(button);
    fireEvent.pointerDown(document.body);
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
