import { createElement, type ComponentProps } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ActionForm } from './action-form';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh: () => {} }) }));

/**
 * An admin form as the server sends it, before the page is hydrated: its fields and its button
 * are disabled, so a click cannot submit it natively (a GET of the page with the fields in the
 * URL, and nothing done). e2e/team.spec.ts clicked "Create key" in that moment on a loaded CI
 * machine, and the key was never made.
 */
describe('ActionForm before hydration', () => {
  it('renders its fields inside a disabled fieldset', () => {
    // The children are createElement's arguments; its typing wants them among the props too.
    const props = { method: 'POST', action: '/api/debug/keys', show: 'key', testId: 'create-key' } as ComponentProps<typeof ActionForm>;
    const html = renderToString(
      createElement(ActionForm, props, createElement('input', { name: 'name', 'data-testid': 'key-name' }), createElement('button', { type: 'submit' }, 'Create key')),
    );
    expect(html).toMatch(/^<form [^>]*data-testid="create-key"[^>]*><fieldset disabled="" class="contents"><input [^>]*data-testid="key-name"[^>]*\/><button type="submit">Create key<\/button><\/fieldset><\/form>$/);
  });
});
