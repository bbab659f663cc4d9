import { localStore } from '@kol/shared-sdk';

type DraftPage = 'generate' | 'create';

/**
 * The unsent input of a writing page, in `localStore.writingDraft` (one slot for both pages:
 * its `text` holds the page's inputs as JSON). A draft of the other page answers null.
 */
export function readWritingDraft<T extends object>(page: DraftPage): Partial<T> | null {
  const draft = localStore.get('writingDraft');
  if (!draft || draft.page !== page) return null;
  try {
    const value: unknown = JSON.parse(draft.text);
    return typeof value === 'object' && value !== null ? (value as Partial<T>) : null;
  } catch {
    return null;
  }
}

export function writeWritingDraft(page: DraftPage, inputs: object): void {
  localStore.set('writingDraft', {
    page,
    text: JSON.stringify(inputs),
    savedAt: new Date().toISOString(),
  });
}
