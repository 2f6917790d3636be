import { useEffect, type RefObject } from 'react';

/**
 * Keeps keyboard focus inside `container` while `active` (the chat as a modal dialog, WCAG 2.4.3):
 * Tab from the last focusable element goes to the first, Shift+Tab from the first to the last,
 * and Tab from anywhere outside goes in. In the embed frame it keeps focus from leaving the frame.
 */

const FOCUSABLE = 'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0 && !el.closest('[hidden], [inert]'));
}

export function useFocusTrap(container: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    function onKeyDown(event: KeyboardEvent) {
      const root = container.current;
      if (event.key !== 'Tab' || !root) return;
      const items = focusables(root);
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items.at(-1)!;
      const current = document.activeElement;
      const inside = current instanceof Node && root.contains(current);
      if (event.shiftKey ? !inside || current === first : !inside || current === last) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      }
    }
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [container, active]);
}
