/**
 * After a refused submit, takes the user to the first problem: the first field marked
 * `aria-invalid="true"` in document order is focused (and scrolled into view by the browser), or,
 * when the first problem is a message without a field (e.g. "Add at least one file"), that
 * `role="alert"` element is scrolled into view. Runs on the next frame, once React has rendered the
 * errors. A form submitted from its bottom would otherwise leave 'Title is required' off-screen.
 */
export function focusFirstError(form: HTMLElement | null): void {
  if (!form) return;
  requestAnimationFrame(() => {
    const first = form.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]');
    if (!first) return;
    if (first.getAttribute('aria-invalid') === 'true') first.focus();
    else first.scrollIntoView?.({ block: 'center' });
  });
}
