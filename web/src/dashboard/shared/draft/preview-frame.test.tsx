import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PreviewFrame } from './preview-frame';

afterEach(cleanup);

describe('the preview frame', () => {
  it('changes scheme while the frame holds a page still arriving, without its root element, and sets it once that page has loaded', async () => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 200 })));
    render(<PreviewFrame generation="1" anchor="projects" scheme="dark" languages={['en']} src="/preview" />);
    const frame = (await screen.findByTitle(/^Preview of the draft/, {}, { timeout: 10_000 })) as HTMLIFrameElement;
    const inner = frame.contentDocument!;
    // The moment between a navigation's commit and the parser's first element.
    inner.documentElement?.remove();
    expect(inner.documentElement).toBeNull();
    const errors = vi.spyOn(console, 'error');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Light' }));
    });
    expect(errors).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Light' }).getAttribute('aria-pressed')).toBe('true');
    // The page arrives: its load follows the chosen scheme.
    inner.appendChild(inner.createElement('html'));
    fireEvent.load(frame);
    expect(inner.documentElement.getAttribute('data-scheme')).toBe('light');
  });
});
