/**
 * Where the header's popups (the notices panel, the user menu) are put: inside the header, the
 * page's banner landmark, not at the end of the body, where they would be content outside any
 * landmark (the accessibility audit's `region` rule) and away from the button that opened them
 * for a screen reader.
 */
export function inHeader(trigger: HTMLElement): HTMLElement {
  return trigger.closest<HTMLElement>('header') ?? document.body;
}
