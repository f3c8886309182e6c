//! A Svelte action: focus (and select) an element when it appears.

export function focusOnMount(node: HTMLElement, select = false): void {
  // After the dialog is laid out, or WebKit may ignore the focus.
  requestAnimationFrame(() => {
    node.focus();
    if (select && node instanceof HTMLInputElement) node.select();
  });
}
